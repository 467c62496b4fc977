package rules

import (
	"os"
	"testing"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// A plan can list an address twice: a create_before_destroy replacement
// and the delete of a deposed object it left. A custom rule sees each
// change with its own resource (SKU, GPUs, cost), not the other one's.
func TestCustomRuleSeesADeposedObjectsOwnResource(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../planparse/testdata/deposed-replace.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse("deposed-replace.json", data)
	if err != nil {
		t.Fatal(err)
	}
	cfg := mustConfig(t, "version: 1\ncustom_rules:\n"+
		"  - id: replaced-onto\n    when: change.action == 'replace'\n    message: \"{address} runs on {sku}\"\n"+
		"  - id: deposed-delete\n    when: change.action == 'delete'\n    message: \"{address} was on {sku}\"\n")
	res := cfg.Evaluate([]Project{{Name: "ml", Environment: "prod", Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})}}, nil)
	got := map[string]string{}
	for _, f := range res.Findings {
		got[f.Rule] = f.Message
	}
	want := map[string]string{"replaced-onto": "aws_instance.a runs on g5.2xlarge", "deposed-delete": "aws_instance.a was on p3.2xlarge"}
	for rule, msg := range want {
		if got[rule] != msg {
			t.Errorf("%s: %q, want %q", rule, got[rule], msg)
		}
	}
}
