package app

import (
	"context"
	"sync"
)

// The GitHub ports as structs of func fields, one per port (PRReader,
// Publisher, Dispatcher), so a test fakes only the port its code takes; a
// nil func answers with zero values. fakeGitHub is all three, for a path
// that goes through a whole job. Each counts its calls by method.

type calls struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *calls) count(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]int{}
	}
	c.m[name]++
}

func (c *calls) n(name string) int { c.mu.Lock(); defer c.mu.Unlock(); return c.m[name] }

type fakeReader struct {
	calls
	getWorkflowRun   func(Repo, int64) (WorkflowRun, error)
	listRunArtifacts func(Repo, int64) ([]Artifact, error)
	downloadArtifact func(Repo, int64, int64) ([]byte, error)
	getFile          func(Repo, string, string) ([]byte, error)
	getPullRequest   func(Repo, int) (PullRequest, error)
	listPRsForCommit func(Repo, string) ([]PullRequest, error)
	listPRFiles      func(Repo, int) ([]string, bool, error)
	getPermission    func(Repo, string) (string, error)
	teamMember       func(org, slug, user string) (bool, error)
	defaultBranch    func(Repo) (string, error)
	listWorkflowRuns func(Repo, string, string, string) ([]WorkflowRun, error)
}

type fakePublisher struct {
	calls
	createCheckRun      func(Repo, CheckRun) (CheckRun, error)
	updateCheckRun      func(Repo, CheckRun) error
	listCheckRunsForRef func(Repo, string, string) ([]CheckRun, error)
	listIssueComments   func(Repo, int) ([]IssueComment, error)
	createComment       func(Repo, int, string) (int64, error)
	editComment         func(Repo, int64, string) error
	react               func(Repo, int64, string) error
	botLogin            func() (string, error)
	minimizeComment     func(string) error
}

type fakeDispatcher struct {
	calls
	dispatchWorkflow func(Repo, string, string, map[string]string) error
}

// fakeGitHub is the three ports of one installation.
type fakeGitHub struct {
	fakeReader
	fakePublisher
	fakeDispatcher
}

func (f *fakeGitHub) n(name string) int {
	return f.fakeReader.n(name) + f.fakePublisher.n(name) + f.fakeDispatcher.n(name)
}

func (f *fakePublisher) BotLogin(context.Context) (string, error) {
	f.count("BotLogin")
	if f.botLogin == nil {
		return "planwarden[bot]", nil
	}
	return f.botLogin()
}

func (f *fakePublisher) CreateCheckRun(_ context.Context, r Repo, c CheckRun) (CheckRun, error) {
	f.count("CreateCheckRun")
	if f.createCheckRun == nil {
		c.ID = 1
		return c, nil
	}
	return f.createCheckRun(r, c)
}

func (f *fakePublisher) UpdateCheckRun(_ context.Context, r Repo, c CheckRun) error {
	f.count("UpdateCheckRun")
	if f.updateCheckRun == nil {
		return nil
	}
	return f.updateCheckRun(r, c)
}

func (f *fakePublisher) ListCheckRunsForRef(_ context.Context, r Repo, ref, name string) ([]CheckRun, error) {
	f.count("ListCheckRunsForRef")
	if f.listCheckRunsForRef == nil {
		return nil, nil
	}
	return f.listCheckRunsForRef(r, ref, name)
}

func (f *fakePublisher) ListIssueComments(_ context.Context, r Repo, n int) ([]IssueComment, error) {
	f.count("ListIssueComments")
	if f.listIssueComments == nil {
		return nil, nil
	}
	return f.listIssueComments(r, n)
}

func (f *fakePublisher) CreateComment(_ context.Context, r Repo, n int, body string) (int64, error) {
	f.count("CreateComment")
	if f.createComment == nil {
		return 1, nil
	}
	return f.createComment(r, n, body)
}

func (f *fakePublisher) EditComment(_ context.Context, r Repo, id int64, body string) error {
	f.count("EditComment")
	if f.editComment == nil {
		return nil
	}
	return f.editComment(r, id, body)
}

