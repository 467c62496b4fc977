package porttest

import (
	"context"
	"fmt"
	"sync"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/record"
)

// The GitHub ports as structs of func fields, one per port (PRReader,
// Publisher, Dispatcher), so a test fakes only the port its code takes; a
// nil func answers with zero values (GetFile: port.port.ErrNotFound,
// GetPermission: none, DefaultBranch: main, ListPRChanges: none, complete).
// GitHub is all three, for a path that goes through a whole job. Each
// counts its calls by method (N).

// Calls counts a fake's calls by method.
type Calls struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *Calls) count(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]int{}
	}
	c.m[name]++
}

// N is how often the method name was called.
func (c *Calls) N(name string) int { c.mu.Lock(); defer c.mu.Unlock(); return c.m[name] }

// Reader fakes port.PRReader.
type Reader struct {
	Calls
	GetWorkflowRunFunc   func(port.Repo, int64) (port.WorkflowRun, error)
	ListRunArtifactsFunc func(port.Repo, int64) ([]port.Artifact, error)
	DownloadArtifactFunc func(port.Repo, int64, int64) ([]byte, error)
	GetFileFunc          func(port.Repo, string, string) ([]byte, error)
	GetPullRequestFunc   func(port.Repo, int) (port.PullRequest, error)
	ListPRsForCommitFunc func(port.Repo, string) ([]port.PullRequest, error)
	ListPRChangesFunc    func(port.Repo, int) (port.Changes, error)
	GetPermissionFunc    func(port.Repo, string) (string, error)
	TeamMemberFunc       func(org, slug, user string) (bool, error)
	DefaultBranchFunc    func(port.Repo) (string, error)
	ListWorkflowRunsFunc func(port.Repo, string, string, string) ([]port.WorkflowRun, error)
}

// Publisher fakes port.Publisher.
type Publisher struct {
	Calls
	CreateCheckRunFunc      func(port.Repo, port.CheckRun) (port.CheckRun, error)
	UpdateCheckRunFunc      func(port.Repo, port.CheckRun) error
	ListCheckRunsForRefFunc func(port.Repo, string, string) ([]port.CheckRun, error)
	ListIssueCommentsFunc   func(port.Repo, int) ([]port.IssueComment, error)
	CreateCommentFunc       func(port.Repo, int, string) (int64, error)
	EditCommentFunc         func(port.Repo, int64, string) error
	ReactFunc               func(port.Repo, int64, string) error
	BotLoginFunc            func() (string, error)
	MinimizeCommentFunc     func(string) error
}

// Dispatcher fakes port.Dispatcher.
type Dispatcher struct {
	Calls
	DispatchWorkflowFunc func(port.Repo, string, string, map[string]string) error
}

// GitHub is the three ports of one installation.
type GitHub struct {
	Reader
	Publisher
	Dispatcher
}

// N is how often the method name was called, on any of the ports.
func (f *GitHub) N(name string) int {
	return f.Reader.N(name) + f.Publisher.N(name) + f.Dispatcher.N(name)
}

func (f *Publisher) BotLogin(context.Context) (string, error) {
	f.count("BotLogin")
	if f.BotLoginFunc == nil {
		return "planwarden[bot]", nil
	}
	return f.BotLoginFunc()
}

func (f *Publisher) CreateCheckRun(_ context.Context, r port.Repo, c port.CheckRun) (port.CheckRun, error) {
	f.count("CreateCheckRun")
	if f.CreateCheckRunFunc == nil {
		c.ID = 1
		return c, nil
	}
	return f.CreateCheckRunFunc(r, c)
}

func (f *Publisher) UpdateCheckRun(_ context.Context, r port.Repo, c port.CheckRun) error {
	f.count("UpdateCheckRun")
	if f.UpdateCheckRunFunc == nil {
		return nil
	}
	return f.UpdateCheckRunFunc(r, c)
}

func (f *Publisher) ListCheckRunsForRef(_ context.Context, r port.Repo, ref, name string) ([]port.CheckRun, error) {
	f.count("ListCheckRunsForRef")
	if f.ListCheckRunsForRefFunc == nil {
		return nil, nil
	}
	return f.ListCheckRunsForRefFunc(r, ref, name)
}

func (f *Publisher) ListIssueComments(_ context.Context, r port.Repo, n int) ([]port.IssueComment, error) {
	f.count("ListIssueComments")
	if f.ListIssueCommentsFunc == nil {
		return nil, nil
	}
	return f.ListIssueCommentsFunc(r, n)
}

func (f *Publisher) CreateComment(_ context.Context, r port.Repo, n int, body string) (int64, error) {
	f.count("CreateComment")
	if f.CreateCommentFunc == nil {
		return 1, nil
	}
	return f.CreateCommentFunc(r, n, body)
}

