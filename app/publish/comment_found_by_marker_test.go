package publish

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
	"github.com/planwarden/planwarden/comment"
)

func TestUpsertCommentFindsItsCommentByMarker(t *testing.T) {
	t.Parallel()
	sha := "abc1234"
	when := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	ours := comment.Render(nil, comment.Options{HeadSHA: sha, PlanTime: when, Marker: true})
	if _, ok := comment.ParseMarker(ours); !ok {
		t.Skip("comment.Render writes no marker for an empty report")
	}
	tests := map[string]struct {
		state      port.PRState
		comments   []port.IssueComment
		editErr    error
		wantEdited int64
		wantCreate bool
	}{
		"remembered id is edited": {state: port.PRState{CommentID: 5}, wantEdited: 5},
		"remembered comment deleted, marker found": {state: port.PRState{CommentID: 5}, editErr: port.ErrNotFound,
			comments: []port.IssueComment{{ID: 8, Body: "lgtm", User: "bob"}, {ID: 9, Body: ours, User: "planwarden[bot]"}}, wantEdited: 9},
		"a marker in someone else's comment is not ours": {comments: []port.IssueComment{{ID: 8, Body: ours, User: "mallory"}}, wantCreate: true},
		"no marker anywhere: create":                     {comments: []port.IssueComment{{ID: 8, Body: "lgtm"}}, wantCreate: true},
		// The marker's plan time is the plan's own claim: it never stops
		// the edit (which review is newest is the state's, by run id).
		"a marker naming a plan of 2099 is edited all the same": {comments: []port.IssueComment{{ID: 9, Body: comment.Render(nil, comment.Options{HeadSHA: sha, PlanTime: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC), Marker: true}), User: "planwarden[bot]"}}, wantEdited: 9},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var edited int64
			gh := &porttest.Publisher{
				ListIssueCommentsFunc: func(port.Repo, int) ([]port.IssueComment, error) { return tc.comments, nil },
				EditCommentFunc: func(_ port.Repo, id int64, _ string) error {
					if id == tc.state.CommentID && tc.editErr != nil {
						return fmt.Errorf("edit: %w", tc.editErr)
					}
					edited = id
					return nil
				},
			}
			w := Writer{GitHub: gh, Repo: port.Repo{Owner: "o", Name: "r"}, Now: time.Now}
			_, err := w.UpsertComment(context.Background(), 1, tc.state, "body")
			if err != nil {
				t.Fatal(err)
			}
			if edited != tc.wantEdited || (gh.N("CreateComment") == 1) != tc.wantCreate {
				t.Errorf("edited %d, created %d; want %d, %v", edited, gh.N("CreateComment"), tc.wantEdited, tc.wantCreate)
			}
		})
	}
}
