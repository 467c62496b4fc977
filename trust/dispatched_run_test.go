package trust

import (
	"strings"
	"testing"

	"github.com/planwarden/planwarden/rules"
)

// With plan_source: dispatch only the plans planwarden dispatched itself
// count: on the default branch, by its own account, naming the pull
// request and its head. Each way to pass one off is refused; the honest
// run is not.
func TestDispatchedRun(t *testing.T) {
	t.Parallel()
	const head = "1111111111111111111111111111111111111111"
	cfg, err := rules.ParseConfig(".github/planwarden.yml", []byte("version: 1\nplan_source: dispatch\n"))
	if err != nil {
		t.Fatal(err)
	}
	artifact := rules.DefaultConfig()
	pr := PullRequest{Number: 7, Repo: "o/r", HeadSHA: head}
	honest := Dispatched{Title: "planwarden plan #7 " + PlanDispatchID(7, head), Actor: "planwarden[bot]", Branch: "main",
		Event: "workflow_dispatch", Path: rules.DefaultPlanWorkflow, HeadRepo: "o/r"}
	for name, tc := range map[string]struct {
		cfg  *rules.Config
		edit func(d *Dispatched)
		why  string
	}{
		"honest":                      {cfg, func(*Dispatched) {}, ""},
		"artifact mode":               {artifact, func(*Dispatched) {}, "does not set plan_source: dispatch"},
		"a pull_request run":          {cfg, func(d *Dispatched) { d.Event = "pull_request" }, "triggered by pull_request"},
		"another workflow":            {cfg, func(d *Dispatched) { d.Path = ".github/workflows/x.yml" }, "not a plan workflow"},
		"a fork's commit":             {cfg, func(d *Dispatched) { d.HeadRepo = "mallory/r" }, "mallory/r"},
		"the author's branch":         {cfg, func(d *Dispatched) { d.Branch = "feature" }, "not on the default branch"},
		"dispatched by someone else":  {cfg, func(d *Dispatched) { d.Actor = "octocat" }, "triggered by octocat"},
		"a title naming another head": {cfg, func(d *Dispatched) { d.Title = PlanDispatchID(7, strings.Repeat("2", 40)) }, "names no plan of #7"},
		"a title naming another PR":   {cfg, func(d *Dispatched) { d.Title = PlanDispatchID(8, head) }, "names no plan of #7"},
	} {
		t.Run(name, func(t *testing.T) {
			d := honest
			tc.edit(&d)
			ok, why := DispatchedRun(tc.cfg, pr, d, "planwarden[bot]", "main")
			if ok != (tc.why == "") || !strings.Contains(why, tc.why) {
				t.Errorf("DispatchedRun = %v %q, want %q", ok, why, tc.why)
			}
		})
	}
}
