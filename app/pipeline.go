package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// outcome is what the check run will say.
type outcome struct {
	Conclusion  string
	Title       string
	Summary     string
	Text        string
	Annotations []comment.Annotation
}

func failed(title, summary string) outcome {
	return outcome{Conclusion: "failure", Title: title, Summary: summary}
}

// reviewRun is the shared pipeline of workflow_run and check_run: from a
// finished run to one PR comment and a completed check run.
func (a *App) reviewRun(ctx context.Context, gh GitHub, repo Repo, run WorkflowRun) error {
	log := logger(ctx).With("run", run.ID)
	arts, err := gh.ListRunArtifacts(ctx, repo, run.ID)
	if err != nil {
		return err
	}
	plans := planArtifacts(arts)
	if len(plans) == 0 && !a.cfg.Commands.isPlanWorkflow(run) {
		log.Debug("not a plan workflow run", "workflow", run.Path)
		return nil
	}
	pr, ok, err := a.findPR(ctx, gh, repo, run)
	if err != nil || !ok {
		if ok = err == nil; ok {
			log.Info("no open pull request for the run's head", "sha", short(run.HeadSHA))
		}
		return err
	}
	key := Job{Owner: repo.Owner, Repo: repo.Name, PR: pr.Number}.GroupKey()
	if len(run.PullRequests) == 0 {
		ctx = withLogger(ctx, log.With("pr", pr.Number))
	}
	defer a.locks.lock(key)()
	st, _, err := a.store.PR(ctx, key)
	if err != nil {
		return err
	}
	if pr.HeadSHA != run.HeadSHA {
		return a.reportStale(ctx, gh, repo, run, pr)
	}
	check, err := a.ensureCheck(ctx, gh, repo, run.HeadSHA, "Reviewing plan")
	if err != nil {
		return err
	}
	if completed, err := a.publishLatest(ctx, gh, repo, key, pr, run, plans, check, st); err != nil {
		if completed {
			return err
		}
		// Say so on the check rather than leave it in progress; a retry
		// (SQS, or "Re-run") replaces this.
		out := failed("planwarden hit an error", "planwarden could not finish this review because a GitHub request failed. Press Re-run on this check to try again.")
		if cerr := a.completeCheck(ctx, gh, repo, check, out, run.ID); cerr != nil {
			logger(ctx).Warn("could not report the error on the check", "err", cerr)
		}
		return err
	}
	return nil
}

// publishLatest publishes the review, and when another job wrote the PR's
// state meanwhile (an override recorded or revoked, a label, another
// review), reads it again and publishes again from it: a review made with
// an override that is gone must not be the one that stays on the check.
func (a *App) publishLatest(ctx context.Context, gh GitHub, repo Repo, key string, pr PullRequest, run WorkflowRun, plans []Artifact, check CheckRun, st PRState) (completed bool, err error) {
	for attempt := 1; ; attempt++ {
		completed, err = a.publish(ctx, gh, repo, key, pr, run, plans, check, st)
		if !errors.Is(err, ErrConflict) || attempt == maxStateAttempts {
			return completed, err
		}
		logger(ctx).Info("pr state changed during the review; reviewing again with the new state", "attempt", attempt)
		if st, _, err = a.store.PR(ctx, key); err != nil {
			return completed, err
		}
	}
}

// publish reviews the run and writes the comment, the check and the
// state. completed says the check already shows the outcome. A plan as
// new as the stored one is published again (so a second attempt after a
// conflict lands); only an older one is ignored.
func (a *App) publish(ctx context.Context, gh GitHub, repo Repo, key string, pr PullRequest, run WorkflowRun, plans []Artifact, check CheckRun, st PRState) (completed bool, err error) {
	res := a.evaluate(ctx, gh, repo, pr, run, plans, check, st)
	if st.HeadSHA == run.HeadSHA && res.report != nil && !comment.Newer(comment.Marker{PlanTime: st.PlanTime}, comment.Marker{PlanTime: res.planTime}) {
		logger(ctx).Info("older plan ignored: a newer plan was already reviewed", "plan_time", res.planTime)
		return true, nil
	}
	if res.body != "" {
		id, skip, err := a.upsertComment(ctx, gh, repo, pr.Number, st, res.body, run.HeadSHA, res.planTime)
		if err != nil {
			return false, err
		}
		if skip {
			logger(ctx).Info("older plan ignored: the comment shows a newer one", "plan_time", res.planTime)
			return true, nil
		}
		st.CommentID = id
	}
	if err := a.completeCheck(ctx, gh, repo, check, res.out, run.ID); err != nil {
		return false, err
	}
	if st.HeadSHA != run.HeadSHA {
		st.PlanTime = time.Time{}
	}
	st.HeadSHA, st.CheckRunID, st.RunID = run.HeadSHA, check.ID, run.ID
	if res.report != nil {
		st.PlanTime = res.planTime
	}
	st.Conclusion, st.Title, st.Summary, st.UpdatedAt = res.out.Conclusion, res.out.Title, clamp(res.out.Summary, 4096), a.now()
	logger(ctx).Info("check completed", "conclusion", st.Conclusion)
	return true, a.store.PutPR(ctx, key, st, a.cfg.StateTTL)
}

