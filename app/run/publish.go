package run

import (
	"cmp"
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

// maxProjectStatuses bounds the projects a PR's state remembers.
const maxProjectStatuses = 100

// publish writes the review: the comment, the check (and the projects'
// checks) and the state, which records the runs the check concludes from:
// trust.Keep drops a run all of whose projects have newer plans, and a run
// that brings no project its newest plan is not published at all.
// completed says the check shows the outcome.
func (r *Review) publish(ctx context.Context) (completed bool, err error) {
	res, st, runs := r.res, r.st, r.runs
	var checks []comment.ProjectCheck
	if res.report != nil {
		st.Projects, checks = projects(res.report, r.cfg, res.runs, r.checkRun.HTMLURL)
	}
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
	for _, p := range checks {
		check, _, err := r.w.ProjectCheck(ctx, r.run.HeadSHA, p.Name, comment.ReviewingTitle, comment.ProjectWaitingSummary(p.Name))
		if err != nil {
			return true, err
		}
		if err := r.w.Complete(ctx, check, p.Check(), p.RunID); err != nil {
			return true, err
		}
	}
	if st.HeadSHA != r.run.HeadSHA {
		st.Blocking = nil
	}
	st.HeadSHA, st.CheckRunID, st.RunID, st.Runs, st.BaseRef = r.run.HeadSHA, r.checkRun.ID, r.run.ID, runs, r.pr.BaseRef
	st.ConfigSHA = r.cfgSHA
	if res.report != nil {
		st.Blocking = res.blocking
	}
	if len(res.modules) > 0 {
		st.Modules = res.modules
	}
	st.Conclusion, st.Title, st.Summary, st.UpdatedAt = res.out.Conclusion, res.out.Title, prose.Clamp(res.out.Summary, 4096), r.x.state.Now()
	r.log.Info("check completed", "conclusion", cmp.Or(st.Conclusion, "unknown"), "runs", len(runs))
	r.runs = runs
	return true, r.x.state.Put(ctx, r.key, st)
}

// projects are the projects of a review as the state keeps them, for
// /destroy-staging's list, and, when the config asks for them
// (check_per_project), their checks planwarden/<project>, each concluded
// from its project's findings alone. Only projects of an environment that
// may be destroyed keep their resources (the state must stay small: a
// DynamoDB item holds 400 KB). checkURL links the `planwarden` check.
func projects(r *review.Report, cfg *rules.Config, runs map[string]comment.Run, checkURL string) ([]port.ProjectStatus, []comment.ProjectCheck) {
	var out []port.ProjectStatus
	var checks []comment.ProjectCheck
	for i, p := range r.Projects {
		run := runs[p.Name]
		if cfg.CheckPerProject {
			one := &review.Report{Verdict: rules.VerdictOf(p.Findings), Projects: []*review.Project{p}}
			blocking := 0
			for _, f := range p.Findings {
				if f.Severity == rules.SeverityBlock && f.Override == nil {
					blocking++
				}
			}
			checks = append(checks, comment.ProjectCheck{Name: p.Name, Environment: p.Environment, Verdict: one.Verdict, Conclusion: comment.Conclusion(one),
				Findings: len(p.Findings), Blocking: blocking, RunID: run.ID, RunURL: run.URL, CheckURL: checkURL})
		}
		if i >= maxProjectStatuses {
			continue
		}
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
			if len(ps.Resources) < port.MaxListedResources {
				ps.Resources = append(ps.Resources, prose.Clamp(c.Address(), 200))
			} else {
				ps.More++
			}
		}
		out = append(out, ps)
	}
	return out, checks
}
