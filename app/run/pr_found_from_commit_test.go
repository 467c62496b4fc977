package run

import (
	"context"
	"testing"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
)

func TestFindPRFromTheCommitWhenTheRunNamesNone(t *testing.T) {
	t.Parallel()
	gh := &porttest.Reader{ListPRsForCommitFunc: func(port.Repo, string) ([]port.PullRequest, error) {
		return []port.PullRequest{{Number: 1, State: "closed", HeadSHA: "s"}, {Number: 4, State: "open", HeadSHA: "other"}, {Number: 6, State: "open", HeadSHA: "s"}}, nil
	}}
	pr, ok, err := findPR(context.Background(), gh, port.Repo{Owner: "o", Name: "r"}, port.WorkflowRun{HeadSHA: "s"})
	if err != nil || !ok || pr.Number != 6 {
		t.Errorf("found #%d (%v, %v), want the open PR #6 whose head is the run's", pr.Number, ok, err)
	}
}