// result is a review's outcome, and the comment when there is a review.
type result struct {
	out      outcome
	body     string
	report   *review.Report
	planTime time.Time
}

// evaluate reads the run's plans and reviews them, with the PR's
// overrides. Everything that goes wrong here is the PR's to fix and goes
// on the check run.
func (a *App) evaluate(ctx context.Context, gh GitHub, repo Repo, pr PullRequest, run WorkflowRun, arts []Artifact, check CheckRun, st PRState) result {
	name := run.Name
	if name == "" {
		name = "the plan workflow"
	}
	inputs, planTime, out, ok := a.readPlans(ctx, gh, repo, run, arts)
	if !ok {
		return result{out: out}
	}
	cfg, out, ok := a.repoConfig(ctx, gh, repo, pr.BaseRef)
	if !ok {
		return result{out: out}
	}
	report := a.reviewWithOverrides(inputs, cfg, pr, run.HeadSHA, st)
	opt := comment.Options{HeadSHA: run.HeadSHA, PlanTime: planTime, Marker: true, DetailsURL: check.HTMLURL}
	co := comment.CheckOutput(report, opt)
	out = outcome{Conclusion: co.Conclusion, Title: co.Title, Summary: co.Summary, Text: co.Text, Annotations: co.Annotations}
	if out.Title == "" {
		out.Title = "Verdict: " + orNone(string(report.Verdict))
	}
	if out.Summary == "" {
		out.Summary = fmt.Sprintf("planwarden reviewed %d plan(s) of %s (%s).", len(inputs), name, runRef(run))
	}
	return result{out: out, body: comment.Render(report, opt), report: report, planTime: planTime}
}

// readPlans downloads and parses the run's plan artifacts. planTime is
// the newest plan timestamp, else the run's start.
func (a *App) readPlans(ctx context.Context, gh GitHub, repo Repo, run WorkflowRun, arts []Artifact) (inputs []review.Input, planTime time.Time, out outcome, ok bool) {
	name := run.Name
	if name == "" {
		name = "the plan workflow"
	}
	if run.Conclusion != "success" {
		return nil, time.Time{}, failed("Plan workflow "+orNone(run.Conclusion),
			fmt.Sprintf("The workflow run %s (%s) concluded %s, so there is no plan to review. Fix the run and re-run it; planwarden reviews the plan when it succeeds.",
				name, runRef(run), orNone(run.Conclusion))), false
	}
	if len(arts) == 0 {
		return nil, time.Time{}, failed("No plan artifact",
			fmt.Sprintf("The workflow run %s (%s) uploaded no artifact whose name starts with `%s`. Upload the `terraform show -json` output as an artifact named `%s-<project>`.",
				name, runRef(run), ArtifactPrefix, ArtifactPrefix)), false
	}
	if len(arts) > a.cfg.Limits.MaxArtifacts {
		return nil, time.Time{}, failed("Too many plan artifacts",
			fmt.Sprintf("The run uploaded %d plan artifacts; planwarden reads at most %d.", len(arts), a.cfg.Limits.MaxArtifacts)), false
	}
	files, out, ok := a.download(ctx, gh, repo, arts)
	if !ok {
		return nil, time.Time{}, out, false
	}
	var stamped time.Time
	planTime = run.RunStartedAt
	for _, f := range files {
		p, err := planparse.Parse(f.Name, f.Data)
		if err != nil {
			return nil, time.Time{}, failed("Unreadable plan", "planwarden could not read a plan file of this run:\n\n"+codeBlock(err.Error())), false
		}
		if t, err := time.Parse(time.RFC3339, p.Timestamp); err == nil && t.After(stamped) {
			stamped = t
		}
		inputs = append(inputs, review.Input{Name: f.Project, Environment: f.Environment, Plan: p})
	}
	if !stamped.IsZero() {
		planTime = stamped
	}
	return inputs, planTime, outcome{}, true
}

