package github

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/prose"
)

// SignatureHeader carries a delivery's HMAC-SHA256 signature.
const SignatureHeader = github.SHA256SignatureHeader

// Payload returns the JSON payload of a JSON or form-encoded delivery,
// through go-github's payload validation (which checks the signature again).
func Payload(contentType, sig string, body, secret []byte) ([]byte, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, errors.New("missing or bad Content-Type")
	}
	payload, err := github.ValidatePayloadFromBody(mt, bytes.NewReader(body), sig, secret)
	if err != nil {
		return nil, fmt.Errorf("unsupported Content-Type %q", mt)
	}
	return payload, nil
}

// decoders map each event planwarden reads onto its typed job; ok false
// means there is nothing to do. Each names its event's room in the worker
// (app/event_*.go).
var decoders = map[string]func(log *slog.Logger, ev any) (job.Job, bool){
	"pull_request":              decodePullRequest,
	"workflow_run":              decodeWorkflowRun,
	"check_run":                 decodeCheckRun,
	"check_suite":               decodeCheckSuite,
	"merge_group":               decodeMergeGroup,
	"issue_comment":             decodeIssueComment,
	"installation":              decodeInstallation,
	"installation_repositories": decodeInstallationRepositories,
}

// Handles reports whether planwarden reads event at all.
func Handles(event string) bool { return decoders[event] != nil }

// ErrMalformed is a payload go-github cannot decode as its event.
var ErrMalformed = errors.New("malformed payload")

// Decode maps a verified payload of event onto a job (without the
// delivery id and time, which the receiver sets). ok false: nothing to
// do; log gets the events that are only logged.
func Decode(log *slog.Logger, event string, payload []byte) (j job.Job, ok bool, err error) {
	dec := decoders[event]
	if dec == nil {
		return job.Job{}, false, nil
	}
	ev, err := parseWebHook(event, payload)
	if err != nil {
		return job.Job{}, false, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	j, ok = dec(log, ev)
	j.Event = event
	return j, ok, nil
}

// parseWebHook decodes with go-github. Some payloads (GitHub's own 2018
// examples of check_run, old GitHub Enterprise Server) write times as
// "2006-01-02 15:04:05", which go-github's Timestamp refuses; those are
// rewritten to RFC 3339 and decoded once more.
func parseWebHook(event string, payload []byte) (any, error) {
	ev, err := github.ParseWebHook(event, payload)
	var te *time.ParseError
	if err == nil || !errors.As(err, &te) {
		return ev, err
	}
	var v any
	if json.Unmarshal(payload, &v) != nil {
		return nil, err
	}
	fixed, jerr := json.Marshal(rfc3339Times(v, 0))
	if jerr != nil {
		return nil, err
	}
	return github.ParseWebHook(event, fixed)
}

func rfc3339Times(v any, depth int) any {
	if depth > 64 {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = rfc3339Times(e, depth+1)
		}
	case []any:
		for i, e := range x {
			x[i] = rfc3339Times(e, depth+1)
		}
	case string:
		if t, err := time.Parse(time.DateTime, x); err == nil {
			return t.UTC().Format(time.RFC3339)
		}
	}
	return v
}

// locator is the part of a job every event fills the same way.
func locator(inst *github.Installation, repo *github.Repository) job.Job {
	return job.Job{InstallationID: inst.GetID(), Owner: repo.GetOwner().GetLogin(), Repo: repo.GetName()}
}

var pullRequestActions = map[string]bool{"opened": true, "synchronize": true, "reopened": true, "ready_for_review": true,
	"labeled": true, "unlabeled": true, "edited": true}

