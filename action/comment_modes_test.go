package action

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/comment"
)

// TestActionKeepsOneCommentWhateverTheToken: two runs of the Action edit
// one comment whether its token is the workflow's, an App's or a person's;
// the comment modes post and hide as they say; a marked comment someone
// else wrote, and the App's own comment, are never edited.
func TestActionKeepsOneCommentWhateverTheToken(t *testing.T) {
	t.Parallel()
	bin := build(t)
	typo, _ := filepath.Abs("../examples/plans/aks-gpu-typo.json")
	marker := comment.Marker{Version: 1}.String()
	tests := map[string]struct {
		token, login, mode string
		planted            map[string]string // login -> body of a comment already on the PR
		wantOurs           int               // comments by login after two runs
		wantHidden         int               // of those, minimized
	}{
		"the workflow's token":        {token: "ghs_workflow", login: "github-actions[bot]", mode: "update", wantOurs: 1},
		"an App's installation token": {token: "ghs_ci_app", login: "planwarden-ci[bot]", mode: "update", wantOurs: 1},
		"a personal access token":     {token: "ghp_alice", login: "alice", mode: "update", wantOurs: 1},
		"true is update":              {token: "ghs_workflow", login: "github-actions[bot]", mode: "true", wantOurs: 1},
		"hide-and-new":                {token: "ghs_workflow", login: "github-actions[bot]", mode: "hide-and-new", wantOurs: 2, wantHidden: 1},
		"new":                         {token: "ghp_alice", login: "alice", mode: "new", wantOurs: 2},
		"off":                         {token: "ghs_workflow", login: "github-actions[bot]", mode: "off", wantOurs: 0},
		"false is off":                {token: "ghs_workflow", login: "github-actions[bot]", mode: "false", wantOurs: 0},
		"someone else's marked comment": {token: "ghp_alice", login: "alice", mode: "update", wantOurs: 1,
			planted: map[string]string{"mallory": marker + "\n<!-- planwarden:action -->\nplanted"}},
		"the App's own comment": {token: "ghs_workflow", login: "github-actions[bot]", mode: "update", wantOurs: 1,
			planted: map[string]string{githubtest.BotLogin: marker + "\n## the App's review"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			gh := githubtest.New(t)
			gh.AddPR(githubtest.PR{Owner: "acme", Repo: "infra", Number: 12, HeadSHA: "abc1234"})
			gh.TokenUser(tc.token, tc.login)
			planted := map[int64]string{}
			for who, body := range tc.planted {
				planted[gh.AddComment("acme", "infra", 12, who, body)] = body
			}
			inputs := map[string]string{"INPUT_PLANS": typo, "INPUT_PROJECTS": "aks-gpu", "INPUT_ENVIRONMENT": "prod",
				"INPUT_COMMENT": tc.mode, "PR_NUMBER": "12", "GITHUB_TOKEN": tc.token, "PLANWARDEN_COMMENT_AUTHOR": ""}
			for run := 1; run <= 2; run++ {
				if r := runAction(t, bin, gh, inputs); r.code != 1 {
					t.Fatalf("run %d: exit %d, want 1 (the typo fails)\n%s", run, r.code, r.stdout)
				}
			}
			ours, hidden := 0, 0
			for _, c := range gh.Comments("acme", "infra", 12) {
				if body, ok := planted[c.ID]; ok {
					if c.Body != body || c.Minimized {
						t.Errorf("%s's comment was changed: %.120q", c.User, c.Body)
					}
					continue
				}
				if c.User != tc.login {
					t.Errorf("a comment by %s, want %s", c.User, tc.login)
				}
				if _, ok := comment.ParseMarker(c.Body); !ok || !strings.Contains(c.Body, "gpu-sku-loss") {
					t.Errorf("comment %.120q: want the marked review", c.Body)
				}
				ours++
				if c.Minimized {
					hidden++
				}
			}
			if ours != tc.wantOurs || hidden != tc.wantHidden {
				t.Errorf("%d comments by %s, %d hidden; want %d, %d", ours, tc.login, hidden, tc.wantOurs, tc.wantHidden)
			}
		})
	}
}

func TestActionRefusesAnUnknownCommentMode(t *testing.T) {
	t.Parallel()
	bin := build(t)
	gh := githubtest.New(t)
	bucket, _ := filepath.Abs("../examples/plans/bucket-lifecycle.json")
	r := runAction(t, bin, gh, map[string]string{"INPUT_PLANS": bucket, "INPUT_COMMENT": "sometimes", "PR_NUMBER": "12"})
	if r.code != 2 || !strings.Contains(r.stdout, "input comment must be update, hide-and-new, new or off, not 'sometimes'") {
		t.Errorf("exit %d\n%s", r.code, r.stdout)
	}
}
