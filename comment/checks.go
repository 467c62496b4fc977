package comment

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	pw "github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// The App's own words on its check runs, besides the review itself (Render,
// CheckOutput): a check waiting for its plan, a plan the pull request has
// moved on from, a pull request that needs no plan, the reasons a review
// ends on its check (Final), and the notes the App adds to a review. What
// to say is decided by the caller (app/run, app/publish); these functions
// only word it.

// quote quotes a name a user or GitHub gave (a login, a branch, a project,
// a file) as inline code of at most 100 bytes, "none" for nothing: the way
// the App's sentences on checks and replies quote names.
func quote(s string) string {
	if s == "" {
		s = "none"
	}
	return pw.Code(pw.Clamp(s, 100))
}

// quoteList quotes each name, separated by commas.
func quoteList(l []string) string {
	q := make([]string, 0, len(l))
	for _, s := range l {
		q = append(q, quote(s))
	}
	return strings.Join(q, ", ")
}

// codeBlock is an error's text as a fenced block of at most 8,000 bytes.
func codeBlock(s string) string {
	return "```\n" + strings.ReplaceAll(pw.Clamp(s, 8000), "```", "'''") + "\n```"
}

func orNone(s string) string { return orUnknown(s, "unknown") }

// Titles of the `planwarden` check that says no verdict yet.
const (
	ReviewingTitle = "Reviewing plan"
	WaitingTitle   = "Waiting for plan"
	// NoInfraTitle is the title of the success of a pull request that
	// changes no project.
	NoInfraTitle = "No infrastructure changes"
)

// ReadingSummary is what a check made in progress says before its plan is
// read.
const ReadingSummary = "planwarden is reading the plan of this commit."

// WaitingSummary is what the check says until the plan arrives.
const WaitingSummary = "planwarden reviews this commit's Terraform plan when the plan workflow finishes and uploads an artifact named `planwarden-<project>`. Until then this check stays in progress, so a required check blocks the merge."

// Stale is the check of a plan of commit planSHA when pull request pr has
// moved on to headSHA: neutral, not reviewed.
func Stale(planSHA string, pr int, headSHA string) Check {
	return Check{Conclusion: "neutral", Title: "Stale plan",
		Summary: fmt.Sprintf("This plan is for %s, but #%d has moved on to %s. It was not reviewed; the check of %s waits for that commit's plan.",
			pw.ShortSHA(planSHA), pr, pw.ShortSHA(headSHA), pw.ShortSHA(headSHA))}
}

// NoInfra is the success of a pull request none of whose files files
// belongs to a project of configFile on base.
func NoInfra(files int, configFile, base string) Check {
	return Check{Conclusion: "success", Title: NoInfraTitle,
		Summary: fmt.Sprintf("Each of the %d file(s) this pull request changes is listed under `no_plan_paths` of %s on %s (documentation, by default), so there is no plan to review.",
			files, quote(configFile), quote(base))}
}

// RetargetedSummary is what the check says after the pull request was
// retargeted at base, until the plan is reviewed under its config.
func RetargetedSummary(base string) string {
	return fmt.Sprintf("The base branch is now %s: planwarden reviews this commit's plan under its config. %s", quote(base), WaitingSummary)
}

// NoTrustedRun is the check under base, another pull request's, whose
// config trusts none of the runs of the commit (its plan workflows).
func NoTrustedRun(base string, workflows []string) Check {
	return Check{Title: WaitingTitle, Summary: fmt.Sprintf("No run of a plan workflow that the config of %s trusts (%s) has finished on this commit.",
		quote(base), quoteList(workflows))}
}

// WaitingForProjects is the check while the plans of the declared projects
// the pull request changes may still come from a plan workflow (of
// workflows) that has not finished.
func WaitingForProjects(projects, workflows []string) Check {
	return Check{Title: WaitingTitle, Summary: fmt.Sprintf("planwarden waits for the plan of %s: this pull request changes its files, and not every plan workflow (%s) has finished on this commit.",
		quoteList(projects), quoteList(workflows))}
}

// Stricter is summary, the outcome under the base of pull request pr,
// saying that this stricter base decides the commit's check.
func Stricter(pr int, base, summary string) string {
	return fmt.Sprintf("This commit is also the head of #%d, into %s; under that base's config the check is stricter, so that decides it.\n\n%s",
		pr, quote(base), summary)
}

// VerdictTitle is a review's title when its output has none.
func VerdictTitle(v rules.Verdict) string { return "Verdict: " + orNone(string(v)) }