func decodePullRequest(_ *slog.Logger, ev any) (job.Job, bool) {
	e, ok := ev.(*github.PullRequestEvent)
	if !ok || !pullRequestActions[e.GetAction()] || e.GetPullRequest().GetHead().GetSHA() == "" {
		return job.Job{}, false
	}
	pr := e.GetPullRequest()
	p := &job.PullRequest{Action: e.GetAction(), HeadRef: pr.GetHead().GetRef(), BaseRef: pr.GetBase().GetRef(), Sender: e.GetSender().GetLogin()}
	if a := e.GetAction(); a == "labeled" || a == "unlabeled" {
		if e.GetLabel().GetName() == "" {
			return job.Job{}, false
		}
		p.Label = prose.Clamp(e.GetLabel().GetName(), 100)
	}
	if e.GetAction() == "edited" {
		// Retargeted at another base: its config gates now. A title or
		// body edit changes nothing planwarden reviews.
		if e.GetChanges().GetBase() == nil {
			return job.Job{}, false
		}
		p.BaseChanged = true
	}
	j := locator(e.GetInstallation(), e.GetRepo())
	j.PR, j.HeadSHA, j.PullRequest = pr.GetNumber(), pr.GetHead().GetSHA(), p
	return j, true
}

func decodeWorkflowRun(_ *slog.Logger, ev any) (job.Job, bool) {
	e, ok := ev.(*github.WorkflowRunEvent)
	if !ok || e.GetWorkflowRun().GetID() == 0 {
		return job.Job{}, false
	}
	run := e.GetWorkflowRun()
	// A run that is not completed yet matters only to the command thread
	// whose id its title carries.
	_, threadPR, isThread := job.ThreadOfTitle(run.GetDisplayTitle())
	switch e.GetAction() {
	case "completed":
	case "requested", "in_progress":
		if !isThread {
			return job.Job{}, false
		}
	default:
		return job.Job{}, false
	}
	j := locator(e.GetInstallation(), e.GetRepo())
	j.HeadSHA = run.GetHeadSHA()
	j.WorkflowRun = &job.WorkflowRun{
		Action: e.GetAction(), RunID: run.GetID(), Name: run.GetName(), Path: run.GetPath(), HTMLURL: run.GetHTMLURL(),
		HeadBranch: run.GetHeadBranch(), Conclusion: run.GetConclusion(), StartedAt: run.GetRunStartedAt().Time,
		DisplayTitle: prose.Clamp(run.GetDisplayTitle(), 256), Event: run.GetEvent(), Status: run.GetStatus(),
	}
	// A run may list several PRs (one branch, several bases): prefer the
	// one whose head is the run's head.
	for _, pr := range run.PullRequests {
		if j.PR == 0 || pr.GetHead().GetSHA() == run.GetHeadSHA() {
			j.PR = pr.GetNumber()
		}
		if pr.GetHead().GetSHA() == run.GetHeadSHA() {
			break
		}
	}
	if j.PR == 0 && isThread && e.GetAction() != "completed" {
		j.PR = threadPR // queued with the PR's other work
	}
	return j, true
}

func decodeCheckRun(_ *slog.Logger, ev any) (job.Job, bool) {
	e, ok := ev.(*github.CheckRunEvent)
	// planwarden's check, or one of its per-project checks (planwarden/<project>).
	if name := e.GetCheckRun().GetName(); !ok || e.GetAction() != "rerequested" || name != port.CheckName && !strings.HasPrefix(name, port.CheckName+"/") {
		return job.Job{}, false
	}
	cr := e.GetCheckRun()
	j := locator(e.GetInstallation(), e.GetRepo())
	c := &job.CheckRun{CheckRunID: cr.GetID(), Sender: e.GetSender().GetLogin()}
	c.RunID, _ = strconv.ParseInt(cr.GetExternalID(), 10, 64)
	j.HeadSHA, j.CheckRun = cr.GetHeadSHA(), c
	for _, pr := range cr.PullRequests {
		j.PR = pr.GetNumber()
		break
	}
	if n, ok := strings.CutPrefix(cr.GetExternalID(), port.MergeGroupExternalID); ok {
		j.PR, _ = strconv.Atoi(n)
		c.MergeGroup = true
	}
	return j, true
}

