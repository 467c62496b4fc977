package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// reviewRun is the shared pipeline of workflow_run and check_run: from a
// finished run to one PR comment and a completed check run. Only a run
// the base branch's config trusts (trust.PlanRun) is reviewed; the review
// covers the newest run of every plan workflow on the head commit.
func (a *App) reviewRun(ctx context.Context, gh reviewer, repo Repo, run WorkflowRun) error {
	log := worklog.From(ctx).With("run", run.ID)
	pr, ok, err := a.findPR(ctx, gh, repo, run)
	if err != nil || !ok {
		if ok = err == nil; ok {
			log.Info("no open pull request for the run's head", "sha", short(run.HeadSHA))
		}
		return err
	}
	key := Job{Owner: repo.Owner, Repo: repo.Name, PR: pr.Number}.GroupKey()
	if len(run.PullRequests) == 0 {
		ctx = worklog.With(ctx, log.With("pr", pr.Number))
	}
	// A config that cannot be used (or that GitHub refuses for good) is
	// the review's publish.Outcome, on the check; one not read yet is retried.
	cfg, cfgErr := a.repoConfig(ctx, gh, repo, pr.BaseRef)
	if cfgErr != nil && publish.FinalOf(cfgErr) == nil {
		return cfgErr
	}
	if cfgErr == nil {
		// A run of an older head is reported stale below, on its own
		// commit; every other fact must hold.
		tpr := trustPR(repo, pr)
		tpr.HeadSHA = run.HeadSHA
		if trusted, why := trust.PlanRun(cfg, tpr, trustRun(run)); !trusted {
			log.Info("run ignored: its artifacts are not trusted", "why", why, "workflow", run.Path, "event", run.Event)
			return nil
		}
	}
	defer a.state.Lock(key)()
	st, _, err := a.state.Read(ctx, key)
	if err != nil {
		return err
	}
	if pr.HeadSHA != run.HeadSHA {
		return a.reportStale(ctx, gh, repo, run, pr)
	}
	check, err := a.writer(gh, repo).EnsureCheck(ctx, run.HeadSHA, "Reviewing plan")
	if err != nil {
		return err
	}
	in := reviewIn{pr: pr, run: run, cfg: cfg, cfgErr: cfgErr, check: check}
	if completed, err := a.publishLatest(ctx, gh, repo, key, in, st); err != nil {
		if completed {
			return err
		}
		// The check stays in progress: a retry of the job replaces it,
		// and a final error concludes it (settle).
		return publish.AboutCheck(check, run.ID, err)
	}
	a.hideAfterReview(ctx, gh, repo, key, pr.Number)
	return nil
}

// reviewIn is what one review starts from: the PR, the run that asked for
// it, the base branch's config (or the *publish.Final saying why it is bad) and
// the check run.
type reviewIn struct {
	pr     PullRequest
	run    WorkflowRun
	cfg    *rules.Config
	cfgErr error
	check  CheckRun
}

// publishLatest publishes the review, and when another job wrote the PR's
// state meanwhile (an override recorded or revoked, a label, another
// review), reads it again and publishes again from it: a review made with
// an override that is gone must not be the one that stays on the check.
func (a *App) publishLatest(ctx context.Context, gh reviewer, repo Repo, key string, in reviewIn, st PRState) (completed bool, err error) {
	for attempt := 1; ; attempt++ {
		completed, err = a.publish(ctx, gh, repo, key, in, st)
		if !errors.Is(err, ErrConflict) || attempt == publish.MaxAttempts {
			return completed, err
		}
		worklog.From(ctx).Info("pr state changed during the review; reviewing again with the new state", "attempt", attempt)
		if st, _, err = a.state.Read(ctx, key); err != nil {
			return completed, err
		}
	}
}

