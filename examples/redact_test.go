package examples

import (
	"path"
	"regexp"
	"strings"
	"testing"
)

var (
	showJSON = regexp.MustCompile(`(?:terraform|tofu) show -json \S+ > (\S+)`)
	redactTo = regexp.MustCompile(`planwarden redact (\S+) > (\S+)`)
)

// TestPlanWorkflowUploadsOnlyRedactedPlans: `terraform show -json` writes
// sensitive values in clear text, so the example plan workflow must upload
// the output of `planwarden redact`, never the raw JSON (docs/github-app.md).
func TestPlanWorkflowUploadsOnlyRedactedPlans(t *testing.T) {
	w := readWorkflow(t, "planwarden-plan.yml")
	raw, redacted := map[string]bool{}, map[string]bool{}
	var uploaded []string
	for _, job := range w.Jobs {
		for _, s := range job.Steps {
			for _, m := range showJSON.FindAllStringSubmatch(s.Run, -1) {
				raw[m[1]] = true
			}
			for _, m := range redactTo.FindAllStringSubmatch(s.Run, -1) {
				if !raw[m[1]] {
					t.Errorf("planwarden redact reads %s, which is not the terraform show -json output", m[1])
				}
				redacted[m[2]] = true
			}
			if strings.HasPrefix(s.Uses, "actions/upload-artifact") {
				for _, p := range strings.Fields(s.With["path"]) {
					uploaded = append(uploaded, path.Base(p))
				}
			}
		}
	}
	if len(raw) == 0 || len(redacted) == 0 {
		t.Fatalf("the workflow has no terraform show -json (%v) or no planwarden redact (%v)", raw, redacted)
	}
	plans := 0
	for _, u := range uploaded {
		switch {
		case raw[u]:
			t.Errorf("the workflow uploads the raw plan %s", u)
		case redacted[u]:
			plans++
		case strings.HasSuffix(u, ".json") && u != "planwarden-metadata.json":
			t.Errorf("the workflow uploads %s, which is not a redacted plan", u)
		}
	}
	if plans == 0 {
		t.Errorf("the workflow uploads no redacted plan (uploads %v)", uploaded)
	}
}
