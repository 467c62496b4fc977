package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	ghadapter "github.com/planwarden/planwarden/app/github"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/comment/plaintext"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

func init() {
	commands["verify"] = command{summary: "check that the plan about to be applied is the one that was reviewed", run: runVerify}
}

const verifyUsage = `usage: planwarden verify [--reviewed REPORT.json] [--project NAME]... [--environment ENV]...
                         [--allow-new-noop] [--allow-known-after-apply]
                         [--repo OWNER/REPO] [--sha SHA] [--app-id N] PLAN.json...

Compares each PLAN.json (terraform show -json of the plan about to be
applied) with the reviewed plan of the same project, change by change:
address, action, SKU, instance count and a keyed digest of the attribute
diff. Projects are named as planwarden review names them (--project, else
after the file).

--reviewed REPORT.json compares with a JSON report of planwarden review
(--format json --digests), offline. Without it, verify asks GitHub (GITHUB_TOKEN with
checks: read and pull-requests: read; GITHUB_API_URL) for the pull request
merged as the commit (--sha, default $GITHUB_SHA, in --repo, default
$GITHUB_REPOSITORY) and reads the reviewed change sets and verdicts from its
head's planwarden check run, made by the App --app-id (default
$PLANWARDEN_APP_ID).

Tolerances, off by default: --allow-new-noop lets a no-op change on one side
only pass; --allow-known-after-apply lets a value (or count) the review saw as
known only after apply be known now.

The result is printed, and appended to $GITHUB_STEP_SUMMARY when it is set.

Exit status: 0 every plan is the reviewed one; 1 a change was not reviewed,
differs from the review, the review did not pass or none was found; 2 bad
usage or unreadable input.
`

func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var projects, envs listFlag
	reviewed := fs.String("reviewed", "", "the reviewed JSON report (offline)")
	configPath := fs.String("config", "", "repo config file (default: .github/planwarden.yml or .planwarden.yml if present)")
	allowNoop := fs.Bool("allow-new-noop", false, "let a no-op change on one side only pass")
	allowKnown := fs.Bool("allow-known-after-apply", false, "let values the review saw as known after apply be known now")
	repoFlag := fs.String("repo", os.Getenv("GITHUB_REPOSITORY"), "OWNER/REPO (default $GITHUB_REPOSITORY)")
	shaFlag := fs.String("sha", os.Getenv("GITHUB_SHA"), "the commit being applied (default $GITHUB_SHA)")
	appID := fs.String("app-id", os.Getenv("PLANWARDEN_APP_ID"), "the planwarden App's id (default $PLANWARDEN_APP_ID)")
	fs.Var(&projects, "project", "project name (repeatable)")
	fs.Var(&envs, "environment", "environment (repeatable)")
	files, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, verifyUsage)
		return exitOK
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "planwarden verify: "+format+"\n", a...)
		return exitUsage
	}
	switch {
	case err != nil:
		return fail("%v\n%s", err, verifyUsage)
	case len(files) == 0:
		return fail("no plan file given\n%s", verifyUsage)
	case len(projects) > len(files):
		return fail("%d --project names for %d plan files", len(projects), len(files))
	case len(envs) > 1 && len(envs) != len(files):
		return fail("give one --environment for all plans or one per plan (%d plans, %d environments)", len(files), len(envs))
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		return fail("%v", err)
	}
	inputs := make([]review.Input, 0, len(files))
	seen := map[string]bool{}
	for i, f := range files {
		data, err := readPlanFile(f, stdin)
		if err != nil {
			return fail("read %s: %v", f, errors.Unwrap(err))
		}
		plan, err := planparse.Parse(displayName(f), data)
		if err != nil {
			return fail("%v", err)
		}
		in := review.Input{Name: projectName(f, i), Plan: plan}
		if i < len(projects) {
			in.Name = projects[i]
		}
		if seen[in.Name] {
			return fail("two plans are named %q; name them with --project", in.Name)
		}
		seen[in.Name] = true
		switch {
		case len(envs) == 1:
			in.Environment = envs[0]
		case len(envs) > 1:
			in.Environment = envs[i]
		}
		inputs = append(inputs, in)
	}

	var sets []review.ChangeSet
	var src comment.VerifySource
	if *reviewed != "" {
		data, err := os.ReadFile(*reviewed)
		if err != nil {
			return fail("read --reviewed %s: %v", *reviewed, errors.Unwrap(err))
		}
		if sets, err = review.ReadChangeSets(*reviewed, data); err != nil {
			return fail("--reviewed %v", err)
		}
		src.Report = *reviewed
	} else {
		var refused comment.VerifyRefusal
		var code int
		sets, src, refused, code = onlineReview(*repoFlag, *shaFlag, *appID, stderr)
		if code != exitOK {
			return code
		}
		if refused != "" {
			return report(comment.VerifyRefused(refused, *shaFlag, src), exitFail, stdout, stderr)
		}
	}
	planned := review.Build(inputs, review.Options{Config: cfg, Digests: true})
	checks := review.Verify(sets, planned.Projects, review.Tolerance{NewNoop: *allowNoop, KnownAfterApply: *allowKnown})
	code := exitOK
	for _, c := range checks {
		if !c.OK() {
			code = exitFail
		}
	}
	return report(comment.Verify(checks, src), code, stdout, stderr)
}