// publish reviews the newest plan of every project on the head and writes
// the comment, the check and the state. completed says the check already
// shows the outcome. Which plan is newest is GitHub's run id and attempt,
// project by project, across runs and plan workflows (trust.Record,
// trust.Keep): a run that brings no project a newer plan is ignored,
// whatever its plan's timestamp says; a recorded run is reviewed again (a
// re-run, an override, a second attempt after a conflict). A final error
// of the review (finalOf) is its outcome: the check says it and the state
// records it; any other error is returned, for the job to be retried.
func (a *App) publish(ctx context.Context, gh reviewer, repo Repo, key string, in reviewIn, st PRState) (completed bool, err error) {
	run := in.run
	var runs []record.Run
	if st.HeadSHA == run.HeadSHA {
		runs = st.Runs
	}
	tr := trustRun(run)
	held := slices.Contains(runs, tr)
	if !held {
		recorded, ok := trust.Record(runs, tr)
		if !ok {
			worklog.From(ctx).Info("run ignored: a later attempt of it was reviewed, or it did not succeed and a newer run of its workflow was reviewed",
				"workflow", run.Path, "attempt", tr.Attempt, "conclusion", orNone(run.Conclusion))
			return true, nil
		}
		runs = recorded
	}
	res, err := a.evaluate(ctx, gh, repo, in, runs, st)
	if err != nil {
		fin := publish.FinalOf(err)
		if fin == nil {
			return false, err
		}
		worklog.From(ctx).Info("review ends on the check", "title", fin.Title, "err", err)
		res = result{out: fin.Outcome()}
	}
	if res.assigned != nil {
		kept := trust.Keep(runs, *res.assigned)
		if !held && !slices.Contains(kept, tr) {
			worklog.From(ctx).Info("older run ignored: every project it plans has a newer plan", "workflow", run.Path)
			return true, nil
		}
		runs = kept
	}
	if res.body != "" {
		id, err := a.writer(gh, repo).UpsertComment(ctx, in.pr.Number, st, res.body)
		if err != nil {
			return false, err
		}
		st.CommentID = id
	}
	if err := a.writer(gh, repo).Complete(ctx, in.check, res.out, run.ID); err != nil {
		return false, err
	}
	if res.report != nil && in.cfg.CheckPerProject {
		if err := a.completeProjectChecks(ctx, gh, repo, run.HeadSHA, res.report, res.runs, in.check); err != nil {
			return true, err
		}
	}
	if st.HeadSHA != run.HeadSHA {
		st.Blocking = nil
	}
	st.HeadSHA, st.CheckRunID, st.RunID, st.Runs = run.HeadSHA, in.check.ID, run.ID, runs
	if res.report != nil {
		st.Blocking = res.blocking
		st.Projects = projectStatuses(res.report, in.cfg, res.runs)
	}
	st.Conclusion, st.Title, st.Summary, st.UpdatedAt = res.out.Conclusion, res.out.Title, clamp(res.out.Summary, 4096), a.now()
	worklog.From(ctx).Info("check completed", "conclusion", orNone(st.Conclusion), "runs", len(runs))
	return true, a.state.Put(ctx, key, st)
}

// result is a review's publish.Outcome, and the comment when there is a review.
type result struct {
	out      publish.Outcome
	body     string
	report   *review.Report
	blocking []record.Blocking
	// runs are the runs the report's projects come from, by project.
	runs map[string]comment.Run
	// assigned is where the reviewed plans came from, when they were read.
	assigned *trust.Assignment
}

// evaluate reads the plans of the runs and reviews them with the PR's
// overrides, under the base branch's config.
func (a *App) evaluate(ctx context.Context, gh PRReader, repo Repo, in reviewIn, runs []record.Run, st PRState) (result, error) {
	if in.cfgErr != nil {
		return result{}, in.cfgErr
	}
	res, err := a.reviewFor(ctx, gh, repo, in.pr, in.cfg, runs, st, in.run, in.check)
	if err != nil {
		return res, err
	}
	res.out, err = a.strictest(ctx, gh, repo, in, runs, res.out)
	return res, err
}