func decodeCheckSuite(_ *slog.Logger, ev any) (job.Job, bool) {
	e, ok := ev.(*github.CheckSuiteEvent)
	if !ok || e.GetAction() != "rerequested" || e.GetCheckSuite().GetHeadSHA() == "" {
		return job.Job{}, false
	}
	cs := e.GetCheckSuite()
	j := locator(e.GetInstallation(), e.GetRepo())
	j.HeadSHA = cs.GetHeadSHA()
	j.CheckSuite = &job.CheckSuite{HeadBranch: cs.GetHeadBranch(), Sender: e.GetSender().GetLogin()}
	for _, pr := range cs.PullRequests {
		j.PR = pr.GetNumber()
		break
	}
	return j, j.PR > 0
}

func decodeMergeGroup(_ *slog.Logger, ev any) (job.Job, bool) {
	e, ok := ev.(*github.MergeGroupEvent)
	if !ok || e.GetAction() != "checks_requested" || e.GetMergeGroup().GetHeadSHA() == "" {
		return job.Job{}, false
	}
	mg := e.GetMergeGroup()
	j := locator(e.GetInstallation(), e.GetRepo())
	j.PR, j.HeadSHA = MergeGroupPR(mg.GetHeadRef()), mg.GetHeadSHA()
	j.MergeGroup = &job.MergeGroup{HeadRef: mg.GetHeadRef(), BaseRef: mg.GetBaseRef()}
	return j, true
}

// MergeGroupPR reads the PR number from a merge queue ref,
// refs/heads/gh-readonly-queue/<base>/pr-<number>-<sha>; 0 if it has none.
func MergeGroupPR(ref string) int {
	i := strings.LastIndex(ref, "/pr-")
	if i < 0 {
		return 0
	}
	num, _, _ := strings.Cut(ref[i+len("/pr-"):], "-")
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

func decodeIssueComment(_ *slog.Logger, ev any) (job.Job, bool) {
	e, ok := ev.(*github.IssueCommentEvent)
	if !ok || e.GetAction() != "created" || !e.GetIssue().IsPullRequest() {
		return job.Job{}, false
	}
	line, _, _ := strings.Cut(strings.TrimSpace(e.GetComment().GetBody()), "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 || !job.Commands[fields[0]] {
		return job.Job{}, false
	}
	// A bot's comment is queued only for /override, where the base
	// branch's config says whether that bot may approve (approving_bots).
	if e.GetSender().GetType() == "Bot" && fields[0] != "/override" {
		return job.Job{}, false
	}
	j := locator(e.GetInstallation(), e.GetRepo())
	j.PR = e.GetIssue().GetNumber()
	j.IssueComment = &job.IssueComment{
		CommentID: e.GetComment().GetID(), Body: prose.Clamp(strings.TrimSpace(line), 256), Sender: e.GetSender().GetLogin(),
		SenderType: e.GetSender().GetType(),
	}
	return j, true
}

// installation and installation_repositories: logged, nothing to do.

func decodeInstallation(log *slog.Logger, ev any) (job.Job, bool) {
	if e, ok := ev.(*github.InstallationEvent); ok {
		log.Info("installation", "action", e.GetAction(), "installation", e.GetInstallation().GetID(),
			"account", e.GetInstallation().GetAccount().GetLogin(), "repositories", len(e.Repositories))
	}
	return job.Job{}, false
}

func decodeInstallationRepositories(log *slog.Logger, ev any) (job.Job, bool) {
	if e, ok := ev.(*github.InstallationRepositoriesEvent); ok {
		log.Info("installation repositories", "action", e.GetAction(), "installation", e.GetInstallation().GetID(),
			"added", len(e.RepositoriesAdded), "removed", len(e.RepositoriesRemoved))
	}
	return job.Job{}, false
}
