package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	ghadapter "github.com/planwarden/planwarden/app/github"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
)

func init() {
	commands["comment"] = command{summary: "post or update planwarden's one PR comment with a token (the GitHub Action's path)", run: runComment}
}

const commentUsage = `usage: planwarden comment --repo OWNER/REPO --pr N [--author LOGIN] FILE

Posts FILE (a review written by planwarden review) as planwarden's comment on
pull request N, or edits the comment planwarden posted there before (found by
its hidden marker and its author), so a PR has one review comment. The token
is GITHUB_TOKEN (the workflow's token needs pull-requests: write); the API is
GITHUB_API_URL (default https://api.github.com/). --author is the account the
token acts as (default github-actions[bot], or PLANWARDEN_COMMENT_AUTHOR).

Exit status: 0 posted or edited, 2 bad usage, an unreadable file or a GitHub
error (named on standard error).
`

func runComment(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("comment", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	repoFlag := fs.String("repo", os.Getenv("GITHUB_REPOSITORY"), "OWNER/REPO (default $GITHUB_REPOSITORY)")
	prFlag := fs.Int("pr", 0, "pull request number")
	author := fs.String("author", envOr("PLANWARDEN_COMMENT_AUTHOR", "github-actions[bot]"), "the account the token acts as")
	files, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, commentUsage)
		return exitOK
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "planwarden comment: "+format+"\n", a...)
		return exitUsage
	}
	if err != nil {
		return fail("%v\n%s", err, commentUsage)
	}
	owner, name, ok := strings.Cut(*repoFlag, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return fail("--repo must be OWNER/REPO, not %q", *repoFlag)
	}
	if *prFlag <= 0 {
		return fail("--pr must be the pull request number (got %d)", *prFlag)
	}
	if len(files) != 1 {
		return fail("give exactly one review file (got %d)\n%s", len(files), commentUsage)
	}
	body, err := os.ReadFile(files[0])
	if err != nil {
		return fail("read %s: %v", files[0], errors.Unwrap(err))
	}
	pub, err := ghadapter.TokenPublisher(os.Getenv("GITHUB_TOKEN"), envOr("GITHUB_API_URL", "https://api.github.com/"), *author, http.DefaultTransport, ghadapter.RetryPolicy{})
	if err != nil {
		return fail("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	id, edited, err := upsertComment(ctx, pub, port.Repo{Owner: owner, Name: name}, *prFlag, string(body))
	if err != nil {
		return fail("%v", err)
	}
	verb := "posted"
	if edited {
		verb = "edited"
	}
	fmt.Fprintf(stdout, "planwarden comment: %s comment %d on %s#%d\n", verb, id, *repoFlag, *prFlag)
	return exitOK
}

// upsertComment adds the hidden marker when the body lacks one, keeps it
// within GitHub's size, and edits author's marked comment or creates one.
func upsertComment(ctx context.Context, pub port.Publisher, repo port.Repo, pr int, body string) (int64, bool, error) {
	if _, ok := comment.ParseMarker(body); !ok {
		body = comment.Marker{Version: comment.MarkerVersion}.String() + "\n" + body
	}
	return publish.UpsertMarkedComment(ctx, pub, repo, pr, prose.Clamp(body, comment.MaxCommentBytes))
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