// reviewFor reviews the runs for one PR under its base's config cfg.
func (a *App) reviewFor(ctx context.Context, gh PRReader, repo Repo, pr PullRequest, cfg *rules.Config, runs []record.Run, st PRState, run WorkflowRun, check CheckRun) (result, error) {
	col, err := a.collect(ctx, gh, repo, pr, cfg, runs)
	if err != nil {
		return result{}, err
	}
	defer col.memory.release()
	report, blocking, err := a.reviewWithOverrides(ctx, gh, repo, col, cfg, pr, st)
	if err != nil {
		return result{}, fmt.Errorf("check who may override: %w", err)
	}
	opt := comment.Options{HeadSHA: run.HeadSHA, PlanTime: col.planTime, Marker: true, DetailsURL: check.HTMLURL,
		Now: a.now(), ProjectRuns: projectRuns(run, col.runOf)}
	checkOpt := opt
	co := comment.CheckOutput(report, checkOpt)
	out := publish.Outcome{Conclusion: co.Conclusion, Title: co.Title, Summary: co.Summary, Text: co.Text, Annotations: co.Annotations}
	if out.Title == "" {
		out.Title = "Verdict: " + orNone(string(report.Verdict))
	}
	if out.Summary == "" {
		out.Summary = fmt.Sprintf("planwarden reviewed %d plan(s) of %d run(s) (%s).", len(col.inputs), len(runs), runRef(run))
	}
	if len(col.waiting) > 0 && report.Verdict != rules.VerdictFail {
		// A declared project's plan may still come from a plan workflow
		// that has not finished: no conclusion yet.
		out = publish.Outcome{Title: "Waiting for plan", Summary: fmt.Sprintf("planwarden waits for the plan of %s: this pull request changes its files, and not every plan workflow (%s) has finished on this commit.",
			codeList(col.waiting), codeList(cfg.PlanWorkflowPaths()))}
	}
	return result{out: out, body: comment.Render(report, opt), report: report, blocking: blocking, runs: checkOpt.ProjectRuns, assigned: &col.assigned}, nil
}

// strictness orders check outcomes: a failure beats waiting, waiting beats
// a warning, a warning beats success.
func strictness(o publish.Outcome) int {
	switch o.Conclusion {
	case "failure":
		return 3
	case "":
		return 2
	case "neutral":
		return 1
	}
	return 0
}

// strictest is the check's publish.Outcome when other open PRs share the head
// commit (one branch, several bases): a check belongs to the commit, so it
// concludes with the strictest review under any of their bases' configs,
// and says which PR's base decided it.
func (a *App) strictest(ctx context.Context, gh PRReader, repo Repo, in reviewIn, runs []record.Run, out publish.Outcome) (publish.Outcome, error) {
	prs, err := gh.ListPRsForCommit(ctx, repo, in.run.HeadSHA)
	if err != nil {
		return out, fmt.Errorf("list the pull requests of the commit: %w", err)
	}
	bases := map[string]bool{in.pr.BaseRef: true}
	for _, other := range prs {
		if other.Number == in.pr.Number || other.State != "open" || other.HeadSHA != in.run.HeadSHA || bases[other.BaseRef] {
			continue
		}
		bases[other.BaseRef] = true
		o, err := a.outcomeUnder(ctx, gh, repo, other, runs, in)
		if err != nil {
			return out, fmt.Errorf("review under the base of #%d: %w", other.Number, err)
		}
		if strictness(o) > strictness(out) {
			worklog.From(ctx).Info("another pull request of the commit is stricter", "pr", other.Number, "base", other.BaseRef, "conclusion", orNone(o.Conclusion))
			o.Summary = fmt.Sprintf("This commit is also the head of #%d, into %s; under that base's config the check is stricter, so that decides it.\n\n%s",
				other.Number, code(other.BaseRef), o.Summary)
			out = o
		}
	}
	return out, nil
}