// ReviewedSummary is a review's summary when its output has none: plans
// plans of runs runs, the run under review linked.
func ReviewedSummary(plans, runs int, runID int64, runURL string) string {
	return fmt.Sprintf("planwarden reviewed %d plan(s) of %d run(s) (%s).", plans, runs, runRef(runID, runURL))
}

func runRef(id int64, url string) string {
	if url != "" {
		return fmt.Sprintf("[run %d](%s)", id, url)
	}
	return fmt.Sprintf("run %d", id)
}

// ProjectWaitingSummary is what a project's check (check_per_project)
// says before its plan is reviewed.
func ProjectWaitingSummary(project string) string {
	return "planwarden is waiting for the plan of project " + quote(project) + "."
}

// ProjectCheck is one project's check (check_per_project) after a review.
type ProjectCheck struct {
	Name, Environment string
	Verdict           rules.Verdict
	// Conclusion is the check's (Conclusion of the project's report).
	Conclusion string
	// Findings counts the project's findings; Blocking those that block
	// and are not overridden.
	Findings, Blocking int
	// RunID and RunURL are the run its plan comes from; CheckURL the
	// `planwarden` check's page, when known.
	RunID            int64
	RunURL, CheckURL string
}

// Check is the project's check run output.
func (p ProjectCheck) Check() Check {
	title := fmt.Sprintf("%s: %s", p.Name, p.Verdict)
	if p.Blocking > 0 {
		title = fmt.Sprintf("%s: %d blocking %s", p.Name, p.Blocking, word(p.Blocking, "finding", "findings"))
	}
	summary := fmt.Sprintf("Project %s (environment %s) in %s: verdict **%s**, %d %s. The findings are in the `planwarden` check",
		quote(p.Name), quote(p.Environment), runRef(p.RunID, p.RunURL), p.Verdict, p.Findings, word(p.Findings, "finding", "findings"))
	if p.CheckURL != "" {
		summary = strings.TrimSuffix(summary, "the `planwarden` check") + "the [`planwarden` check](" + p.CheckURL + ")"
	}
	return Check{Conclusion: p.Conclusion, Title: title, Summary: summary + "."}
}

