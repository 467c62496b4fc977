package run

import (
	"context"
	"errors"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/trust"
)

// The pull request's own code that terraform plan could run
// (plan-runs-pr-code, plan_source: dispatch): its changed files read
// through GitHub, never from the artifact.

// maxPRCodeFiles bounds the changed Terraform files read for
// plan-runs-pr-code; past it the rest are read as changed files nobody
// could check (an empty head).
const maxPRCodeFiles = 100

// prCodeFiles reads, through GitHub (never from the artifact), the base
// and head versions of the changed files that can make terraform plan
// run the pull request's own code (trust.PRCodeFiles), for
// trust.PlanRunsPRCode.
func prCodeFiles(ctx context.Context, gh port.PRReader, repo port.Repo, pr port.PullRequest, ch trust.Changes) ([]trust.FileVersions, error) {
	read := func(p, ref string) ([]byte, error) {
		data, err := gh.GetFile(ctx, repo, p, ref)
		if errors.Is(err, port.ErrNotFound) {
			return nil, nil
		}
		if err == nil && data == nil {
			data = []byte{}
		}
		return data, err
	}
	var out []trust.FileVersions
	for i, f := range trust.PRCodeFiles(ch) {
		fv := trust.FileVersions{Path: f, HeadSHA: ch.SHAs[f]}
		if i < maxPRCodeFiles {
			var err error
			if fv.Base, err = read(f, pr.BaseRef); err != nil {
				return nil, err
			}
			if fv.Head, err = read(f, pr.HeadSHA); err != nil {
				return nil, err
			}
		}
		out = append(out, fv)
	}
	return out, nil
}
