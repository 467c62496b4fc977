package app

import (
	"context"
	"sync"
)

// fakeGitHub is the GitHub port as a struct of func fields; a nil func
// answers with zero values. calls counts each method.
type fakeGitHub struct {
	mu    sync.Mutex
	calls map[string]int

	createCheckRun      func(Repo, CheckRun) (CheckRun, error)
	updateCheckRun      func(Repo, CheckRun) error
	listCheckRunsForRef func(Repo, string, string) ([]CheckRun, error)
	listIssueComments   func(Repo, int) ([]IssueComment, error)
	createComment       func(Repo, int, string) (int64, error)
	editComment         func(Repo, int64, string) error
	getWorkflowRun      func(Repo, int64) (WorkflowRun, error)
	listRunArtifacts    func(Repo, int64) ([]Artifact, error)
	downloadArtifact    func(Repo, int64, int64) ([]byte, error)
	getFile             func(Repo, string, string) ([]byte, error)
	getPullRequest      func(Repo, int) (PullRequest, error)
	listPRsForCommit    func(Repo, string) ([]PullRequest, error)
	listPRFiles         func(Repo, int) ([]string, bool, error)
	getPermission       func(Repo, string) (string, error)
	dispatchWorkflow    func(Repo, string, string, map[string]string) error
	react               func(Repo, int64, string) error
	teamMember          func(org, slug, user string) (bool, error)
	botLogin            func() (string, error)
	defaultBranch       func(Repo) (string, error)
	listWorkflowRuns    func(Repo, string, string, string) ([]WorkflowRun, error)
	minimizeComment     func(string) error
}

func (f *fakeGitHub) BotLogin(context.Context) (string, error) {
	f.count("BotLogin")
	if f.botLogin == nil {
		return "planwarden[bot]", nil
	}
	return f.botLogin()
}

func (f *fakeGitHub) count(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[name]++
}

func (f *fakeGitHub) n(name string) int { f.mu.Lock(); defer f.mu.Unlock(); return f.calls[name] }

func (f *fakeGitHub) CreateCheckRun(_ context.Context, r Repo, c CheckRun) (CheckRun, error) {
	f.count("CreateCheckRun")
	if f.createCheckRun == nil {
		c.ID = 1
		return c, nil
	}
	return f.createCheckRun(r, c)
}

func (f *fakeGitHub) UpdateCheckRun(_ context.Context, r Repo, c CheckRun) error {
	f.count("UpdateCheckRun")
	if f.updateCheckRun == nil {
		return nil
	}
	return f.updateCheckRun(r, c)
}

func (f *fakeGitHub) ListCheckRunsForRef(_ context.Context, r Repo, ref, name string) ([]CheckRun, error) {
	f.count("ListCheckRunsForRef")
	if f.listCheckRunsForRef == nil {
		return nil, nil
	}
	return f.listCheckRunsForRef(r, ref, name)
}

func (f *fakeGitHub) ListIssueComments(_ context.Context, r Repo, n int) ([]IssueComment, error) {
	f.count("ListIssueComments")
	if f.listIssueComments == nil {
		return nil, nil
	}
	return f.listIssueComments(r, n)
}

func (f *fakeGitHub) CreateComment(_ context.Context, r Repo, n int, body string) (int64, error) {
	f.count("CreateComment")
	if f.createComment == nil {
		return 1, nil
	}
	return f.createComment(r, n, body)
}

func (f *fakeGitHub) EditComment(_ context.Context, r Repo, id int64, body string) error {
	f.count("EditComment")
	if f.editComment == nil {
		return nil
	}
	return f.editComment(r, id, body)
}

func (f *fakeGitHub) GetWorkflowRun(_ context.Context, r Repo, id int64) (WorkflowRun, error) {
	f.count("GetWorkflowRun")
	if f.getWorkflowRun == nil {
		return WorkflowRun{}, nil
	}
	return f.getWorkflowRun(r, id)
}

func (f *fakeGitHub) ListRunArtifacts(_ context.Context, r Repo, id int64) ([]Artifact, error) {
	f.count("ListRunArtifacts")
	if f.listRunArtifacts == nil {
		return nil, nil
	}
	return f.listRunArtifacts(r, id)
}

func (f *fakeGitHub) DownloadArtifact(_ context.Context, r Repo, id, max int64) ([]byte, error) {
	f.count("DownloadArtifact")
	if f.downloadArtifact == nil {
		return nil, nil
	}
	return f.downloadArtifact(r, id, max)
}

func (f *fakeGitHub) GetFile(_ context.Context, r Repo, path, ref string) ([]byte, error) {
	f.count("GetFile")
	if f.getFile == nil {
		return nil, ErrNotFound
	}
	return f.getFile(r, path, ref)
}

func (f *fakeGitHub) GetPullRequest(_ context.Context, r Repo, n int) (PullRequest, error) {
	f.count("GetPullRequest")
	if f.getPullRequest == nil {
		return PullRequest{}, nil
	}
	return f.getPullRequest(r, n)
}

func (f *fakeGitHub) ListPRsForCommit(_ context.Context, r Repo, sha string) ([]PullRequest, error) {
	f.count("ListPRsForCommit")
	if f.listPRsForCommit == nil {
		return nil, nil
	}
	return f.listPRsForCommit(r, sha)
}

func (f *fakeGitHub) GetPermission(_ context.Context, r Repo, user string) (string, error) {
	f.count("GetPermission")
	if f.getPermission == nil {
		return "none", nil
	}
	return f.getPermission(r, user)
}

func (f *fakeGitHub) DispatchWorkflow(_ context.Context, r Repo, wf, ref string, in map[string]string) error {
	f.count("DispatchWorkflow")
	if f.dispatchWorkflow == nil {
		return nil
	}
	return f.dispatchWorkflow(r, wf, ref, in)
}

func (f *fakeGitHub) React(_ context.Context, r Repo, id int64, content string) error {
	f.count("React")
	if f.react == nil {
		return nil
	}
	return f.react(r, id, content)
}

func (f *fakeGitHub) TeamMember(_ context.Context, org, slug, user string) (bool, error) {
	f.count("TeamMember")
	if f.teamMember == nil {
		return false, nil
	}
	return f.teamMember(org, slug, user)
}

func (f *fakeGitHub) DefaultBranch(_ context.Context, r Repo) (string, error) {
	f.count("DefaultBranch")
	if f.defaultBranch == nil {
		return "main", nil
	}
	return f.defaultBranch(r)
}

func (f *fakeGitHub) ListWorkflowRuns(_ context.Context, r Repo, wf, event, branch string) ([]WorkflowRun, error) {
	f.count("ListWorkflowRuns")
	if f.listWorkflowRuns == nil {
		return nil, nil
	}
	return f.listWorkflowRuns(r, wf, event, branch)
}

func (f *fakeGitHub) LabelAdders(_ context.Context, r Repo, number int) (map[string]LabelMark, error) {
	f.count("LabelAdders")
	return nil, nil
}

func (f *fakeGitHub) MinimizeComment(_ context.Context, nodeID string) error {
	f.count("MinimizeComment")
	if f.minimizeComment == nil {
		return nil
	}
	return f.minimizeComment(nodeID)
}

func (f *fakeGitHub) ListPRFiles(_ context.Context, r Repo, n int) ([]string, bool, error) {
	f.count("ListPRFiles")
	if f.listPRFiles == nil {
		return nil, true, nil
	}
	return f.listPRFiles(r, n)
}