// outcomeUnder is the publish.Outcome of the runs for another PR of the commit;
// what ends that review for good (its base's bad config, a refused
// artifact) is its outcome.
func (a *App) outcomeUnder(ctx context.Context, gh PRReader, repo Repo, pr PullRequest, runs []record.Run, in reviewIn) (publish.Outcome, error) {
	cfg, err := a.repoConfig(ctx, gh, repo, pr.BaseRef)
	if err != nil {
		return finalOutcome(err)
	}
	var trusted []record.Run
	for _, r := range runs {
		if ok, _ := trust.PlanRun(cfg, trustPR(repo, pr), r); ok {
			trusted = append(trusted, r)
		}
	}
	if len(trusted) == 0 {
		return publish.Outcome{Title: "Waiting for plan", Summary: fmt.Sprintf("No run of a plan workflow that the config of %s trusts (%s) has finished on this commit.",
			code(pr.BaseRef), codeList(cfg.PlanWorkflowPaths()))}, nil
	}
	st, _, err := a.state.Read(ctx, Job{Owner: repo.Owner, Repo: repo.Name, PR: pr.Number}.GroupKey())
	if err != nil {
		return publish.Outcome{}, err
	}
	res, err := a.reviewFor(ctx, gh, repo, pr, cfg, trusted, st, in.run, in.check)
	if err != nil {
		return finalOutcome(err)
	}
	return res.out, nil
}

// finalOutcome is the check's publish.Outcome for a *publish.Final err; any other error
// is returned as it is.
func finalOutcome(err error) (publish.Outcome, error) {
	var fin *publish.Final
	if errors.As(err, &fin) {
		return fin.Outcome(), nil
	}
	return publish.Outcome{}, err
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
// loosen the rules that gate it. A config that cannot be used is a
// *publish.Final naming the file and what is wrong, with annotations.
func (a *App) repoConfig(ctx context.Context, gh PRReader, repo Repo, baseRef string) (*rules.Config, error) {
	cfg, err := a.loadConfig(ctx, gh, repo, baseRef)
	var bad *badConfig
	if errors.As(err, &bad) {
		return nil, &publish.Final{Title: "Bad config " + bad.file, Err: err, Annotations: configAnnotations(bad.err),
			Summary: fmt.Sprintf("The repo config %s on %s cannot be used:\n\n%s", bad.file, baseRef, codeBlock(bad.err.Error()))}
	}
	return cfg, err
}

// loadConfig reads the repo config at ref (the defaults when there is
// none). A config that cannot be used is a *badConfig; any other error is
// GitHub's.
func (a *App) loadConfig(ctx context.Context, gh PRReader, repo Repo, ref string) (*rules.Config, error) {
	for _, file := range configPaths {
		data, err := gh.GetFile(ctx, repo, file, ref)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read the repo config %s at %s: %w", file, ref, err)
		}
		cfg, err := parseConfig(file, data)
		if err != nil {
			return nil, &badConfig{file: file, ref: ref, err: err}
		}
		return cfg, nil
	}
	return rules.DefaultConfig(), nil
}

// badConfig is a repo config that does not parse or validate.
type badConfig struct {
	file, ref string
	err       error
}

func (e *badConfig) Error() string { return e.file + " on " + e.ref + ": " + e.err.Error() }

// findPR finds the open PR whose head is the run's head: from the run's
// pull_requests, else from the commit.
func (a *App) findPR(ctx context.Context, gh PRReader, repo Repo, run WorkflowRun) (PullRequest, bool, error) {
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
func (a *App) reportStale(ctx context.Context, gh Publisher, repo Repo, run WorkflowRun, pr PullRequest) error {
	worklog.From(ctx).Info("stale plan: the pull request has moved on", "plan_sha", short(run.HeadSHA), "head_sha", short(pr.HeadSHA))
	check, err := a.writer(gh, repo).EnsureCheck(ctx, run.HeadSHA, "Reviewing plan")
	if err != nil {
		return err
	}
	return a.writer(gh, repo).Complete(ctx, check, publish.Outcome{
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
