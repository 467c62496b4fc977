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
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/prose"
)

func init() {
	commands["comment"] = command{summary: "post or update planwarden's one PR comment with a token (the GitHub Action's path)", run: runComment}
}

const commentUsage = `usage: planwarden comment --repo OWNER/REPO --pr N [--mode update|hide-and-new|new] [--author LOGIN] FILE

Posts FILE (a review written by planwarden review) as planwarden's comment on
pull request N. --mode says what happens to the comment an earlier run posted:

  update        edit it in place, so the PR has one review comment (default)
  hide-and-new  post a new comment, then hide the earlier ones as outdated
  new           post a new comment every time

The earlier comment is found by its hidden marker (the first two lines this
command writes), whatever token posted it: a workflow's GITHUB_TOKEN, an
App's installation token or a personal access token. Only a comment by an
App's account (a bot) or by the token's own user counts, so a comment
someone else writes with the marker is never edited, and the planwarden
App's own comment (which has no second line) is left alone. The token is
GITHUB_TOKEN (pull-requests: write); the API is GITHUB_API_URL (default
https://api.github.com/). --author (or PLANWARDEN_COMMENT_AUTHOR) names the
token's account when GitHub cannot say (a bot's comments are found anyway).

Exit status: 0 posted or edited, 2 bad usage, an unreadable file or a GitHub
error (named on standard error).
`

// actionTag is the hidden second line of the comment this command posts:
// with the marker it tells the Action's comment from the App's.
const actionTag = "<!-- planwarden:action -->"

// Comment modes (the Action's comment input, less off).
const (
	modeUpdate     = "update"
	modeHideAndNew = "hide-and-new"
	modeNew        = "new"
)

func runComment(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("comment", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	repoFlag := fs.String("repo", os.Getenv("GITHUB_REPOSITORY"), "OWNER/REPO (default $GITHUB_REPOSITORY)")
	prFlag := fs.Int("pr", 0, "pull request number")
	mode := fs.String("mode", modeUpdate, "update, hide-and-new or new")
	author := fs.String("author", os.Getenv("PLANWARDEN_COMMENT_AUTHOR"), "the account the token acts as")
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
	switch *mode {
	case modeUpdate, modeHideAndNew, modeNew:
	default:
		return fail("--mode must be update, hide-and-new or new, not %q", *mode)
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
	token, apiURL := os.Getenv("GITHUB_TOKEN"), envOr("GITHUB_API_URL", "https://api.github.com/")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	self := *author
	if self == "" && token != "" {
		self, _ = ghadapter.TokenLogin(ctx, token, apiURL, http.DefaultTransport)
	}
	login := self // whom a retried post looks for its own comment as
	if login == "" {
		login = "github-actions[bot]"
	}
	pub, err := ghadapter.TokenPublisher(token, apiURL, login, http.DefaultTransport, ghadapter.RetryPolicy{})
	if err != nil {
		return fail("%v", err)
	}
	id, verb, err := publishComment(ctx, pub, port.Repo{Owner: owner, Name: name}, *prFlag, string(body), *mode, self)
	if err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(stdout, "planwarden comment: %s comment %d on %s#%d\n", verb, id, *repoFlag, *prFlag)
	return exitOK
}

// actionBody is the review with the marker and the Action's tag as its
// first two lines, within GitHub's size.
func actionBody(body string) string {
	if _, ok := comment.ParseMarker(body); ok {
		first, rest, _ := strings.Cut(body, "\n")
		body = first + "\n" + actionTag + "\n" + rest
	} else {
		body = comment.Marker{Version: comment.MarkerVersion}.String() + "\n" + actionTag + "\n" + body
	}
	return prose.Clamp(body, comment.MaxCommentBytes)
}

// isActionComment reports whether c is a comment this command posted: the
// marker, the tag, and an author that is a bot or the token's own user
// (self, "" when not known).
func isActionComment(c port.IssueComment, self string) bool {
	if _, ok := comment.ParseMarker(c.Body); !ok {
		return false
	}
	_, rest, _ := strings.Cut(c.Body, "\n")
	second, _, _ := strings.Cut(rest, "\n")
	if strings.TrimSuffix(second, "\r") != actionTag {
		return false
	}
	return c.Bot || (self != "" && strings.EqualFold(c.User, self))
}

// publishComment posts the review as mode says: update edits the newest
// earlier comment (or posts one), hide-and-new posts and then minimizes
// the earlier ones, new only posts. verb says what happened.
func publishComment(ctx context.Context, pub port.Publisher, repo port.Repo, pr int, review, mode, self string) (id int64, verb string, err error) {
	body := actionBody(review)
	var earlier []port.IssueComment
	if mode != modeNew {
		all, err := pub.ListIssueComments(ctx, repo, pr)
		if err != nil {
			return 0, "", err
		}
		for _, c := range all {
			if isActionComment(c, self) {
				earlier = append(earlier, c)
			}
		}
	}
	if mode == modeUpdate && len(earlier) > 0 {
		last := earlier[len(earlier)-1]
		return last.ID, "edited", pub.EditComment(ctx, repo, last.ID, body)
	}
	if id, err = pub.CreateComment(ctx, repo, pr, body); err != nil {
		return 0, "", err
	}
	if mode == modeHideAndNew {
		for _, c := range earlier {
			if err := pub.MinimizeComment(ctx, c.NodeID); err != nil {
				return id, "", fmt.Errorf("posted comment %d, but hiding comment %d failed: %w", id, c.ID, err)
			}
		}
		return id, fmt.Sprintf("posted (%d earlier hidden)", len(earlier)), nil
	}
	return id, "posted", nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
