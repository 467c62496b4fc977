package command

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
	"github.com/planwarden/planwarden/app/publish"
)

func TestSlashCommandOnAForkIsRefused(t *testing.T) {
	t.Parallel()
	var replies []string
	gh := &porttest.GitHub{
		Reader: porttest.Reader{
			GetPermissionFunc: func(port.Repo, string) (string, error) { return "admin", nil },
			GetPullRequestFunc: func(port.Repo, int) (port.PullRequest, error) {
				return port.PullRequest{Number: 3, State: "open", HeadRef: "main", HeadRepo: "mallory/r"}, nil
			},
		},
		Publisher: porttest.Publisher{CreateCommentFunc: func(_ port.Repo, _ int, body string) (int64, error) { replies = append(replies, body); return 1, nil }},
	}
	x := New(Config{State: publish.NewState(porttest.NewMemoryStore(nil), time.Hour, time.Now)})
	err := x.Run(context.Background(), gh, job.Job{Owner: "o", Repo: "r", PR: 3, IssueComment: &job.IssueComment{CommentID: 2, Body: "/plan", Sender: "alice"}})
	if err != nil {
		t.Fatal(err)
	}
	if gh.N("DispatchWorkflow") != 0 || len(replies) != 1 || !bytes.Contains([]byte(replies[0]), []byte("fork")) {
		t.Errorf("dispatches %d, replies %q; want none and a reply about the fork", gh.N("DispatchWorkflow"), replies)
	}
}
