package comment

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// Thousands of actions with large configurations still give a comment
// within GitHub's limit, saying how many actions were left out.
func TestManyActionsFit(t *testing.T) {
	t.Parallel()
	var acts []any
	for i := range 3000 {
		acts = append(acts, map[string]any{"address": fmt.Sprintf("action.aws_lambda_invoke.a%d", i), "type": "aws_lambda_invoke", "name": fmt.Sprintf("a%d", i),
			"config_values":            map[string]any{"function_name": strings.Repeat("f", 200), "payload": strings.Repeat("p", 2000)},
			"lifecycle_action_trigger": map[string]any{"triggering_resource_address": "aws_instance.x", "action_trigger_event": "BeforeCreate"}})
	}
	data, err := json.Marshal(map[string]any{"format_version": "1.2", "action_invocations": acts})
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse("many.json", data)
	if err != nil {
		t.Fatal(err)
	}
	r := review.Build([]review.Input{{Name: "many", Plan: p}}, review.Options{})
	body := Render(r, Options{})
	checkBody(t, body, Options{})
	if !strings.Contains(body, "### Actions the apply will run") || !strings.Contains(body, "`action.aws_lambda_invoke.a0` runs before `aws_instance.x` is created") {
		t.Errorf("the first action is not listed")
	}
	if !strings.Contains(body, "more actions, left out to fit") || !regexp.MustCompile(`Left out: [^\n]*\b[0-9,]+ actions\b`).MatchString(body) {
		t.Errorf("the comment does not say actions were left out:\n%.2000s", body)
	}
	c := CheckOutput(r, Options{})
	if len(c.Summary) > MaxCheckBytes || len(c.Text) > MaxCheckBytes {
		t.Errorf("check output over the limit: summary %d, text %d", len(c.Summary), len(c.Text))
	}
}
