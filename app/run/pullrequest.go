package run

import (
	"context"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/trust"
)

// Which pull request a run is for, and what package trust sees of a run
// and of a pull request.

// findPR finds the open PR whose head is the run's head: from the run's
// pull_requests, else from the commit.
func findPR(ctx context.Context, gh port.PRReader, repo port.Repo, run port.WorkflowRun) (port.PullRequest, bool, error) {
	for _, n := range run.PullRequests {
		pr, err := gh.GetPullRequest(ctx, repo, n)
		if err != nil {
			return port.PullRequest{}, false, err
		}
		if pr.State == "open" {
			return pr, true, nil
		}
	}
	if len(run.PullRequests) > 0 {
		return port.PullRequest{}, false, nil
	}
	prs, err := gh.ListPRsForCommit(ctx, repo, run.HeadSHA)
	if err != nil {
		return port.PullRequest{}, false, err
	}
	for _, pr := range prs {
		if pr.State == "open" && pr.HeadSHA == run.HeadSHA {
			return pr, true, nil
		}
	}
	for _, pr := range prs {
		if pr.State == "open" {
			return pr, true, nil // the PR moved on: reported stale
		}
	}
	return port.PullRequest{}, false, nil
}

// trustRun is what trust sees of a workflow run.
func trustRun(run port.WorkflowRun) record.Run {
	return record.Run{ID: run.ID, Attempt: max(run.Attempt, 1), Path: run.Path, Event: run.Event, HeadSHA: run.HeadSHA,
		HeadRepo: run.HeadRepo, Conclusion: run.Conclusion}
}

// trustPR is what trust sees of a pull request of repo.
func trustPR(repo port.Repo, pr port.PullRequest) trust.PullRequest {
	return trust.PullRequest{Number: pr.Number, Repo: repo.String(), HeadSHA: pr.HeadSHA, Author: pr.Author}
}
