// Package repoconfig reads a repository's planwarden config as a job
// needs it: from a pull request's base branch (Base: the config that
// gates the pull request, which the pull request cannot loosen) or from
// the default branch (Command: the config slash commands obey). A config
// that does not parse or validate is a *Bad, or, for a review, a
// *publish.Final that names the file and puts each problem on its line.
package repoconfig

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/rules"
)

// Base reads the config from the pull request's base branch baseRef,
// so a pull request cannot loosen the rules that gate it. A config that
// cannot be used is a *publish.Final naming the file and what is wrong,
// with annotations.
func Base(ctx context.Context, gh port.PRReader, repo port.Repo, baseRef string) (*rules.Config, error) {
	cfg, err := Read(ctx, gh, repo, baseRef)
	var bad *Bad
	if errors.As(err, &bad) {
		return nil, &publish.Final{Why: comment.BadConfig{File: bad.File, Ref: baseRef, Err: bad.Err}, Err: err}
	}
	return cfg, err
}

// Command reads the config the slash commands obey: the one on the
// repository's default branch, which a pull request cannot change. The
// branch comes with it. A config that cannot be used is a *Bad.
func Command(ctx context.Context, gh port.PRReader, repo port.Repo) (*rules.Config, string, error) {
	branch, err := gh.DefaultBranch(ctx, repo)
	if err != nil {
		return nil, "", err
	}
	cfg, err := Read(ctx, gh, repo, branch)
	return cfg, branch, err
}

// Read reads the repo config at ref (the defaults when there is
// none). A config that cannot be used is a *Bad; any other error is
// GitHub's.
func Read(ctx context.Context, gh port.PRReader, repo port.Repo, ref string) (*rules.Config, error) {
	for _, file := range rules.ConfigPaths {
		data, err := gh.GetFile(ctx, repo, file, ref)
		if errors.Is(err, port.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read the repo config %s at %s: %w", file, ref, err)
		}
		cfg, err := rules.ParseConfig(file, data)
		if err != nil {
			return nil, &Bad{File: file, Ref: ref, Err: err}
		}
		return cfg, nil
	}
	return rules.DefaultConfig(), nil
}

// Bad is a repo config that does not parse or validate: File at
// Ref, and why.
type Bad struct {
	File, Ref string
	Err       error
}

func (e *Bad) Error() string { return e.File + " on " + e.Ref + ": " + e.Err.Error() }

// SHA is the git blob SHA of the repo config at ref (the file Read would
// use), "" when there is none: what a decision records of the config it
// was made under, so that a later config is noticed (the reconciler).
func SHA(ctx context.Context, gh port.PRReader, repo port.Repo, ref string) (string, error) {
	for _, file := range rules.ConfigPaths {
		data, err := gh.GetFile(ctx, repo, file, ref)
		if errors.Is(err, port.ErrNotFound) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("read the repo config %s at %s: %w", file, ref, err)
		}
		h := sha1.New()
		fmt.Fprintf(h, "blob %d\x00", len(data))
		h.Write(data)
		return hex.EncodeToString(h.Sum(nil)), nil
	}
	return "", nil
}
