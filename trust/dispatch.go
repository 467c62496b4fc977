package trust

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/planwarden/planwarden/rules"
)

// With plan_source: dispatch planwarden dispatches the plan workflow
// itself, on the default branch, at every push of a pull request, with
// the pull request's number and head SHA as inputs and a correlation id
// naming both in the run's name. Only those runs count: the workflow file
// and its scripts then come from the default branch, so nothing the pull
// request changes outside its Terraform shapes the artifact.

// PlanDispatchID is the correlation id of the plan planwarden dispatches
// for pull request pr at head: pwp-<pr>-<head>.
func PlanDispatchID(pr int, head string) string { return fmt.Sprintf("pwp-%d-%s", pr, head) }

var dispatchInTitle = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9-])pwp-([0-9]{1,9})-([0-9a-f]{40})(?:$|[^A-Za-z0-9-])`)
})

// PlanDispatchOfTitle finds a plan dispatch's correlation id in a run's
// title (its run-name), and the pull request and head it names. The title
// says where to look, never what to trust (DispatchedRun).
func PlanDispatchOfTitle(title string) (pr int, head string, ok bool) {
	m := dispatchInTitle().FindStringSubmatch(title)
	if m == nil {
		return 0, "", false
	}
	n, err := strconv.Atoi(m[1])
	return n, m[2], err == nil && n > 0
}

// Dispatched is what GitHub says of a run that claims to be a plan
// planwarden dispatched.
type Dispatched struct {
	// Title is the run's title, Actor who triggered it, Branch the branch
	// it ran on, Event what triggered it, Path its workflow file and
	// HeadRepo the repository of its commit.
	Title, Actor, Branch, Event, Path, HeadRepo string
}

// DispatchedRun reports whether run is a plan planwarden dispatched for
// pull request pr at its head, under cfg's plan_source: dispatch, and
// when not, why: a workflow_dispatch run of a plan workflow, on the
// default branch (defaultBranch) of the base repository, triggered by
// planwarden's own account (bot: nobody else can trigger as it), whose
// title carries the correlation id of pr and its head.
func DispatchedRun(cfg *rules.Config, pr PullRequest, run Dispatched, bot, defaultBranch string) (bool, string) {
	n, head, _ := PlanDispatchOfTitle(run.Title)
	switch {
	case !cfg.Dispatches():
		return false, "the base branch's config does not set plan_source: dispatch, so a dispatched plan does not count"
	case run.Event != "workflow_dispatch":
		return false, fmt.Sprintf("with plan_source: dispatch only runs planwarden dispatches count; this one was triggered by %s", orUnknown(run.Event))
	case !cfg.IsPlanWorkflow(run.Path):
		return false, fmt.Sprintf("%s is not a plan workflow", orUnknown(run.Path))
	case !strings.EqualFold(run.HeadRepo, pr.Repo):
		return false, fmt.Sprintf("the run ran on a commit of %s, not of %s", orUnknown(run.HeadRepo), pr.Repo)
	case run.Branch != defaultBranch:
		return false, fmt.Sprintf("the run ran on %s, not on the default branch %s, so its workflow file is not the default branch's", orUnknown(run.Branch), defaultBranch)
	case !strings.EqualFold(run.Actor, bot):
		return false, fmt.Sprintf("the run was triggered by %s, not by planwarden (%s)", orUnknown(run.Actor), bot)
	case n != pr.Number || head != pr.HeadSHA:
		return false, fmt.Sprintf("the run's title names no plan of #%d at %s", pr.Number, short(pr.HeadSHA))
	}
	return true, ""
}
