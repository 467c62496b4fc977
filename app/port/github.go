package port

import (
	"context"
	"errors"
	"time"

	"github.com/planwarden/planwarden/record"
)

// CheckName is the check run planwarden owns; branch protection requires it.
const CheckName = "planwarden"

// MergeGroupExternalID marks a merge group's check run (with the PR
// number), so that "Re-run" on it carries the PR's result over again.
const MergeGroupExternalID = "merge-group-pr-"

// The GitHub ports, sized by use and named in GitHub's own words. The
// go-github adapter (app/github) implements all of them; a unit test fakes
// only the one its code path needs, with a struct of func fields.

// PRReader reads a pull request, its runs and artifacts, files of the
// repository and who may do what.
type PRReader interface {
	GetPullRequest(ctx context.Context, r Repo, number int) (PullRequest, error)
	ListPRsForCommit(ctx context.Context, r Repo, sha string) ([]PullRequest, error)
	// ListPRChanges returns the files a pull request changes (a rename
	// under both names) with their blob SHAs at its head; Complete is
	// false when GitHub listed fewer than the pull request changes (it
	// lists at most 3,000).
	ListPRChanges(ctx context.Context, r Repo, number int) (Changes, error)
	GetWorkflowRun(ctx context.Context, r Repo, id int64) (WorkflowRun, error)
	ListRunArtifacts(ctx context.Context, r Repo, runID int64) ([]Artifact, error)
	// DownloadArtifact returns the artifact's zip, at most maxBytes long
	// (ErrTooLarge beyond). The redirect to the blob store is followed
	// without the Authorization header. Every buffer the download holds
	// is charged first: charge is called with its bytes before they are
	// allocated (the length the blob store declares, else as the body is
	// read), and with -n when a buffer of n bytes is let go; an error from
	// it ends the download, wrapped.
	DownloadArtifact(ctx context.Context, r Repo, id int64, maxBytes int64, charge func(n int64) error) ([]byte, error)
	// GetFile returns a file's content at ref, or ErrNotFound.
	GetFile(ctx context.Context, r Repo, path, ref string) ([]byte, error)
	// GetPermission returns admin, write, read or none.
	GetPermission(ctx context.Context, r Repo, user string) (string, error)
	// TeamMember reports whether user is an active member of the team
	// org/teamSlug (a pending invitation is not membership).
	TeamMember(ctx context.Context, org, teamSlug, user string) (bool, error)
	// DefaultBranch returns the repository's default branch.
	DefaultBranch(ctx context.Context, r Repo) (string, error)
	// ListWorkflowRuns returns the newest runs (up to 50) of a workflow
	// file, newest first, filtered by event and branch when not empty.
	ListWorkflowRuns(ctx context.Context, r Repo, workflowFile, event, branch string) ([]WorkflowRun, error)
	// LabelAdders says who last added each label the pull request's
	// events show as still on it, and when, keyed by the label's name in
	// lower case: GitHub's record, not the webhook that may have been
	// missed. On a pull request with very many events only the newest
	// pages are read; a label added before them is absent.
	LabelAdders(ctx context.Context, r Repo, number int) (map[string]record.LabelMark, error)
}

// Publisher writes what planwarden says: the check run, the one PR
// comment, replies and reactions.
type Publisher interface {
	CreateCheckRun(ctx context.Context, r Repo, c CheckRun) (CheckRun, error)
	UpdateCheckRun(ctx context.Context, r Repo, c CheckRun) error
	ListCheckRunsForRef(ctx context.Context, r Repo, ref, name string) ([]CheckRun, error)
	ListIssueComments(ctx context.Context, r Repo, number int) ([]IssueComment, error)
	CreateComment(ctx context.Context, r Repo, number int, body string) (int64, error)
	EditComment(ctx context.Context, r Repo, id int64, body string) error
	// BotLogin is the App's own account, <slug>[bot]: only its comments
	// are planwarden's, whatever marker another comment carries.
	BotLogin(ctx context.Context) (string, error)
	// React adds a reaction (+1, -1, eyes, rocket, confused ...) to an issue comment.
	React(ctx context.Context, r Repo, commentID int64, content string) error
	// MinimizeComment hides a comment as outdated (GraphQL minimizeComment,
	// classifier OUTDATED); nodeID is the comment's GraphQL id.
	MinimizeComment(ctx context.Context, nodeID string) error
}

// Lister lists what the reconciler walks: the repositories of the
// installation and their open pull requests.
type Lister interface {
	ListInstallationRepos(ctx context.Context) ([]Repo, error)
	ListOpenPRs(ctx context.Context, r Repo) ([]PullRequest, error)
}

// Dispatcher starts CI workflows (/plan, /destroy-staging).
type Dispatcher interface {
	DispatchWorkflow(ctx context.Context, r Repo, workflowFile, ref string, inputs map[string]string) error
}

// GitHub is all three, for one installation: what the worker gets per job.
type GitHub interface {
	PRReader
	Publisher
	Dispatcher
}

// Errors the port reports that callers branch on.
var (
	ErrNotFound = errors.New("not found")
	ErrTooLarge = errors.New("too large")
)

// Repo names a repository.
type Repo struct{ Owner, Name string }

func (r Repo) String() string { return r.Owner + "/" + r.Name }

// CheckRun is a check run as the bot writes and reads it.
type CheckRun struct {
	ID          int64
	Name        string
	HeadSHA     string
	Status      string // queued, in_progress, completed
	Conclusion  string // success, neutral, failure (with Status completed)
	ExternalID  string
	DetailsURL  string
	HTMLURL     string
	Title       string
	Summary     string
	Text        string
	Annotations []record.Annotation
	CompletedAt time.Time
}

// IssueComment is a comment on a PR's conversation.
type IssueComment struct {
	ID     int64
	NodeID string // GraphQL id
	Body   string
	User   string
	// Bot is true when User is an App's account (GitHub's user type Bot).
	Bot bool
}

// PullRequest is what the bot needs to know of a PR.
type PullRequest struct {
	Number   int
	State    string
	HeadSHA  string
	HeadRef  string
	HeadRepo string // owner/name of the head branch's repository
	BaseRef  string
	Labels   []string // label names
	// Author is the login of who opened the pull request.
	Author string
	// ChangedFiles is how many files GitHub says it changes.
	ChangedFiles int
	// Merged says the pull request was merged; MergeCommitSHA is then the
	// commit its merge made on the base branch (merge, squash or the last
	// rebased commit).
	Merged         bool
	MergeCommitSHA string
}

// WorkflowRun is a GitHub Actions run.
type WorkflowRun struct {
	ID           int64
	Name         string
	Path         string // .github/workflows/plan.yml
	DisplayTitle string // the run-name, when the workflow sets one
	HeadSHA      string
	HeadBranch   string
	Status       string
	Conclusion   string
	HTMLURL      string
	RunStartedAt time.Time
	PullRequests []int
	// Event triggered the run (pull_request, workflow_dispatch, ...);
	// Attempt is its run_attempt; HeadRepo the owner/name of the
	// repository its head commit came from (a fork's, for a fork's PR).
	Event    string
	Attempt  int
	HeadRepo string
	// Actor is who triggered the run (GitHub's triggering_actor).
	Actor string
}

// Changes are the files a pull request changes, as GitHub lists them.
type Changes struct {
	Files    []string
	Complete bool
	// SHAs are the files' git blob SHAs at the head, by path (a removed
	// file has none).
	SHAs map[string]string
}

// Artifact is one artifact of a workflow run.
type Artifact struct {
	ID          int64
	Name        string
	SizeInBytes int64
	Expired     bool
}
