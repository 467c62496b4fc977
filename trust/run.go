// Package trust decides what the `planwarden` check may believe: which
// workflow runs' artifacts are reviewed, which run is the newest, which
// project and environment a plan belongs to, which files of a pull request
// need a plan, and which recorded overrides still count. Its inputs are
// GitHub's facts (which workflow ran, on which event, from which
// repository, for which commit; what the pull request changes; who wrote
// it) and the base branch's config; nothing the pull request's own
// workflow writes decides a conclusion. It does no I/O: the app asks
// GitHub and hands the answers in.
package trust

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// PullRequest is what GitHub says about the pull request a review is for.
type PullRequest struct {
	Number int
	// Repo is the base repository, owner/name.
	Repo    string
	HeadSHA string
	// Author is the login of the pull request's author.
	Author string
}

// PlanEvents are the events whose runs of a plan workflow count: a push to
// the pull request, `/plan` (workflow_dispatch), and the merge queue.
var PlanEvents = []string{"pull_request", "workflow_dispatch", "merge_group"}

// PlanRun reports whether the artifacts of run may be reviewed for pr, and
// when not, why, in a sentence for the log and the comment. A run counts
// when it is a run of one of the config's plan workflows (by path, exactly),
// triggered by one of PlanEvents, of a commit of the base repository (not a
// fork), whose head is the pull request's head.
func PlanRun(cfg *rules.Config, pr PullRequest, run record.Run) (bool, string) {
	switch {
	case !cfg.IsPlanWorkflow(run.Path):
		return false, fmt.Sprintf("run %d is of %s, which is not a plan workflow (plan_workflows: %s)",
			run.ID, orUnknown(run.Path), strings.Join(cfg.PlanWorkflowPaths(), ", "))
	case !slices.Contains(PlanEvents, run.Event):
		return false, fmt.Sprintf("run %d was triggered by %s; only %s runs make trusted plans",
			run.ID, orUnknown(run.Event), strings.Join(PlanEvents, ", "))
	case !strings.EqualFold(run.HeadRepo, pr.Repo):
		return false, fmt.Sprintf("run %d ran on a commit of %s, not of %s", run.ID, orUnknown(run.HeadRepo), pr.Repo)
	case run.HeadSHA != pr.HeadSHA:
		return false, fmt.Sprintf("run %d is of commit %s, not of the pull request's head %s", run.ID, short(run.HeadSHA), short(pr.HeadSHA))
	case cfg.Dispatches() && !run.Dispatched:
		return false, fmt.Sprintf("run %d was not dispatched by planwarden; with plan_source: dispatch only those runs count", run.ID)
	}
	return true, ""
}

// Record adds run to runs, the trusted runs of one commit whose plans the
// check concludes from (see Keep): the check reviews the newest plan of
// every project, whichever run and plan workflow it comes from. A later
// attempt of a held run replaces the earlier one. Record refuses run
// (false) when runs holds it or a later attempt of it, and when it did not
// succeed while runs holds a newer run of its workflow: only the newest run
// of a workflow speaks for it when it fails. A successful run older than
// the newest of its workflow is added, since it may hold the newest plan of
// a project the newer runs do not plan; Keep drops it when it holds none.
// A failed run that is no longer the newest of its workflow is dropped. The
// result is ordered by workflow path, then run.
func Record(runs []record.Run, run record.Run) ([]record.Run, bool) {
	newest, ok := NewestOf(runs, run.Path)
	if ok && !run.After(newest) && run.Conclusion != "success" {
		return runs, false
	}
	out := make([]record.Run, 0, len(runs)+1)
	for _, r := range runs {
		if r.ID == run.ID {
			if !run.After(r) {
				return runs, false
			}
			continue
		}
		out = append(out, r)
	}
	out = append(out, run)
	newest, _ = NewestOf(out, run.Path)
	out = slices.DeleteFunc(out, func(r record.Run) bool { return r.Path == run.Path && r != newest && r.Conclusion != "success" })
	sortRuns(out)
	return out, true
}

// NewestOf returns the newest run of the workflow path in runs.
func NewestOf(runs []record.Run, path string) (record.Run, bool) {
	var newest record.Run
	found := false
	for _, r := range runs {
		if r.Path == path && (!found || r.After(newest)) {
			newest, found = r, true
		}
	}
	return newest, found
}

// Superseded reports whether runs holds a newer run of r's workflow.
func Superseded(runs []record.Run, r record.Run) bool {
	newest, ok := NewestOf(runs, r.Path)
	return ok && newest.After(r)
}

// Keep returns the runs that the check still concludes from after a: the
// newest run of each plan workflow (Reported looks at them; a failed one
// fails the check) and every run that holds the plan a reviews for some
// project. A run all of whose projects have newer plans is dropped. The
// result is ordered like Record's.
func Keep(runs []record.Run, a Assignment) []record.Run {
	var out []record.Run
	for _, r := range runs {
		holds := slices.ContainsFunc(a.Plans, func(p Assigned) bool { return p.Run == r })
		if holds || !Superseded(runs, r) {
			out = append(out, r)
		}
	}
	sortRuns(out)
	return out
}

func sortRuns(runs []record.Run) {
	slices.SortFunc(runs, func(a, b record.Run) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// Reported reports whether every plan workflow of cfg has a run in runs.
func Reported(cfg *rules.Config, runs []record.Run) bool {
	for _, wf := range cfg.PlanWorkflowPaths() {
		if !slices.ContainsFunc(runs, func(r record.Run) bool { return r.Path == wf }) {
			return false
		}
	}
	return true
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown one"
	}
	return s
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return orUnknown(sha)
}
