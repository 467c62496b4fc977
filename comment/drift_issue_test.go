package comment_test

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// driftPlan is the scheduled plan of the default branch after someone
// scaled the A100 pool from the code's 2 nodes to runs nodes in the
// portal: the plan sets it back (runs -> 2), and resource_drift records
// what refresh found (2 -> runs). runs == 2 is the clean plan.
func driftPlan(t *testing.T, runs int, errored bool) *review.Report {
	t.Helper()
	data, err := os.ReadFile("../examples/plans/a100-scale-out.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	rc := doc["resource_changes"].([]any)[0].(map[string]any)
	ch := rc["change"].(map[string]any)
	before, after := ch["before"].(map[string]any), ch["after"].(map[string]any)
	before["max_count"] = after["max_count"] // the code changes nothing but the count
	before["node_count"], after["node_count"] = runs, 2
	if runs == 2 {
		ch["actions"] = []any{"no-op"}
	} else {
		drift := map[string]any{}
		for k, v := range rc {
			drift[k] = v
		}
		drift["change"] = map[string]any{"actions": []any{"update"}, "before": after, "after": before,
			"before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}, "after_unknown": map[string]any{}}
		doc["resource_drift"] = []any{drift}
	}
	doc["errored"] = errored
	data, _ = json.Marshal(doc)
	p, err := planparse.Parse("drift.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return review.Build([]review.Input{{Name: "aks-gpu", Environment: "prod", Plan: p}}, review.Options{})
}

func TestDriftIssueSaysWhatDriftedAndWhatItCosts(t *testing.T) {
	t.Parallel()
	body := comment.DriftIssue(driftPlan(t, 6, false), "aks-gpu", comment.DriftOptions{Commit: "0123456789abcdef", RunURL: "https://github.com/acme/infra/actions/runs/42"})
	for _, want := range []string{
		"GPU pool `a100` scaled 2 → 6 outside Terraform: +\\$15.09/h",
		"**Cost of the drift:** +\\$15.09/h",
		"Planned on `0123456` by [this run](https://github.com/acme/infra/actions/runs/42)",
		"Changed outside Terraform (drift)", // the PR comment's review follows, drift table included
		"### GPU changes",                   // its GPU table
		"0 / 6 / 40 → 0 / 2 / 40",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the drift issue does not say %q:\n%s", want, body)
		}
	}
	if project, ok := comment.ParseDriftMarker(body); !ok || project != "aks-gpu" {
		t.Errorf("ParseDriftMarker = %q, %v; want aks-gpu", project, ok)
	}
	if len(body) > comment.MaxCommentBytes {
		t.Errorf("the body is %d bytes, over GitHub's %d", len(body), comment.MaxCommentBytes)
	}
	if title := comment.DriftTitle(driftPlan(t, 6, false).Projects[0]); title != "planwarden: drift in aks-gpu (prod)" {
		t.Errorf("title %q", title)
	}
}

func TestDriftStateOfAPlan(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		runs    int
		errored bool
		want    comment.DriftState
		says    string
	}{
		"scaled by hand":      {6, false, comment.DriftFound, "scaled 2 → 6"},
		"as the code says":    {2, false, comment.DriftClean, "No drift"},
		"a plan that failed":  {6, true, comment.DriftUnknown, "failed part way"},
		"scaled down by hand": {1, false, comment.DriftFound, "scaled 2 → 1 outside Terraform: -\\$3.77/h"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := driftPlan(t, tc.runs, tc.errored)
			if got := comment.DriftOf(r.Projects[0]); got != tc.want {
				t.Errorf("DriftOf = %s, want %s", got, tc.want)
			}
			if body := comment.DriftIssue(r, "aks-gpu", comment.DriftOptions{}); !strings.Contains(body, tc.says) {
				t.Errorf("the body does not say %q:\n%s", tc.says, body)
			}
		})
	}
}

