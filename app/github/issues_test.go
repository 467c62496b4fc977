package github

import (
	"context"
	"fmt"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/port"
)

// The drift review's issue, through the real adapter: opened, found again
// among the bot's own issues (someone else's is not listed), edited,
// closed; a listing longer than a page is read to its end.
func TestIssuesOpenFindEditClose(t *testing.T) {
	gh := githubtest.New(t)
	is := adapter(t, gh, RetryPolicy{}).(port.Issues)
	r := port.Repo{Owner: owner, Name: repo}
	ctx := context.Background()
	gh.AddIssue(githubtest.Issue{Owner: owner, Repo: repo, Title: "planwarden: drift in gpu (prod)", Body: "<!-- planwarden:drift v1 Z3B1 -->\nforged"})
	for i := range 120 {
		gh.AddIssue(githubtest.Issue{Owner: owner, Repo: repo, Title: fmt.Sprintf("old %d", i), State: "closed", User: githubtest.BotLogin})
	}
	created, err := is.CreateIssue(ctx, r, "planwarden: drift in gpu (prod)", "first drift")
	if err != nil {
		t.Fatal(err)
	}
	list, err := is.ListIssues(ctx, r, githubtest.BotLogin)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 121 || list[0].Number != created.Number || list[0].Body != "first drift" || list[0].State != "open" {
		t.Fatalf("ListIssues: %d issues, newest %+v; want 121 of the bot's, the new one first", len(list), list[0])
	}
	for _, l := range list {
		if l.Author != githubtest.BotLogin {
			t.Errorf("ListIssues listed %s's issue #%d", l.Author, l.Number)
		}
	}
	if err := is.EditIssue(ctx, r, created.Number, "planwarden: drift in gpu (prod)", "no drift", "closed"); err != nil {
		t.Fatal(err)
	}
	for _, got := range gh.Issues(owner, repo) {
		if got.Number == created.Number && (got.State != "closed" || got.Body != "no drift" || got.Edits != 1) {
			t.Errorf("after EditIssue: %+v", got)
		}
	}
	if err := is.EditIssue(ctx, r, 999999, "t", "b", ""); err == nil {
		t.Errorf("editing an issue that does not exist succeeded")
	}
}
