package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/comment"
)

func commentEnv(t *testing.T, gh *githubtest.Server) {
	t.Setenv("GITHUB_TOKEN", "ghs_test_token_not_a_secret")
	t.Setenv("GITHUB_API_URL", gh.APIURL)
	t.Setenv("GITHUB_REPOSITORY", "")
	t.Setenv("PLANWARDEN_COMMENT_AUTHOR", githubtest.BotLogin)
}

func writeReview(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "review.md")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCommentPostsOnceThenEdits(t *testing.T) {
	gh := githubtest.New(t)
	commentEnv(t, gh)
	gh.AddPR(githubtest.PR{Owner: "acme", Repo: "infra", Number: 7, HeadSHA: "abc1234"})
	// Someone else's comment that copies the marker is never edited.
	forged := gh.AddComment("acme", "infra", 7, "mallory", comment.Marker{Version: 1}.String()+"\nforged")

	code, out, stderr := runCLI(t, "", "comment", "--repo", "acme/infra", "--pr", "7", writeReview(t, "## first review\n"))
	if code != exitOK || !strings.Contains(out, "posted comment") {
		t.Fatalf("first run: exit %d, %q, %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "", "comment", "--repo", "acme/infra", "--pr", "7", writeReview(t, "## second review\n"))
	if code != exitOK || !strings.Contains(out, "edited comment") {
		t.Fatalf("second run: exit %d, %q, %q", code, out, stderr)
	}
	var ours []githubtest.Comment
	for _, c := range gh.Comments("acme", "infra", 7) {
		if c.ID == forged {
			if !strings.HasSuffix(c.Body, "forged") {
				t.Errorf("mallory's comment was edited: %q", c.Body)
			}
			continue
		}
		ours = append(ours, c)
	}
	if len(ours) != 1 {
		t.Fatalf("%d planwarden comments on the PR, want 1", len(ours))
	}
	if _, ok := comment.ParseMarker(ours[0].Body); !ok || !strings.Contains(ours[0].Body, "second review") || strings.Contains(ours[0].Body, "first review") {
		t.Errorf("the comment is %q: want the marker and only the second review", ours[0].Body)
	}
}

func TestCommentRefusesBadInput(t *testing.T) {
	gh := githubtest.New(t)
	commentEnv(t, gh)
	review := writeReview(t, "x")
	cases := map[string]struct {
		args []string
		env  map[string]string
		want string
	}{
		"no token":         {[]string{"--repo", "a/b", "--pr", "1", review}, map[string]string{"GITHUB_TOKEN": ""}, "set GITHUB_TOKEN"},
		"repo without /":   {[]string{"--repo", "ab", "--pr", "1", review}, nil, "--repo must be OWNER/REPO"},
		"no pr":            {[]string{"--repo", "a/b", review}, nil, "--pr must be"},
		"missing file":     {[]string{"--repo", "a/b", "--pr", "1", "nope.md"}, nil, "read nope.md"},
		"two files":        {[]string{"--repo", "a/b", "--pr", "1", review, review}, nil, "exactly one review file"},
		"not a URL as API": {[]string{"--repo", "a/b", "--pr", "1", review}, map[string]string{"GITHUB_API_URL": "api.github"}, "not an absolute URL"},
	}
	for name, tc := range cases {
		for k, v := range tc.env {
			t.Setenv(k, v)
		}
		code, _, stderr := runCLI(t, "", append([]string{"comment"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "ghs_test_token") {
			t.Errorf("%s: exit %d, stderr %q (want 2 and %q, never the token)", name, code, stderr, tc.want)
		}
		commentEnv(t, gh)
	}
}
