package rules

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/ext"
)

// The typed picture of what a custom rule's expression sees, for checking
// it before any plan: the same keys as changeVars and customRule.check,
// each with its type. Evaluation keeps the map values; these types only
// let CEL's checker name a misspelled key or a string compared with a
// number at validate time, instead of a warning on every change.

// celSKU is `change.sku` and `change.sku_before`.
type celSKU struct {
	Name         string  `cel:"name"`
	Family       string  `cel:"family"`
	VCPU         int64   `cel:"vcpu"`
	MemoryGiB    float64 `cel:"memory_gib"`
	GPUCount     float64 `cel:"gpu_count"`
	GPUModel     string  `cel:"gpu_model"`
	GPUMemoryGiB float64 `cel:"gpu_memory_gib"`
	Accelerator  string  `cel:"accelerator"`
	HasGPU       bool    `cel:"has_gpu"`
	Known        bool    `cel:"known"`
	Retired      bool    `cel:"retired"`
}

// celChange is `change`.
type celChange struct {
	Address         string             `cel:"address"`
	Type            string             `cel:"type"`
	Name            string             `cel:"name"`
	Mode            string             `cel:"mode"`
	Action          string             `cel:"action"`
	ReplaceOrder    string             `cel:"replace_order"`
	Reason          string             `cel:"reason"`
	ReplacePaths    []string           `cel:"replace_paths"`
	PreviousAddress string             `cel:"previous_address"`
	Importing       bool               `cel:"importing"`
	Before          map[string]any     `cel:"before"`
	After           map[string]any     `cel:"after"`
	Kind            string             `cel:"kind"`
	Region          string             `cel:"region"`
	Tags            map[string]string  `cel:"tags"`
	Labels          map[string]string  `cel:"labels"`
	GPUs            float64            `cel:"gpus"`
	GPUsMax         float64            `cel:"gpus_max"`
	Cost            map[string]float64 `cel:"cost"`
	SKU             celSKU             `cel:"sku"`
	SKUBefore       celSKU             `cel:"sku_before"`
}

// celProject is `project`.
type celProject struct {
	Name        string `cel:"name"`
	Environment string `cel:"environment"`
	Protected   bool   `cel:"protected"`
}

// celTypedEnv declares change and project with their types.
var celTypedEnv = sync.OnceValue(func() *cel.Env {
	env, err := cel.NewEnv(
		ext.NativeTypes(reflect.TypeOf(celChange{}), reflect.TypeOf(celSKU{}), reflect.TypeOf(celProject{}), ext.ParseStructTags(true)),
		cel.Variable("change", cel.ObjectType("rules.celChange")),
		cel.Variable("project", cel.ObjectType("rules.celProject")),
		cel.CrossTypeNumericComparisons(true),
	)
	if err != nil {
		panic("rules: typed CEL environment: " + err.Error())
	}
	return env
})

// mixedNumberEquality is a checker complaint the evaluation does not share:
// with the map values a rule runs on, 4.0 == 4 is true.
var mixedNumberEquality = regexp.MustCompile(`no matching overload for '_[=!]=_' applied to '\((int|uint|double), (int|uint|double)\)'`)

// typeCheckCustom checks a custom rule's when expression against the typed
// change and project: an unknown key (change.sku.gpu_modell), an operator
// on the wrong types ("4" > 3, a string method given a number), or an
// expression that is not true/false. The error names the first problem
// and its column in the expression.
func typeCheckCustom(when string) error {
	ast, iss := celTypedEnv().Compile(when)
	if iss != nil && iss.Err() != nil {
		for _, e := range iss.Errors() {
			if mixedNumberEquality.MatchString(e.Message) {
				continue
			}
			msg := strings.ReplaceAll(e.Message, " (in container '')", "")
			msg = strings.ReplaceAll(msg, "rules.celChange", "change")
			msg = strings.ReplaceAll(msg, "rules.celSKU", "sku")
			msg = strings.ReplaceAll(msg, "rules.celProject", "project")
			if f, ok := strings.CutPrefix(msg, "undefined field '"); ok {
				f = strings.TrimSuffix(f, "'")
				msg = fmt.Sprintf("no key %q here", f)
				if s := suggest(f, celKeys()); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
			}
			return fmt.Errorf("%s (line %d, column %d of the expression)", msg, e.Location.Line(), e.Location.Column()+1)
		}
		return nil
	}
	if t := ast.OutputType(); t != cel.BoolType && t != cel.DynType {
		return fmt.Errorf("expected a true/false expression, got one of type %s", t)
	}
	return nil
}

// celKeys are the names an expression may select, for a did-you-mean.
var celKeys = sync.OnceValue(func() []string {
	var out []string
	for _, t := range []reflect.Type{reflect.TypeOf(celChange{}), reflect.TypeOf(celSKU{}), reflect.TypeOf(celProject{})} {
		for i := 0; i < t.NumField(); i++ {
			out = append(out, t.Field(i).Tag.Get("cel"))
		}
	}
	return out
})