func (f *Publisher) EditComment(_ context.Context, r port.Repo, id int64, body string) error {
	f.count("EditComment")
	if f.EditCommentFunc == nil {
		return nil
	}
	return f.EditCommentFunc(r, id, body)
}

func (f *Reader) GetWorkflowRun(_ context.Context, r port.Repo, id int64) (port.WorkflowRun, error) {
	f.count("GetWorkflowRun")
	if f.GetWorkflowRunFunc == nil {
		return port.WorkflowRun{}, nil
	}
	return f.GetWorkflowRunFunc(r, id)
}

func (f *Reader) ListRunArtifacts(_ context.Context, r port.Repo, id int64) ([]port.Artifact, error) {
	f.count("ListRunArtifacts")
	if f.ListRunArtifactsFunc == nil {
		return nil, nil
	}
	return f.ListRunArtifactsFunc(r, id)
}

// DownloadArtifact charges what DownloadArtifactFunc returns (its
// capacity, as the adapter's buffer would be) before handing it over.
func (f *Reader) DownloadArtifact(_ context.Context, r port.Repo, id, max int64, charge func(int64) error) ([]byte, error) {
	f.count("DownloadArtifact")
	if f.DownloadArtifactFunc == nil {
		return nil, nil
	}
	data, err := f.DownloadArtifactFunc(r, id, max)
	if err != nil {
		return nil, err
	}
	if err := charge(int64(cap(data))); err != nil {
		return nil, fmt.Errorf("download artifact %d: %w", id, err)
	}
	return data, nil
}

func (f *Reader) GetFile(_ context.Context, r port.Repo, path, ref string) ([]byte, error) {
	f.count("GetFile")
	if f.GetFileFunc == nil {
		return nil, port.ErrNotFound
	}
	return f.GetFileFunc(r, path, ref)
}

func (f *Reader) GetPullRequest(_ context.Context, r port.Repo, n int) (port.PullRequest, error) {
	f.count("GetPullRequest")
	if f.GetPullRequestFunc == nil {
		return port.PullRequest{}, nil
	}
	return f.GetPullRequestFunc(r, n)
}

func (f *Reader) ListPRsForCommit(_ context.Context, r port.Repo, sha string) ([]port.PullRequest, error) {
	f.count("ListPRsForCommit")
	if f.ListPRsForCommitFunc == nil {
		return nil, nil
	}
	return f.ListPRsForCommitFunc(r, sha)
}

func (f *Reader) GetPermission(_ context.Context, r port.Repo, user string) (string, error) {
	f.count("GetPermission")
	if f.GetPermissionFunc == nil {
		return "none", nil
	}
	return f.GetPermissionFunc(r, user)
}

func (f *Dispatcher) DispatchWorkflow(_ context.Context, r port.Repo, wf, ref string, in map[string]string) error {
	f.count("DispatchWorkflow")
	if f.DispatchWorkflowFunc == nil {
		return nil
	}
	return f.DispatchWorkflowFunc(r, wf, ref, in)
}

func (f *Publisher) React(_ context.Context, r port.Repo, id int64, content string) error {
	f.count("React")
	if f.ReactFunc == nil {
		return nil
	}
	return f.ReactFunc(r, id, content)
}

func (f *Reader) TeamMember(_ context.Context, org, slug, user string) (bool, error) {
	f.count("TeamMember")
	if f.TeamMemberFunc == nil {
		return false, nil
	}
	return f.TeamMemberFunc(org, slug, user)
}

func (f *Reader) DefaultBranch(_ context.Context, r port.Repo) (string, error) {
	f.count("DefaultBranch")
	if f.DefaultBranchFunc == nil {
		return "main", nil
	}
	return f.DefaultBranchFunc(r)
}

func (f *Reader) ListWorkflowRuns(_ context.Context, r port.Repo, wf, event, branch string) ([]port.WorkflowRun, error) {
	f.count("ListWorkflowRuns")
	if f.ListWorkflowRunsFunc == nil {
		return nil, nil
	}
	return f.ListWorkflowRunsFunc(r, wf, event, branch)
}

func (f *Reader) LabelAdders(_ context.Context, r port.Repo, number int) (map[string]record.LabelMark, error) {
	f.count("LabelAdders")
	return nil, nil
}

func (f *Publisher) MinimizeComment(_ context.Context, nodeID string) error {
	f.count("MinimizeComment")
	if f.MinimizeCommentFunc == nil {
		return nil
	}
	return f.MinimizeCommentFunc(nodeID)
}

func (f *Reader) ListPRChanges(_ context.Context, r port.Repo, n int) (port.Changes, error) {
	f.count("ListPRChanges")
	if f.ListPRChangesFunc == nil {
		return port.Changes{Complete: true}, nil
	}
	return f.ListPRChangesFunc(r, n)
}