func (f *fakeReader) GetWorkflowRun(_ context.Context, r Repo, id int64) (WorkflowRun, error) {
	f.count("GetWorkflowRun")
	if f.getWorkflowRun == nil {
		return WorkflowRun{}, nil
	}
	return f.getWorkflowRun(r, id)
}

func (f *fakeReader) ListRunArtifacts(_ context.Context, r Repo, id int64) ([]Artifact, error) {
	f.count("ListRunArtifacts")
	if f.listRunArtifacts == nil {
		return nil, nil
	}
	return f.listRunArtifacts(r, id)
}

func (f *fakeReader) DownloadArtifact(_ context.Context, r Repo, id, max int64) ([]byte, error) {
	f.count("DownloadArtifact")
	if f.downloadArtifact == nil {
		return nil, nil
	}
	return f.downloadArtifact(r, id, max)
}

func (f *fakeReader) GetFile(_ context.Context, r Repo, path, ref string) ([]byte, error) {
	f.count("GetFile")
	if f.getFile == nil {
		return nil, ErrNotFound
	}
	return f.getFile(r, path, ref)
}

func (f *fakeReader) GetPullRequest(_ context.Context, r Repo, n int) (PullRequest, error) {
	f.count("GetPullRequest")
	if f.getPullRequest == nil {
		return PullRequest{}, nil
	}
	return f.getPullRequest(r, n)
}

func (f *fakeReader) ListPRsForCommit(_ context.Context, r Repo, sha string) ([]PullRequest, error) {
	f.count("ListPRsForCommit")
	if f.listPRsForCommit == nil {
		return nil, nil
	}
	return f.listPRsForCommit(r, sha)
}

func (f *fakeReader) GetPermission(_ context.Context, r Repo, user string) (string, error) {
	f.count("GetPermission")
	if f.getPermission == nil {
		return "none", nil
	}
	return f.getPermission(r, user)
}

func (f *fakeDispatcher) DispatchWorkflow(_ context.Context, r Repo, wf, ref string, in map[string]string) error {
	f.count("DispatchWorkflow")
	if f.dispatchWorkflow == nil {
		return nil
	}
	return f.dispatchWorkflow(r, wf, ref, in)
}

func (f *fakePublisher) React(_ context.Context, r Repo, id int64, content string) error {
	f.count("React")
	if f.react == nil {
		return nil
	}
	return f.react(r, id, content)
}

func (f *fakeReader) TeamMember(_ context.Context, org, slug, user string) (bool, error) {
	f.count("TeamMember")
	if f.teamMember == nil {
		return false, nil
	}
	return f.teamMember(org, slug, user)
}

func (f *fakeReader) DefaultBranch(_ context.Context, r Repo) (string, error) {
	f.count("DefaultBranch")
	if f.defaultBranch == nil {
		return "main", nil
	}
	return f.defaultBranch(r)
}

func (f *fakeReader) ListWorkflowRuns(_ context.Context, r Repo, wf, event, branch string) ([]WorkflowRun, error) {
	f.count("ListWorkflowRuns")
	if f.listWorkflowRuns == nil {
		return nil, nil
	}
	return f.listWorkflowRuns(r, wf, event, branch)
}

func (f *fakeReader) LabelAdders(_ context.Context, r Repo, number int) (map[string]LabelMark, error) {
	f.count("LabelAdders")
	return nil, nil
}

func (f *fakePublisher) MinimizeComment(_ context.Context, nodeID string) error {
	f.count("MinimizeComment")
	if f.minimizeComment == nil {
		return nil
	}
	return f.minimizeComment(nodeID)
}

func (f *fakeReader) ListPRFiles(_ context.Context, r Repo, n int) ([]string, bool, error) {
	f.count("ListPRFiles")
	if f.listPRFiles == nil {
		return nil, true, nil
	}
	return f.listPRFiles(r, n)
}
