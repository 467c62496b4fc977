package app_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// Generated credential shapes, not real ones.
const (
	e2eToken    = "ghp_Q7rT2mXk9LpV4sW8nZ3cB6yD1fH5jA0gE2iK"
	e2ePassword = "Tr0ub4dor-kQ93mZx!"
	e2eStripe   = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
)

func secretPlan(t *testing.T) []byte {
	t.Helper()
	plan := map[string]any{"format_version": "1.2", "terraform_version": "1.9.8",
		"resource_changes": []any{
			map[string]any{"address": `aws_ssm_parameter.p["` + e2eToken + `"]`, "index": e2eToken, "mode": "managed", "type": "aws_ssm_parameter", "name": "p",
				"change": map[string]any{"actions": []string{"update"},
					"before":        map[string]any{"type": "String", "tags": map[string]any{"note": "old"}},
					"after":         map[string]any{"type": "SecureString", "tags": map[string]any{"note": "stripe " + e2eStripe}},
					"after_unknown": map[string]any{}, "before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}}},
			map[string]any{"address": "aws_lambda_function.f", "mode": "managed", "type": "aws_lambda_function", "name": "f",
				"change": map[string]any{"actions": []string{"update"},
					"before": map[string]any{"environment": []any{map[string]any{"variables": map[string]any{"MODE": "a"}}}},
					"after": map[string]any{"environment": []any{map[string]any{"variables": map[string]any{"MODE": "b",
						"DB_PASS": e2ePassword, "DATABASE_URL": "postgres://app:" + e2ePassword + "@db:5432/app"}}}},
					"after_unknown": map[string]any{}, "before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}}},
		},
		"checks": []any{map[string]any{"address": map[string]any{"kind": "check", "to_display": "check.db", "name": "db"}, "status": "fail",
			"instances": []any{map[string]any{"address": map[string]any{"to_display": "check.db"}, "status": "fail",
				"problems": []any{map[string]any{"message": "login failed: postgres://app:" + e2ePassword + "@db:5432/app"}}}}}},
	}
	b, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPlantedSecretsReachNoOutputOfTheApp: through the App, no planted
// secret reaches the PR comment, the check run or the log, and the changes
// are still reviewed.
func TestPlantedSecretsReachNoOutputOfTheApp(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", secretPlan(t)}, metadata("stack", "dev")), runOpt{})
	check := h.planwardenCheck(sha1)
	comments := h.gh.Comments(owner, repo, 7)
	if len(comments) != 1 || check.Status != "completed" {
		t.Fatalf("%d comments, check %s: want the plan reviewed", len(comments), check.Status)
	}
	seen := comments[0].Body + check.Title + check.Summary + check.Text + h.logs.String()
	for _, s := range []string{e2eToken, e2ePassword, e2eStripe} {
		if strings.Contains(seen, s) {
			t.Errorf("%q reached the comment, the check run or the log", s)
		}
	}
	for _, want := range []string{"aws_lambda_function.f", `aws_ssm_parameter.p["(sensitive) `, "check.db"} {
		if !strings.Contains(comments[0].Body, want) {
			t.Errorf("the comment lost %s", want)
		}
	}
}

// TestUnreadablePlanErrorHidesSecrets: the error text of a plan that cannot
// be read goes to the check run; the address it quotes keeps its secret
// key hidden.
func TestUnreadablePlanErrorHidesSecrets(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.openPR(7, sha1)
	broken := `{"format_version":"1.2","resource_changes":[{"address":"aws_ssm_parameter.p[\"` + e2eToken + `\"]","change":{"actions":["explode"]}}]}`
	h.planRun("run-1", 501, 7, sha1, zipOf(t, entry{"plan.json", []byte(broken)}), runOpt{})
	check := h.planwardenCheck(sha1)
	if check.Conclusion != "failure" || !strings.Contains(check.Summary, "resource_changes[0]") {
		t.Fatalf("check %s %q: want a failure naming resource_changes[0]", check.Conclusion, check.Summary)
	}
	if strings.Contains(check.Summary+check.Text+h.logs.String(), e2eToken) {
		t.Errorf("the token reached the check or the log: %s", check.Summary)
	}
}
