package rules

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
)

// celEnv declares what a custom rule's when expression may use: change
// and project, both maps (see changeVars and customRule.check). It is made
// on first use (cel.NewEnv costs about half a millisecond at start-up), for
// the configs with custom rules.
var celEnv = sync.OnceValue(func() *cel.Env {
	env, err := cel.NewEnv(
		cel.Variable("change", cel.MapType(cel.StringType, cel.DynType)),
		cel.Variable("project", cel.MapType(cel.StringType, cel.DynType)),
		cel.CrossTypeNumericComparisons(true),
	)
	if err != nil {
		panic("rules: CEL environment: " + err.Error())
	}
	return env
})

var antlrExpecting = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` expecting \{.*\}$`) })

// celCostLimit bounds the work one evaluation may do, so a custom rule
// cannot stall a review.
const celCostLimit = 1_000_000

// compileCustom compiles a custom rule's when expression. The error names
// the first problem and its column in the expression.
func compileCustom(r CustomRule) (*customRule, error) {
	ast, iss := celEnv().Compile(r.When)
	if iss != nil && iss.Err() != nil {
		errs := iss.Errors()
		if len(errs) == 0 {
			return nil, iss.Err()
		}
		e := errs[0]
		msg := strings.ReplaceAll(e.Message, " (in container '')", "")
		// ANTLR lists every token it would have taken; the position says enough.
		msg = antlrExpecting().ReplaceAllString(msg, "")
		return nil, fmt.Errorf("%s (line %d, column %d of the expression)", msg, e.Location.Line(), e.Location.Column()+1)
	}
	if t := ast.OutputType(); t != cel.BoolType && t != cel.DynType {
		return nil, fmt.Errorf("expected a true/false expression, got one of type %s", t)
	}
	prg, err := celEnv().Program(ast, cel.CostLimit(celCostLimit))
	if err != nil {
		return nil, err
	}
	return &customRule{def: r, eval: func(change, project map[string]any) (bool, error) {
		out, _, err := prg.Eval(map[string]any{"change": change, "project": project})
		if err != nil {
			return false, err
		}
		b, ok := out.Value().(bool)
		if !ok {
			return false, fmt.Errorf("the expression gave %v, not true or false", out.Value())
		}
		return b, nil
	}}, nil
}
