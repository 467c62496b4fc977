package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// check_per_project: besides `planwarden`, one check run per project of
// the review, named planwarden/<project>, so branch protection can require
// a project on its own. Each concludes from its project's findings alone.

// completeProjectChecks concludes planwarden/<project> for each project of
// the report.
func (a *App) completeProjectChecks(ctx context.Context, gh Publisher, repo Repo, sha string, r *review.Report, runs map[string]comment.Run, main CheckRun) error {
	for _, p := range r.Projects {
		run := runs[p.Name]
		check, _, err := a.writer(gh, repo).ProjectCheck(ctx, sha, p.Name, "Reviewing plan", "planwarden is waiting for the plan of project "+code(p.Name)+".")
		if err != nil {
			return err
		}
		one := &review.Report{Verdict: rules.VerdictOf(p.Findings), Projects: []*review.Project{p}}
		conclusion := comment.Conclusion(one)
		blocking := 0
		for _, f := range p.Findings {
			if f.Severity == rules.SeverityBlock && f.Override == nil {
				blocking++
			}
		}
		title := fmt.Sprintf("%s: %s", p.Name, one.Verdict)
		if blocking > 0 {
			title = fmt.Sprintf("%s: %d blocking %s", p.Name, blocking, plural(blocking, "finding", "findings"))
		}
		summary := fmt.Sprintf("Project %s (environment %s) in %s: verdict **%s**, %d %s. The findings are in the `planwarden` check",
			code(p.Name), code(p.Environment), runRef(WorkflowRun{ID: run.ID, HTMLURL: run.URL}), one.Verdict, len(p.Findings), plural(len(p.Findings), "finding", "findings"))
		if main.HTMLURL != "" {
			summary = strings.TrimSuffix(summary, "the `planwarden` check") + "the [`planwarden` check](" + main.HTMLURL + ")"
		}
		if err := a.writer(gh, repo).Complete(ctx, check, publish.Outcome{Conclusion: conclusion, Title: title, Summary: summary + "."}, run.ID); err != nil {
			return err
		}
	}
	return nil
}

// projectChecksInProgress puts the projects' checks back in progress for
// a /plan, when the config asks for them: the named projects, else every
// declared one, else those of the latest review.
func (a *App) projectChecksInProgress(ctx context.Context, c command, pr PullRequest, cfg *rules.Config, projects []string) error {
	if !cfg.CheckPerProject {
		return nil
	}
	if len(projects) == 0 {
		for _, p := range cfg.Projects {
			projects = append(projects, p.Name)
		}
	}
	if len(projects) == 0 {
		st, _, err := a.state.Read(ctx, c.job.GroupKey())
		if err != nil {
			return err
		}
		for _, p := range st.Projects {
			projects = append(projects, p.Name)
		}
	}
	for _, p := range projects {
		if _, err := c.gh.CreateCheckRun(ctx, c.repo, CheckRun{Name: publish.ProjectCheckName(p), HeadSHA: pr.HeadSHA, Status: "in_progress",
			Title: "Re-planning requested by @" + c.sender, Summary: "`/plan` by " + code(c.sender) + " dispatched a new plan of " + code(p) + "."}); err != nil {
			return err
		}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