// One issue per project: opened on the first drift, edited while it
// lasts and changes, closed when it is gone; a failed plan closes nothing.
func TestDecideDrift(t *testing.T) {
	t.Parallel()
	open := comment.IssueState{Number: 12, Open: true, Body: "old"}
	closed := comment.IssueState{Number: 12, Open: false, Body: "old"}
	tests := map[string]struct {
		prev  comment.IssueState
		state comment.DriftState
		body  string
		want  comment.DriftAction
	}{
		"first drift":                 {comment.IssueState{}, comment.DriftFound, "new", comment.DriftOpen},
		"drift goes on, changed":      {open, comment.DriftFound, "new", comment.DriftEdit},
		"drift goes on, the same":     {open, comment.DriftFound, "old", comment.DriftNone},
		"drift gone":                  {open, comment.DriftClean, "clean", comment.DriftClose},
		"still clean":                 {closed, comment.DriftClean, "clean", comment.DriftNone},
		"never drifted":               {comment.IssueState{}, comment.DriftClean, "clean", comment.DriftNone},
		"drift again after a close":   {closed, comment.DriftFound, "new", comment.DriftReopen},
		"a failed plan, issue open":   {open, comment.DriftUnknown, "failed", comment.DriftEdit},
		"a failed plan, issue closed": {closed, comment.DriftUnknown, "failed", comment.DriftNone},
		"a failed plan, no issue":     {comment.IssueState{}, comment.DriftUnknown, "failed", comment.DriftNone},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := comment.DecideDrift(tc.prev, tc.state, tc.body); got != tc.want {
				t.Errorf("DecideDrift = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestDriftMarkerHoldsAnyProjectName(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"aks-gpu", "a --> b", "ünïcode/päth", "<!-- x -->"} {
		m := comment.DriftMarker(name)
		if strings.Count(m, "-->") != 1 || !strings.HasSuffix(m, "-->") {
			t.Errorf("marker of %q ends its HTML comment early: %q", name, m)
		}
		if got, ok := comment.ParseDriftMarker(m + "\nbody"); !ok || got != name {
			t.Errorf("ParseDriftMarker(marker of %q) = %q, %v", name, got, ok)
		}
	}
	// The marker counts only as the first line: a body quoting one is no drift issue.
	if _, ok := comment.ParseDriftMarker("some text\n" + comment.DriftMarker("aks-gpu")); ok {
		t.Errorf("a marker below the first line was read")
	}
}

// The issue's marker keeps the id of the run whose plan wrote the body:
// a plan of an older run changes nothing, whatever it found; the same or
// a newer run is decided as always, and so is a body written before the
// id was kept (no run in its marker).
func TestDecideDriftKeepsTheNewestRunsPlan(t *testing.T) {
	t.Parallel()
	r := driftPlan(t, 6, false)
	body := func(run int64) string {
		return comment.DriftIssue(r, "aks-gpu", comment.DriftOptions{Run: run, RunURL: "https://github.com/acme/infra/actions/runs/" + strconv.FormatInt(run, 10)})
	}
	clean := comment.DriftIssue(driftPlan(t, 2, false), "aks-gpu", comment.DriftOptions{Run: 40})
	tests := map[string]struct {
		prev  comment.IssueState
		state comment.DriftState
		body  string
		want  comment.DriftAction
	}{
		"an older drift, issue open":     {comment.IssueState{Number: 3, Open: true, Body: body(42)}, comment.DriftFound, body(41), comment.DriftOlder},
		"an older clean, issue open":     {comment.IssueState{Number: 3, Open: true, Body: body(42)}, comment.DriftClean, clean, comment.DriftOlder},
		"an older drift, issue closed":   {comment.IssueState{Number: 3, Body: body(42)}, comment.DriftFound, body(41), comment.DriftOlder},
		"a newer drift, issue open":      {comment.IssueState{Number: 3, Open: true, Body: body(41)}, comment.DriftFound, body(42), comment.DriftEdit},
		"the same run again":             {comment.IssueState{Number: 3, Open: true, Body: body(42)}, comment.DriftFound, body(42), comment.DriftNone},
		"a body without a run id":        {comment.IssueState{Number: 3, Open: true, Body: comment.DriftMarker("aks-gpu") + "\nold"}, comment.DriftFound, body(41), comment.DriftEdit},
		"a newer clean closes the issue": {comment.IssueState{Number: 3, Open: true, Body: body(39)}, comment.DriftClean, clean, comment.DriftClose},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := comment.DecideDrift(tc.prev, tc.state, tc.body); got != tc.want {
				t.Errorf("DecideDrift = %s, want %s", got, tc.want)
			}
		})
	}
	if project, ok := comment.ParseDriftMarker(body(42)); !ok || project != "aks-gpu" {
		t.Errorf("ParseDriftMarker of a body with a run id = %q, %v; want aks-gpu", project, ok)
	}
	if _, ok := comment.ParseDriftMarker(strings.Replace(body(42), "run=42", "run=x", 1)); ok {
		t.Errorf("a marker with a malformed run id was read")
	}
}
