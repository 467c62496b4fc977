package github

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/planwarden/planwarden/app/port"
)

// The go-github adapter's part for the slash commands: the default branch,
// a workflow's runs, and GraphQL's minimizeComment.

func (g *ghAdapter) DefaultBranch(ctx context.Context, r port.Repo) (string, error) {
	repo, resp, err := g.c.Repositories.Get(ctx, r.Owner, r.Name)
	if err != nil {
		return "", fmt.Errorf("get repository %s: %w", r, notFound(resp, err))
	}
	if repo.GetDefaultBranch() == "" {
		return "", fmt.Errorf("get repository %s: no default branch", r)
	}
	return repo.GetDefaultBranch(), nil
}

func (g *ghAdapter) ListWorkflowRuns(ctx context.Context, r port.Repo, workflowFile, event, branch string) ([]port.WorkflowRun, error) {
	list, _, err := g.c.Actions.ListWorkflowRunsByFileName(ctx, r.Owner, r.Name, workflowFile, &github.ListWorkflowRunsOptions{
		Event: event, Branch: branch, ListOptions: github.ListOptions{PerPage: 50},
	})
	if err != nil {
		return nil, fmt.Errorf("list runs of %s: %w", workflowFile, err)
	}
	out := make([]port.WorkflowRun, 0, len(list.WorkflowRuns))
	for _, run := range list.WorkflowRuns {
		out = append(out, fromWorkflowRun(run))
	}
	return out, nil
}

// minimizeMutation is GitHub's minimizeComment mutation; the fake GitHub
// validates it against GitHub's schema.
const minimizeMutation = `mutation Minimize($id: ID!) {
  minimizeComment(input: {subjectId: $id, classifier: OUTDATED}) {
    minimizedComment { isMinimized }
  }
}`

func (g *ghAdapter) MinimizeComment(ctx context.Context, nodeID string) error {
	req, err := g.c.NewRequest("POST", graphQLURL(g.c.BaseURL.String()), map[string]any{
		"query": minimizeMutation, "operationName": "Minimize", "variables": map[string]any{"id": nodeID},
	})
	if err != nil {
		return fmt.Errorf("minimize comment %s: %w", nodeID, err)
	}
	var out struct {
		Data struct {
			MinimizeComment *struct {
				MinimizedComment struct {
					IsMinimized bool `json:"isMinimized"`
				} `json:"minimizedComment"`
			} `json:"minimizeComment"`
		} `json:"data"`
		Errors []struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if _, err := g.c.Do(ctx, req, &out); err != nil {
		return fmt.Errorf("minimize comment %s: %w", nodeID, err)
	}
	if len(out.Errors) > 0 {
		e := out.Errors[0]
		if e.Type == "NOT_FOUND" {
			return fmt.Errorf("minimize comment %s: %w: %s", nodeID, port.ErrNotFound, e.Message)
		}
		return fmt.Errorf("minimize comment %s: %s", nodeID, e.Message)
	}
	if out.Data.MinimizeComment == nil || !out.Data.MinimizeComment.MinimizedComment.IsMinimized {
		return fmt.Errorf("minimize comment %s: GitHub did not minimize it", nodeID)
	}
	return nil
}

// graphQLURL is the GraphQL endpoint next to a REST base: /api/graphql on
// GitHub Enterprise Server (REST under /api/v3/), /graphql on github.com.
func graphQLURL(restBase string) string {
	if base, ok := strings.CutSuffix(restBase, "/api/v3/"); ok {
		return base + "/api/graphql"
	}
	return strings.TrimSuffix(restBase, "/") + "/graphql"
}