// word is one or many, by n.
func word(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// NoResult is the failure of a merge group's check that names no pull
// request; ref is the merge group's ref, when known.
func NoResult(ref string) Check {
	if ref != "" {
		return Check{Conclusion: "failure", Title: "No planwarden result", Summary: fmt.Sprintf("The merge group ref %s names no pull request, so there is no review to carry over.", ref)}
	}
	return Check{Conclusion: "failure", Title: "No planwarden result", Summary: "This merge group check names no pull request, so there is no review to carry over."}
}

// NoReview is the failure of a merge group's check of pull request pr,
// which has no completed review.
func NoReview(pr int) Check {
	return Check{Conclusion: "failure", Title: "No planwarden result",
		Summary: fmt.Sprintf("#%d has no completed planwarden review, so the merge group cannot pass this check. Run the plan workflow on the pull request.", pr)}
}

// CarriedOver is the merge group's check: the conclusion, title and
// summary of pull request pr's review of headSHA.
func CarriedOver(pr int, headSHA, conclusion, title, summary string) Check {
	return Check{Conclusion: conclusion, Title: title,
		Summary: fmt.Sprintf("Carried over from the review of #%d at %s.\n\n%s", pr, pw.ShortSHA(headSHA), summary)}
}

// GaveUp is the failure of a check whose job failed on every attempt.
func GaveUp() Check {
	return Check{Conclusion: "failure", Title: "planwarden gave up",
		Summary: "planwarden could not finish its work on this commit: the job failed on every attempt (a GitHub request or the worker kept failing). Press Re-run on this check to try again."}
}

// A Failure is why a job ends on its check for good, as the caller decided
// it; Check words it, as a failure of the check run.
type Failure interface {
	Check() Check
}

// Refused is GitHub refusing a request with Status, when asking again
// would get the same answer.
type Refused struct{ Status int }

// Check is the failure of the check run.
func (r Refused) Check() Check {
	status := r.Status
	return Check{Conclusion: "failure", Title: "GitHub refused a request",
		Summary: fmt.Sprintf("GitHub refused a request planwarden made for this commit (HTTP %d), and asking again would get the same answer, so planwarden stopped. "+
			"Check that the App is installed on this repository with the permissions docs/github-app.md lists and that the pull request, run and artifacts still exist, then press Re-run on this check.", status)}
}

// BadConfig is a config File on the base branch Ref that cannot be used,
// Err saying why.
type BadConfig struct {
	File, Ref string
	Err       error
}

// Check is the failure of the check run; each problem of a
// rules.ConfigError is annotated on its line.
func (b BadConfig) Check() Check {
	file, ref, err := b.File, b.Ref, b.Err
	return Check{Conclusion: "failure", Title: "Bad config " + file, Annotations: configAnnotations(err),
		Summary: fmt.Sprintf("The repo config %s on %s cannot be used:\n\n%s", file, ref, codeBlock(err.Error()))}
}

// configAnnotations puts each config problem on its line of the file.
func configAnnotations(err error) []record.Annotation {
	var ce *rules.ConfigError
	if !errors.As(err, &ce) {
		return nil
	}
	var out []record.Annotation
	for _, p := range ce.Problems {
		out = append(out, record.Annotation{
			Path: ce.File, StartLine: max(p.Line, 1), EndLine: max(p.Line, 1),
			Level: "failure", Title: "planwarden config", Message: p.Message,
		})
	}
	return out
}

// PlanWorkflowFailed is a plan workflow run (Path, ID) that concluded
// Conclusion, not success.
type PlanWorkflowFailed struct {
	Path       string
	ID         int64
	Conclusion string
}

// Check is the failure of the check run.
func (p PlanWorkflowFailed) Check() Check {
	path, id, conclusion := p.Path, p.ID, p.Conclusion
	return Check{Conclusion: "failure", Title: "Plan workflow " + orNone(conclusion),
		Summary: fmt.Sprintf("The plan workflow run %s concluded %s, so its plans cannot be reviewed. Fix the run and re-run it; planwarden reviews the plan when it succeeds.",
			runName(path, id), orNone(conclusion))}
}

// NoPlanArtifact is a plan workflow run (Path, ID) that uploaded no
// artifact named with Prefix.
type NoPlanArtifact struct {
	Path   string
	ID     int64
	Prefix string
}

// Check is the failure of the check run.
func (n NoPlanArtifact) Check() Check {
	path, id, prefix := n.Path, n.ID, n.Prefix
	return Check{Conclusion: "failure", Title: "No plan artifact",
		Summary: fmt.Sprintf("The plan workflow run %s uploaded no artifact whose name starts with `%s`. Upload the `terraform show -json` output as an artifact named `%s-<project>`.",
			runName(path, id), prefix, prefix)}
}

// TooManyArtifacts is a run (Path, ID) that uploaded N plan artifacts,
// more than Limit.
type TooManyArtifacts struct {
	Path     string
	ID       int64
	N, Limit int
}

// Check is the failure of the check run.
func (t TooManyArtifacts) Check() Check {
	path, id, n, limit := t.Path, t.ID, t.N, t.Limit
	return Check{Conclusion: "failure", Title: "Too many plan artifacts",
		Summary: fmt.Sprintf("The run %s uploaded %d plan artifacts; planwarden reads at most %d.", runName(path, id), n, limit)}
}

// UnreadablePlan is a plan file of the run (Path, ID) that cannot be
// read, Err saying why.
type UnreadablePlan struct {
	Path string
	ID   int64
	Err  error
}

// Check is the failure of the check run.
func (u UnreadablePlan) Check() Check {
	path, id, err := u.Path, u.ID, u.Err
	return Check{Conclusion: "failure", Title: "Unreadable plan",
		Summary: "planwarden could not read a plan file of " + runName(path, id) + ":\n\n" + codeBlock(err.Error())}
}

// SkippedPlanNote is the review's note that the plan file of an older run
// cannot be read and is skipped.
func SkippedPlanNote(file, path string, id int64) string {
	return fmt.Sprintf("The plan %s of %s cannot be read; a newer run of its workflow exists, so it is skipped.", file, runName(path, id))
}

// SkippedArtifactNote is the review's note that a refused artifact of an
// older run is skipped (a newer run of its workflow speaks for it).
func SkippedArtifactNote(artifact, path string, id int64) string {
	return fmt.Sprintf("The artifact %s of %s is refused; a newer run of its workflow exists, so it is skipped.", artifact, runName(path, id))
}

func runName(path string, id int64) string { return fmt.Sprintf("%s (run %d)", path, id) }

// PlanTooLarge is a review whose plans need NeedMiB of memory, more than
// the worker's BudgetMiB.
type PlanTooLarge struct{ NeedMiB, BudgetMiB int64 }

// Check is the failure of the check run.
func (p PlanTooLarge) Check() Check {
	needMiB, budgetMiB := p.NeedMiB, p.BudgetMiB
	return Check{Conclusion: "failure", Title: "Plan too large for the worker",
		Summary: fmt.Sprintf("Reviewing this run's plans needs about %d MiB of memory (3 times the uncompressed plans, plus the artifacts), more than this worker's budget of %d MiB. "+
			"Split the plan into smaller projects (one artifact or plan file each), or have the operator raise the budget (PLANWARDEN_MEMORY_BUDGET_MB for serve, the function's memory size on Lambda).",
			needMiB, budgetMiB)}
}

// OverrideLapsedNote is the review's note that rule's override on address
// by by no longer counts, and why.
func OverrideLapsedNote(rule, address, by, why string) string {
	return fmt.Sprintf("The override of %s on %s by %s no longer counts: %s.", rule, address, by, why)
}

// OverrideWaitingNote is the review's note on a finding's override still
// short of approvals.
func OverrideWaitingNote(waiting string) string {
	return "Override waiting for approvals: " + waiting + "."
}

// UnknownLabelNote is the review's note on an override label whose adder
// GitHub's events do not show.
func UnknownLabelNote(label string) string {
	return fmt.Sprintf("The label %q does not count: GitHub's events of this pull request do not show who added it. Remove it and add it again.", label)
}

// GivenOn is an applied override's reason, saying which commits the
// grants that made it (those of grants for its finding's digest) were
// given on, and whether one is not the pull request's head now.
func GivenOn(reason, digest, head string, grants []record.Grant) string {
	var on []string
	moved := false
	for _, g := range grants {
		if g.Digest == digest && g.HeadSHA != "" && !slices.Contains(on, pw.ShortSHA(g.HeadSHA)) {
			on = append(on, pw.ShortSHA(g.HeadSHA))
			moved = moved || g.HeadSHA != head
		}
	}
	if len(on) == 0 {
		return reason
	}
	note := "given on " + strings.Join(on, ", ")
	if moved {
		note += ", before the latest push: check that it still applies"
	}
	return strings.TrimSpace(reason + " (" + note + ")")
}

// ProjectRuns names the run of each project's plan (runOf), with its link
// when GitHub gave one for the run under review (runID, runURL; the
// others' links are built the same way: .../actions/runs/<id>).
func ProjectRuns(runID int64, runURL string, runOf map[string]int64) map[string]Run {
	out := make(map[string]Run, len(runOf))
	prefix, ok := strings.CutSuffix(runURL, "/"+strconv.FormatInt(runID, 10))
	for project, id := range runOf {
		r := Run{ID: id}
		if ok {
			r.URL = prefix + "/" + strconv.FormatInt(id, 10)
		}
		out[project] = r
	}
	return out
}

// NoPlanComingTitle is the title of the failure of a pull request no
// trusted plan workflow will run for.
const NoPlanComingTitle = "No plan will come"

// NoPlanComing is the check of a pull request changing files of which
// not every one is listed under no_plan_paths of configFile on base, when
// no trusted plan workflow will run for it (whys: what each plan
// workflow's on: says): it fails at once, saying what to do, instead of
// waiting for good.
func NoPlanComing(files int, whys []string, configFile, base string) Check {
	var b strings.Builder
	fmt.Fprintf(&b, "This pull request changes %d file(s), not all of them listed under `no_plan_paths` of %s on %s, so planwarden needs a plan to pass it; but no trusted plan workflow will run for it:\n\n",
		files, quote(configFile), quote(base))
	for _, w := range whys {
		fmt.Fprintf(&b, "- %s\n", plainWords(w))
	}
	b.WriteString("\nList the files that need no plan under `no_plan_paths` in the config on the base branch, or widen the plan workflow's `on:` filter so that it runs for this pull request; or comment `/plan`.")
	return Check{Conclusion: "failure", Title: NoPlanComingTitle, Summary: b.String()}
}

// DecidedUnderAnotherBase is a merge group's check when pull request pr's
// result was decided under decided, not base, the branch the merge group
// merges into: nothing is carried over until planwarden decides the pull
// request again under base.
func DecidedUnderAnotherBase(pr int, decided, base string) Check {
	return Check{Conclusion: "failure", Title: "Decided under another base",
		Summary: fmt.Sprintf("The result of #%d was decided under %s, but the merge group merges into %s: nothing is carried over. planwarden decides the pull request again under %s within minutes; then re-run this check.",
			pr, quote(decided), quote(base), quote(base))}
}
