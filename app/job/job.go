// Package job is the unit of work the receiver hands the worker: one
// webhook delivery, decoded into one Go type per event. A Job carries
// references (ids, SHAs, refs), never plans, so it fits an SQS message
// (256 KB). The package imports only the standard library, so the
// receiver stays small.
package job

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
)

// Job is one delivery: where it comes from (the locator) and exactly one
// event.
type Job struct {
	DeliveryID     string    `json:"delivery_id"`
	Event          string    `json:"event"` // X-GitHub-Event
	InstallationID int64     `json:"installation_id"`
	Owner          string    `json:"owner"`
	Repo           string    `json:"repo"`
	PR             int       `json:"pr,omitempty"`       // 0: not known yet
	HeadSHA        string    `json:"head_sha,omitempty"` // the commit the event is about
	ReceivedAt     time.Time `json:"received_at"`
	// BodyDigest is the receiver's dedupe key of the delivery's body; a
	// job that is given up forgets it with the delivery id, so GitHub's
	// Redeliver is queued again.
	BodyDigest string `json:"body_digest,omitempty"`

	// Exactly one of these is set, the one of Event.
	PullRequest  *PullRequest  `json:"pull_request,omitempty"`
	WorkflowRun  *WorkflowRun  `json:"workflow_run,omitempty"`
	CheckRun     *CheckRun     `json:"check_run,omitempty"`
	CheckSuite   *CheckSuite   `json:"check_suite,omitempty"`
	MergeGroup   *MergeGroup   `json:"merge_group,omitempty"`
	IssueComment *IssueComment `json:"issue_comment,omitempty"`
}

// PullRequest is pull_request opened, synchronize, reopened,
// ready_for_review, labeled, unlabeled, or edited with a new base.
type PullRequest struct {
	Action  string `json:"action"`
	HeadRef string `json:"head_ref,omitempty"`
	BaseRef string `json:"base_ref,omitempty"`
	Sender  string `json:"sender,omitempty"`
	// Label is the label added or removed (labeled, unlabeled only).
	Label string `json:"label,omitempty"`
	// BaseChanged is set on edited when the PR was retargeted at another
	// base branch (an edit of the title or body is no job).
	BaseChanged bool `json:"base_changed,omitempty"`
}

// WorkflowRun is workflow_run completed, or requested or in_progress for
// a run whose title names a command thread (ThreadOfTitle).
type WorkflowRun struct {
	// Action is requested, in_progress or completed ("" reads as completed).
	Action     string    `json:"action,omitempty"`
	RunID      int64     `json:"run_id"`
	Name       string    `json:"name,omitempty"`
	Path       string    `json:"path,omitempty"` // .github/workflows/plan.yml
	HTMLURL    string    `json:"html_url,omitempty"`
	HeadBranch string    `json:"head_branch,omitempty"`
	Conclusion string    `json:"conclusion,omitempty"`
	StartedAt  time.Time `json:"started_at,omitzero"`
	// DisplayTitle is the run's title (its run-name, at most 256 bytes);
	// Event what started it; Status queued, in_progress or completed.
	DisplayTitle string `json:"display_title,omitempty"`
	Event        string `json:"event,omitempty"`
	Status       string `json:"status,omitempty"`
}

// CheckRun is check_run rerequested on the planwarden check.
type CheckRun struct {
	CheckRunID int64 `json:"check_run_id"`
	// RunID is the workflow run the check last reviewed (its external id).
	RunID  int64  `json:"run_id,omitempty"`
	Sender string `json:"sender,omitempty"`
	// MergeGroup is set on a merge group's check (Job.PR is the PR whose
	// result it carries).
	MergeGroup bool `json:"merge_group,omitempty"`
}

// CheckSuite is check_suite rerequested on planwarden's suite.
type CheckSuite struct {
	HeadBranch string `json:"head_branch,omitempty"`
	Sender     string `json:"sender,omitempty"`
}

// MergeGroup is merge_group checks_requested.
type MergeGroup struct {
	HeadRef string `json:"head_ref,omitempty"` // refs/heads/gh-readonly-queue/<base>/pr-<n>-<sha>
	BaseRef string `json:"base_ref,omitempty"`
}

// IssueComment is issue_comment created on a PR, starting with a slash
// command.
type IssueComment struct {
	CommentID int64 `json:"comment_id"`
	// Body is the comment's first line, trimmed (at most 256 bytes).
	Body   string `json:"body"`
	Sender string `json:"sender,omitempty"`
	// SenderType is GitHub's type of the sender's account (User, Bot).
	SenderType string `json:"sender_type,omitempty"`
}

// Commands are the slash commands a comment may start with; the receiver
// queues only these.
var Commands = map[string]bool{"/plan": true, "/destroy-staging": true, "/override": true, "/planwarden": true}

// GroupKey serializes work for one pull request: owner/repo#PR, or
// owner/repo@SHA when the PR is not known yet.
func (j Job) GroupKey() string {
	if j.PR > 0 {
		return j.Owner + "/" + j.Repo + "#" + strconv.Itoa(j.PR)
	}
	return j.Owner + "/" + j.Repo + "@" + j.HeadSHA
}

// Action is the webhook action the job was decoded from.
func (j Job) Action() string {
	switch {
	case j.PullRequest != nil:
		return j.PullRequest.Action
	case j.WorkflowRun != nil:
		if j.WorkflowRun.Action != "" {
			return j.WorkflowRun.Action
		}
		return "completed"
	case j.CheckRun != nil, j.CheckSuite != nil:
		return "rerequested"
	case j.MergeGroup != nil:
		return "checks_requested"
	case j.IssueComment != nil:
		return "created"
	}
	return ""
}

// events says, for each event a job is made of, whether j holds it.
func (j Job) events() map[string]bool {
	return map[string]bool{
		"pull_request": j.PullRequest != nil, "workflow_run": j.WorkflowRun != nil, "check_run": j.CheckRun != nil,
		"check_suite": j.CheckSuite != nil, "merge_group": j.MergeGroup != nil, "issue_comment": j.IssueComment != nil,
	}
}

// Events are the webhook events that make jobs, sorted: the events the
// App subscribes to.
func Events() []string { return slices.Sorted(maps.Keys(Job{}.events())) }

// Check reports a job that does not hold exactly one event, or holds
// another than its Event names.
func (j Job) Check() error {
	var set []string
	for name, ok := range j.events() {
		if ok {
			set = append(set, name)
		}
	}
	switch {
	case len(set) == 0:
		return fmt.Errorf("job %s: no event (%q is not one planwarden works on)", j.DeliveryID, j.Event)
	case len(set) > 1:
		return errors.New("job " + j.DeliveryID + ": more than one event")
	case set[0] != j.Event:
		return fmt.Errorf("job %s: event %q carries a %s", j.DeliveryID, j.Event, set[0])
	}
	return nil
}

// LogAttrs are the job's references for its log lines: delivery, event,
// action, installation, repo and PR.
func (j Job) LogAttrs() []any {
	attrs := []any{"delivery", j.DeliveryID, "event", j.Event}
	if a := j.Action(); a != "" {
		attrs = append(attrs, "action", a)
	}
	if j.InstallationID != 0 {
		attrs = append(attrs, "installation", j.InstallationID)
	}
	if j.Owner != "" {
		attrs = append(attrs, "repo", j.Owner+"/"+j.Repo)
	}
	if j.PR != 0 {
		attrs = append(attrs, "pr", j.PR)
	}
	return attrs
}