// onlineReview finds the pull request merged as the commit and reads the
// reviewed change sets from its head's planwarden check run. A refusal
// (no pull request, no passing check, no record) is verify's exit 1; bad
// usage or a GitHub error is exit 2.
func onlineReview(repo, sha, appID string, stderr io.Writer) ([]review.ChangeSet, comment.VerifySource, comment.VerifyRefusal, int) {
	var src comment.VerifySource
	fail := func(format string, a ...any) ([]review.ChangeSet, comment.VerifySource, comment.VerifyRefusal, int) {
		fmt.Fprintf(stderr, "planwarden verify: "+format+"\n", a...)
		return nil, src, "", exitUsage
	}
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return fail("--repo must be OWNER/REPO, not %q (or give --reviewed REPORT.json to compare offline)", repo)
	}
	if len(sha) < 7 || strings.Trim(strings.ToLower(sha), "0123456789abcdef") != "" {
		return fail("--sha must be the commit being applied (hex), not %q", sha)
	}
	id, err := strconv.ParseInt(appID, 10, 64)
	if appID != "" && err != nil {
		return fail("--app-id must be the planwarden App's numeric id, not %q", appID)
	}
	gh, err := ghadapter.TokenReviews(os.Getenv("GITHUB_TOKEN"), envOr("GITHUB_API_URL", "https://api.github.com/"), id, http.DefaultTransport, ghadapter.RetryPolicy{})
	if err != nil {
		return fail("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := port.Repo{Owner: owner, Name: name}
	pr, ok, err := gh.MergedAs(ctx, r, sha)
	if err != nil {
		return fail("%v", err)
	}
	if !ok {
		return nil, src, comment.RefusedNoPullRequest, exitOK
	}
	src.PR, src.HeadSHA = pr.Number, pr.HeadSHA
	runs, err := gh.CheckRuns(ctx, r, pr.HeadSHA, "planwarden")
	if err != nil {
		return fail("%v", err)
	}
	if len(runs) == 0 {
		return nil, src, comment.RefusedNoCheckRun, exitOK
	}
	run := runs[0] // the newest
	src.CheckURL, src.Conclusion = run.HTMLURL, run.Conclusion
	switch {
	case run.Status != "completed":
		return nil, src, comment.RefusedCheckNotCompleted, exitOK
	case run.Conclusion != "success" && run.Conclusion != "neutral":
		return nil, src, comment.RefusedCheckFailed, exitOK
	}
	rec, err := comment.ParseRecord(run.Text)
	if errors.Is(err, comment.ErrNoRecord) {
		return nil, src, comment.RefusedNoRecord, exitOK
	}
	if err != nil {
		return fail("pull request #%d, check run %d: %v", pr.Number, run.ID, err)
	}
	return rec.Projects, src, "", exitOK
}

// report prints the verify result for the terminal and appends its
// markdown to the job summary when $GITHUB_STEP_SUMMARY is set.
func report(md string, code int, stdout, stderr io.Writer) int {
	fmt.Fprint(stdout, plaintext.Render(md))
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = io.WriteString(f, md+"\n")
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "planwarden verify: write the job summary %s: %v\n", path, err)
			return exitUsage
		}
	}
	return code
}
