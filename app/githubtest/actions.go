package githubtest

import (
	"fmt"
	"net/http"
	"path"
	"sort"
	"strconv"
	"time"
)

// SetDefaultBranch sets a repository's default branch (main when unset).
func (s *Server) SetDefaultBranch(owner, repo, branch string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.defaults == nil {
		s.defaults = map[string]string{}
	}
	s.defaults[owner+"/"+repo] = branch
}

func (s *Server) defaultBranch(owner, repo string) string {
	if b := s.defaults[owner+"/"+repo]; b != "" {
		return b
	}
	return "main"
}

// newComment adds a comment with its ids; s.mu is held.
func (s *Server) newComment(owner, repo string, pr int, user, body string) *Comment {
	id := s.id()
	c := &Comment{ID: id, NodeID: fmt.Sprintf("IC_kwfake%d", id), Owner: owner, Repo: repo, PR: pr, Body: body, User: user}
	s.comments = append(s.comments, c)
	return c
}

func (s *Server) getRepo(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, n := r.PathValue("owner"), r.PathValue("repo")
	writeJSON(w, http.StatusOK, map[string]any{
		"id": 1, "name": n, "full_name": o + "/" + n, "owner": map[string]any{"login": o},
		"default_branch": s.defaultBranch(o, n), "private": true,
	})
}

// runJSON is a workflow run as the REST API shows it; s.mu is held.
func (s *Server) runJSON(run *Run) map[string]any {
	prs := []any{}
	for _, n := range run.PRs {
		prs = append(prs, map[string]any{"number": n})
	}
	title := run.DisplayTitle
	if title == "" {
		title = run.Name
	}
	var conclusion any
	if run.Status == "completed" {
		conclusion = run.Conclusion
	}
	return map[string]any{
		"id": run.ID, "name": run.Name, "path": run.Path, "display_title": title, "event": run.Event,
		"head_sha": run.HeadSHA, "head_branch": run.HeadBranch,
		"status": run.Status, "conclusion": conclusion, "pull_requests": prs,
		"run_attempt": run.Attempt, "head_repository": map[string]any{"full_name": run.HeadRepo},
		"repository":     map[string]any{"full_name": run.Owner + "/" + run.Repo},
		"run_started_at": run.StartedAt.UTC().Format(time.RFC3339),
		"html_url":       fmt.Sprintf("%s/%s/%s/actions/runs/%d", s.URL, run.Owner, run.Repo, run.ID),
	}
}

// listWorkflowRuns is GET .../actions/workflows/{file}/runs: the runs of
// one workflow file, newest first, filtered by event, branch and head_sha
// as GitHub filters them.
func (s *Server) listWorkflowRuns(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := r.URL.Query()
	var runs []*Run
	for _, run := range s.runs {
		if run.Owner != r.PathValue("owner") || run.Repo != r.PathValue("repo") || path.Base(run.Path) != r.PathValue("wf") {
			continue
		}
		if e := q.Get("event"); e != "" && run.Event != e {
			continue
		}
		if b := q.Get("branch"); b != "" && run.HeadBranch != b {
			continue
		}
		if sha := q.Get("head_sha"); sha != "" && run.HeadSHA != sha {
			continue
		}
		runs = append(runs, run)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].ID > runs[j].ID })
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 || per > 100 {
		per = 30
	}
	out := []any{}
	for _, run := range runs[:min(per, len(runs))] {
		out = append(out, s.runJSON(run))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(runs), "workflow_runs": out})
}
