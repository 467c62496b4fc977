package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	jobs "github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/record"
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

func TestUpsertCommentFindsItsCommentByMarker(t *testing.T) {
	t.Parallel()
	sha := "abc1234"
	when := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	ours := comment.Render(nil, comment.Options{HeadSHA: sha, PlanTime: when, Marker: true})
	if _, ok := comment.ParseMarker(ours); !ok {
		t.Skip("comment.Render writes no marker for an empty report")
	}
	tests := map[string]struct {
		state      PRState
		comments   []IssueComment
		editErr    error
		wantEdited int64
		wantCreate bool
	}{
		"remembered id is edited": {state: PRState{CommentID: 5}, wantEdited: 5},
		"remembered comment deleted, marker found": {state: PRState{CommentID: 5}, editErr: ErrNotFound,
			comments: []IssueComment{{ID: 8, Body: "lgtm", User: "bob"}, {ID: 9, Body: ours, User: "planwarden[bot]"}}, wantEdited: 9},
		"a marker in someone else's comment is not ours": {comments: []IssueComment{{ID: 8, Body: ours, User: "mallory"}}, wantCreate: true},
		"no marker anywhere: create":                     {comments: []IssueComment{{ID: 8, Body: "lgtm"}}, wantCreate: true},
		// The marker's plan time is the plan's own claim: it never stops
		// the edit (which review is newest is the state's, by run id).
		"a marker naming a plan of 2099 is edited all the same": {comments: []IssueComment{{ID: 9, Body: comment.Render(nil, comment.Options{HeadSHA: sha, PlanTime: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC), Marker: true}), User: "planwarden[bot]"}}, wantEdited: 9},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var edited int64
			gh := &fakePublisher{
				listIssueComments: func(Repo, int) ([]IssueComment, error) { return tc.comments, nil },
				editComment: func(_ Repo, id int64, _ string) error {
					if id == tc.state.CommentID && tc.editErr != nil {
						return fmt.Errorf("edit: %w", tc.editErr)
					}
					edited = id
					return nil
				},
			}
			a := unitApp(t)
			_, err := a.upsertComment(context.Background(), gh, Repo{Owner: "o", Name: "r"}, 1, tc.state, "body")
			if err != nil {
				t.Fatal(err)
			}
			if edited != tc.wantEdited || (gh.n("CreateComment") == 1) != tc.wantCreate {
				t.Errorf("edited %d, created %d; want %d, %v", edited, gh.n("CreateComment"), tc.wantEdited, tc.wantCreate)
			}
		})
	}
}

func TestCompleteCheckSendsAnnotationsFiftyAtATime(t *testing.T) {
	t.Parallel()
	var batches []int
	gh := &fakePublisher{updateCheckRun: func(_ Repo, c CheckRun) error { batches = append(batches, len(c.Annotations)); return nil }}
	a := unitApp(t)
	ann := make([]record.Annotation, 120)
	if err := a.completeCheck(context.Background(), gh, Repo{Owner: "o", Name: "r"}, CheckRun{ID: 1}, outcome{Conclusion: "failure", Title: "t", Summary: "s", Annotations: ann}, 7); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(batches) != "[50 50 20]" {
		t.Errorf("annotation batches %v, want [50 50 20]", batches)
	}
}

func TestSlashCommandOnAForkIsRefused(t *testing.T) {
	t.Parallel()
	var replies []string
	gh := &fakeGitHub{
		fakeReader: fakeReader{
			getPermission: func(Repo, string) (string, error) { return "admin", nil },
			getPullRequest: func(Repo, int) (PullRequest, error) {
				return PullRequest{Number: 3, State: "open", HeadRef: "main", HeadRepo: "mallory/r"}, nil
			},
		},
		fakePublisher: fakePublisher{createComment: func(_ Repo, _ int, body string) (int64, error) { replies = append(replies, body); return 1, nil }},
	}
	a := unitApp(t)
	err := a.processIssueComment(context.Background(), gh, Job{Owner: "o", Repo: "r", PR: 3, IssueComment: &jobs.IssueComment{CommentID: 2, Body: "/plan", Sender: "alice"}})
	if err != nil {
		t.Fatal(err)
	}
	if gh.n("DispatchWorkflow") != 0 || len(replies) != 1 || !bytes.Contains([]byte(replies[0]), []byte("fork")) {
		t.Errorf("dispatches %d, replies %q; want none and a reply about the fork", gh.n("DispatchWorkflow"), replies)
	}
}

func TestFindPRFromTheCommitWhenTheRunNamesNone(t *testing.T) {
	t.Parallel()
	gh := &fakeReader{listPRsForCommit: func(Repo, string) ([]PullRequest, error) {
		return []PullRequest{{Number: 1, State: "closed", HeadSHA: "s"}, {Number: 4, State: "open", HeadSHA: "other"}, {Number: 6, State: "open", HeadSHA: "s"}}, nil
	}}
	a := unitApp(t)
	pr, ok, err := a.findPR(context.Background(), gh, Repo{Owner: "o", Name: "r"}, WorkflowRun{HeadSHA: "s"})
	if err != nil || !ok || pr.Number != 6 {
		t.Errorf("found #%d (%v, %v), want the open PR #6 whose head is the run's", pr.Number, ok, err)
	}
}

func TestSafeEntry(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"plan.json": true, "a/b/plan.json": true, "dir/": true,
		"../plan.json": false, "a/../../plan.json": false, "/etc/plan.json": false,
		`..\plan.json`: false, "C:/plan.json": true, "": false,
	} {
		if got := safeEntry(name); got != want {
			t.Errorf("safeEntry(%q) = %v, want %v", name, got, want)
		}
	}
}
