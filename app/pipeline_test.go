package app

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	jobs "github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/porttest"
)

// unitApp is a worker for a test that hands its function the port it
// takes; no job reaches GitHub through it.
func unitApp(t *testing.T, opts ...func(*Config)) *App {
	t.Helper()
	cfg := Config{GitHubFor: func(int64) (GitHub, error) { return nil, errors.New("this test gives its functions their ports") }}
	for _, o := range opts {
		o(&cfg)
	}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestNewRefusesABadPrivateKey(t *testing.T) {
	t.Parallel()
	_, err := New(Config{Secrets: Secrets{AppID: 1, PrivateKeyPEM: []byte("-----BEGIN RSA PRIVATE KEY-----\nSECRETBYTES\n-----END RSA PRIVATE KEY-----\n")}})
	if err == nil || strings.Contains(err.Error(), "SECRETBYTES") || !strings.Contains(err.Error(), "private key") {
		t.Fatalf("New with a bad key: %v, want an error about the key that does not quote it", err)
	}
}

func TestSlashCommandOnAForkIsRefused(t *testing.T) {
	t.Parallel()
	var replies []string
	gh := &porttest.GitHub{
		Reader: porttest.Reader{
			GetPermissionFunc: func(Repo, string) (string, error) { return "admin", nil },
			GetPullRequestFunc: func(Repo, int) (PullRequest, error) {
				return PullRequest{Number: 3, State: "open", HeadRef: "main", HeadRepo: "mallory/r"}, nil
			},
		},
		Publisher: porttest.Publisher{CreateCommentFunc: func(_ Repo, _ int, body string) (int64, error) { replies = append(replies, body); return 1, nil }},
	}
	a := unitApp(t)
	err := a.processIssueComment(context.Background(), gh, Job{Owner: "o", Repo: "r", PR: 3, IssueComment: &jobs.IssueComment{CommentID: 2, Body: "/plan", Sender: "alice"}})
	if err != nil {
		t.Fatal(err)
	}
	if gh.N("DispatchWorkflow") != 0 || len(replies) != 1 || !bytes.Contains([]byte(replies[0]), []byte("fork")) {
		t.Errorf("dispatches %d, replies %q; want none and a reply about the fork", gh.N("DispatchWorkflow"), replies)
	}
}
