package rules

import (
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// actionInvocation: a Terraform 1.14+ plan runs provider actions at apply
// time (invoke a Lambda function, drain nodes, run a playbook). Code that
// runs in an environment on apply is a decision someone should take, so
// each invocation is a finding: warn by default, and a config raises it to
// block where it matters (environments.prod: block). Deferred invocations
// wait for a later plan, which is reviewed in its turn; they are listed in
// the report but are not findings here.
type actionInvocation struct{}

func (actionInvocation) severity(*scope) Severity { return SeverityWarn }

func (actionInvocation) check(s *scope) []draft {
	if s.project.Plan == nil {
		return nil
	}
	out := s.spare()
	for _, a := range s.project.Plan.Actions {
		msg := "applying this runs " + actionName(a) + " " + a.When(func(x string) string {
			if x == a.Event { // the one word When quotes that is no address
				x = planparse.ShownName(x)
			}
			return code(x)
		})
		if a.OnFailure != "" {
			msg += "; on failure: " + planparse.ShownName(a.OnFailure)
		}
		out = append(out, draft{address: a.Address, message: msg,
			remedy: "Check what the action does and where it runs (its configuration is in the comment) before you merge: it runs during the apply, not in the plan."})
	}
	return out
}

// actionName is "action `action.aws_lambda_invoke.drain` (aws_lambda_invoke
// of provider hashicorp/aws)".
func actionName(a *planparse.ActionInvocation) string {
	s := "action " + code(a.Address)
	provider := strings.TrimPrefix(a.Provider, "registry.terraform.io/")
	switch {
	case a.Type != "" && provider != "":
		s += " (" + code(a.Type) + " of provider " + code(provider) + ")"
	case a.Type != "":
		s += " (" + code(a.Type) + ")"
	}
	return s
}
