package run

import (
	"context"
	"slices"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// The publish stage: the comment, the check runs and the PR's state.

// Limits of what one PR's state remembers.
const (
	maxResourceList = 30
	// maxProjectStatuses bounds the projects a PR's state remembers.
	maxProjectStatuses = 100
)

// publish writes the review: the comment, the check (and the projects'
// checks) and the state, which records the runs the check concludes from:
// trust.Keep drops a run all of whose projects have newer plans, and a run
// that brings no project its newest plan is not published at all.
// completed says the check shows the outcome.
func (r *Review) publish(ctx context.Context) (completed bool, err error) {
	res, st, runs := r.res, r.st, r.runs
	if res.assigned != nil {
		kept := trust.Keep(runs, *res.assigned)
		if !r.held && !slices.Contains(kept, r.tr) {
			r.log.Info("older run ignored: every project it plans has a newer plan", "workflow", r.run.Path)
			return true, nil
		}
		runs = kept
	}
	if res.body != "" {
		id, err := r.w.UpsertComment(ctx, r.pr.Number, st, res.body)
		if err != nil {
			return false, err
		}
		st.CommentID = id
	}
	if err := r.w.Complete(ctx, r.checkRun, res.out, r.run.ID); err != nil {
		return false, err
	}
	if res.report != nil && r.cfg.CheckPerProject {
		for _, p := range projectChecks(res.report, res.runs, r.checkRun.HTMLURL) {
			check, _, err := r.w.ProjectCheck(ctx, r.run.HeadSHA, p.Name, comment.ReviewingTitle, comment.ProjectWaitingSummary(p.Name))
			if err != nil {
				return true, err
			}
			if err := r.w.Complete(ctx, check, p.Check(), p.RunID); err != nil {
				return true, err
			}
		}
	}
	if st.HeadSHA != r.run.HeadSHA {
		st.Blocking = nil
	}
	st.HeadSHA, st.CheckRunID, st.RunID, st.Runs = r.run.HeadSHA, r.checkRun.ID, r.run.ID, runs
	if res.report != nil {
		st.Blocking = res.blocking
		st.Projects = projectStatuses(res.report, r.cfg, res.runs)
	}
	st.Conclusion, st.Title, st.Summary, st.UpdatedAt = res.out.Conclusion, res.out.Title, prose.Clamp(res.out.Summary, 4096), r.x.state.Now()
	r.log.Info("check completed", "conclusion", orNone(st.Conclusion), "runs", len(runs))
	r.runs = runs
	return true, r.x.state.Put(ctx, r.key, st)
}

// projectChecks are the checks planwarden/<project> of the report's
// projects (check_per_project), each concluded from its project's
// findings alone.
func projectChecks(report *review.Report, runs map[string]comment.Run, checkURL string) []comment.ProjectCheck {
	var out []comment.ProjectCheck
	for _, p := range report.Projects {
		run := runs[p.Name]
		one := &review.Report{Verdict: rules.VerdictOf(p.Findings), Projects: []*review.Project{p}}
		blocking := 0
		for _, f := range p.Findings {
			if f.Severity == rules.SeverityBlock && f.Override == nil {
				blocking++
			}
		}
		out = append(out, comment.ProjectCheck{Name: p.Name, Environment: p.Environment, Verdict: one.Verdict, Conclusion: comment.Conclusion(one),
			Findings: len(p.Findings), Blocking: blocking, RunID: run.ID, RunURL: run.URL, CheckURL: checkURL})
	}
	return out
}

// projectStatuses are the projects of a review, for /destroy-staging's
// list. Only projects of an environment that may be destroyed keep their
// resources (the state must stay small: a DynamoDB item holds 400 KB).
func projectStatuses(r *review.Report, cfg *rules.Config, runs map[string]comment.Run) []port.ProjectStatus {
	var out []port.ProjectStatus
	for i, p := range r.Projects {
		if i == maxProjectStatuses {
			break
		}
		run := runs[p.Name]
		ps := port.ProjectStatus{Name: p.Name, Environment: p.Environment, Verdict: string(rules.VerdictOf(p.Findings)), RunID: run.ID, RunURL: run.URL}
		if t, err := time.Parse(time.RFC3339, p.Timestamp); err == nil {
			ps.PlanTime = t
		}
		_, destroyable := cfg.DestroyWorkflow(p.Environment)
		for _, c := range p.Changes {
			if !destroyable {
				break
			}
			if c.Mode() == "data" || c.Action() == "delete" || c.Action() == "read" || c.Action() == "forget" {
				continue
			}
			if len(ps.Resources) < maxResourceList {
				ps.Resources = append(ps.Resources, prose.Clamp(c.Address(), 200))
			} else {
				ps.More++
			}
		}
		out = append(out, ps)
	}
	return out
}