// planArtifacts keeps the artifacts planwarden reads.
func planArtifacts(arts []Artifact) []Artifact {
	var plans []Artifact
	for _, art := range arts {
		if strings.HasPrefix(art.Name, ArtifactPrefix) {
			plans = append(plans, art)
		}
	}
	return plans
}

// repoConfig reads the config from the PR's base branch, so a PR cannot
// loosen the rules that gate it.
func (a *App) repoConfig(ctx context.Context, gh GitHub, repo Repo, baseRef string) (*rules.Config, outcome, bool) {
	for _, file := range configPaths {
		data, err := gh.GetFile(ctx, repo, file, baseRef)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			logger(ctx).Error("read repo config", "file", file, "err", err)
			return nil, failed("Repo config not read", fmt.Sprintf("planwarden could not read %s from %s. Re-run the check to try again.", file, baseRef)), false
		}
		cfg, err := parseConfig(file, data)
		if err != nil {
			out := failed("Bad config "+file, fmt.Sprintf("The repo config %s on %s cannot be used:\n\n%s", file, baseRef, codeBlock(err.Error())))
			out.Annotations = configAnnotations(err)
			return nil, out, false
		}
		return cfg, outcome{}, true
	}
	return rules.DefaultConfig(), outcome{}, true
}

// findPR finds the open PR whose head is the run's head: from the run's
// pull_requests, else from the commit.
func (a *App) findPR(ctx context.Context, gh GitHub, repo Repo, run WorkflowRun) (PullRequest, bool, error) {
	for _, n := range run.PullRequests {
		pr, err := gh.GetPullRequest(ctx, repo, n)
		if err != nil {
			return PullRequest{}, false, err
		}
		if pr.State == "open" {
			return pr, true, nil
		}
	}
	if len(run.PullRequests) > 0 {
		return PullRequest{}, false, nil
	}
	prs, err := gh.ListPRsForCommit(ctx, repo, run.HeadSHA)
	if err != nil {
		return PullRequest{}, false, err
	}
	for _, pr := range prs {
		if pr.State == "open" && pr.HeadSHA == run.HeadSHA {
			return pr, true, nil
		}
	}
	for _, pr := range prs {
		if pr.State == "open" {
			return pr, true, nil // the PR moved on: reported stale
		}
	}
	return PullRequest{}, false, nil
}

// reportStale completes the run's own commit's check as stale, and leaves
// the PR's current head (and the comment) alone.
func (a *App) reportStale(ctx context.Context, gh GitHub, repo Repo, run WorkflowRun, pr PullRequest) error {
	logger(ctx).Info("stale plan: the pull request has moved on", "plan_sha", short(run.HeadSHA), "head_sha", short(pr.HeadSHA))
	check, err := a.ensureCheck(ctx, gh, repo, run.HeadSHA, "Reviewing plan")
	if err != nil {
		return err
	}
	return a.completeCheck(ctx, gh, repo, check, outcome{
		Conclusion: "neutral",
		Title:      "Stale plan",
		Summary: fmt.Sprintf("This plan is for %s, but #%d has moved on to %s. It was not reviewed; the check of %s waits for that commit's plan.",
			short(run.HeadSHA), pr.Number, short(pr.HeadSHA), short(pr.HeadSHA)),
	}, run.ID)
}

func runRef(run WorkflowRun) string {
	if run.HTMLURL != "" {
		return fmt.Sprintf("[run %d](%s)", run.ID, run.HTMLURL)
	}
	return fmt.Sprintf("run %d", run.ID)
}

func orNone(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func codeBlock(s string) string {
	return "```\n" + strings.ReplaceAll(clamp(s, 8000), "```", "'''") + "\n```"
}

// clamp cuts s to at most n bytes on a rune boundary.
func clamp(s string, n int) string { return prose.Clamp(s, n) }

// short is a commit's seven-character name.
func short(sha string) string { return prose.ShortSHA(sha) }
