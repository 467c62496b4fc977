package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
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
// finished run to one PR comment and a completed check run. Only a run
// the base branch's config trusts (trust.PlanRun) is reviewed; the review
// covers the newest run of every plan workflow on the head commit.
func (a *App) reviewRun(ctx context.Context, gh GitHub, repo Repo, run WorkflowRun) error {
	log := logger(ctx).With("run", run.ID)
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
	cfg, cfgOut, cfgOK := a.repoConfig(ctx, gh, repo, pr.BaseRef)
	if cfgOK {
		// A run of an older head is reported stale below, on its own
		// commit; every other fact must hold.
		tpr := trustPR(repo, pr)
		tpr.HeadSHA = run.HeadSHA
		if trusted, why := trust.PlanRun(cfg, tpr, trustRun(run)); !trusted {
			log.Info("run ignored: its artifacts are not trusted", "why", why, "workflow", run.Path, "event", run.Event)
			return nil
		}
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
	in := reviewIn{pr: pr, run: run, cfg: cfg, cfgOut: cfgOut, cfgOK: cfgOK, check: check}
	if completed, err := a.publishLatest(ctx, gh, repo, key, in, st); err != nil {
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

// reviewIn is what one review starts from: the PR, the run that asked for
// it, the base branch's config (or the check's outcome when it is bad) and
// the check run.
type reviewIn struct {
	pr     PullRequest
	run    WorkflowRun
	cfg    *rules.Config
	cfgOut outcome
	cfgOK  bool
	check  CheckRun
}

// publishLatest publishes the review, and when another job wrote the PR's
// state meanwhile (an override recorded or revoked, a label, another
// review), reads it again and publishes again from it: a review made with
// an override that is gone must not be the one that stays on the check.
func (a *App) publishLatest(ctx context.Context, gh GitHub, repo Repo, key string, in reviewIn, st PRState) (completed bool, err error) {
	for attempt := 1; ; attempt++ {
		completed, err = a.publish(ctx, gh, repo, key, in, st)
		if !errors.Is(err, ErrConflict) || attempt == maxStateAttempts {
			return completed, err
		}
		logger(ctx).Info("pr state changed during the review; reviewing again with the new state", "attempt", attempt)
		if st, _, err = a.store.PR(ctx, key); err != nil {
			return completed, err
		}
	}
}

// publish reviews the newest plan runs of the head and writes the comment,
// the check and the state. completed says the check already shows the
// outcome. Which run is newest is GitHub's run id and attempt: a run older
// than the one recorded for its workflow is ignored, whatever its plan's
// timestamp says; the recorded run itself is reviewed again (a re-run, an
// override, a second attempt after a conflict).
func (a *App) publish(ctx context.Context, gh GitHub, repo Repo, key string, in reviewIn, st PRState) (completed bool, err error) {
	run := in.run
	var runs []trust.Run
	if st.HeadSHA == run.HeadSHA {
		runs = runsOf(st)
	}
	tr := trustRun(run)
	if recorded, newer := trust.Record(runs, tr); newer {
		runs = recorded
	} else if !slices.Contains(runs, tr) {
		logger(ctx).Info("older run ignored: a newer run of its workflow was already reviewed", "workflow", run.Path)
		return true, nil
	}
	res := a.evaluate(ctx, gh, repo, in, runs, st)
	if res.body != "" {
		id, err := a.upsertComment(ctx, gh, repo, in.pr.Number, st, res.body)
		if err != nil {
			return false, err
		}
		st.CommentID = id
	}
	if err := a.completeCheck(ctx, gh, repo, in.check, res.out, run.ID); err != nil {
		return false, err
	}
	if st.HeadSHA != run.HeadSHA {
		st.Blocking = nil
	}
	st.HeadSHA, st.CheckRunID, st.RunID, st.Runs = run.HeadSHA, in.check.ID, run.ID, storedRuns(runs)
	if res.report != nil {
		st.Blocking = storedSubjects(res.blocking)
	}
	st.Conclusion, st.Title, st.Summary, st.UpdatedAt = res.out.Conclusion, res.out.Title, clamp(res.out.Summary, 4096), a.now()
	logger(ctx).Info("check completed", "conclusion", orNone(st.Conclusion), "runs", len(runs))
	return true, a.store.PutPR(ctx, key, st, a.cfg.StateTTL)
}

// result is a review's outcome, and the comment when there is a review.
type result struct {
	out      outcome
	body     string
	report   *review.Report
	blocking []trust.Subject
}

// evaluate reads the plans of the runs and reviews them with the PR's
// overrides, under the base branch's config. Everything that goes wrong
// here is the PR's to fix and goes on the check run.
func (a *App) evaluate(ctx context.Context, gh GitHub, repo Repo, in reviewIn, runs []trust.Run, st PRState) result {
	if !in.cfgOK {
		return result{out: in.cfgOut}
	}
	col, out, ok := a.collect(ctx, gh, repo, in.pr, in.cfg, runs)
	if !ok {
		return result{out: out}
	}
	defer col.memory.release()
	report, blocking, err := a.reviewWithOverrides(ctx, gh, col, in.cfg, in.pr, st)
	if err != nil {
		logger(ctx).Error("check who may override", "err", err)
		return result{out: failed("Overrides not checked", "planwarden could not check who may override (a GitHub request failed). Press Re-run on this check to try again.")}
	}
	opt := comment.Options{HeadSHA: in.run.HeadSHA, PlanTime: col.planTime, Marker: true, DetailsURL: in.check.HTMLURL}
	co := comment.CheckOutput(report, opt)
	out = outcome{Conclusion: co.Conclusion, Title: co.Title, Summary: co.Summary, Text: co.Text, Annotations: co.Annotations}
	if out.Title == "" {
		out.Title = "Verdict: " + orNone(string(report.Verdict))
	}
	if out.Summary == "" {
		out.Summary = fmt.Sprintf("planwarden reviewed %d plan(s) of %d run(s) (%s).", len(col.inputs), len(runs), runRef(in.run))
	}
	if len(col.waiting) > 0 && report.Verdict != rules.VerdictFail {
		// A declared project's plan may still come from a plan workflow
		// that has not finished: no conclusion yet.
		out = outcome{Title: "Waiting for plan", Summary: fmt.Sprintf("planwarden waits for the plan of %s: this pull request changes its files, and not every plan workflow (%s) has finished on this commit.",
			codeList(col.waiting), codeList(in.cfg.PlanWorkflowPaths()))}
	}
	return result{out: out, body: comment.Render(report, opt), report: report, blocking: blocking}
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
