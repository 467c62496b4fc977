package githubtest

import (
	"fmt"
	"net/http"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
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
		"triggering_actor": map[string]any{"login": orOctocat(run.Actor), "type": actorType(orOctocat(run.Actor))},
		"repository":       map[string]any{"full_name": run.Owner + "/" + run.Repo},
		"run_started_at":   run.StartedAt.UTC().Format(time.RFC3339),
		"html_url":         fmt.Sprintf("%s/%s/%s/actions/runs/%d", s.URL, run.Owner, run.Repo, run.ID),
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

// dispatchProblem checks a workflow_dispatch as GitHub does, once the test
// has put any workflow file in the repository (SetFile under
// .github/workflows/): the workflow must exist on the default branch and
// at ref, have a workflow_dispatch trigger, declare every input sent and
// get every required one. It returns the status and message GitHub would
// answer, or 0. s.mu is held.
func (s *Server) dispatchProblem(owner, repo, wf, ref string, inputs map[string]string) (int, string) {
	prefix := owner + "/" + repo + "@"
	registered := false
	for k := range s.files {
		if strings.HasPrefix(k, prefix) && strings.Contains(k, ":.github/workflows/") {
			registered = true
		}
	}
	if !registered {
		return 0, ""
	}
	file := ".github/workflows/" + wf
	if _, ok := s.files[prefix+s.defaultBranch(owner, repo)+":"+file]; !ok {
		return http.StatusNotFound, "Not Found"
	}
	// GitHub takes a branch or a tag, by name or whole (refs/heads/main);
	// the fake's files are by branch.
	data, ok := s.files[prefix+strings.TrimPrefix(ref, "refs/heads/")+":"+file]
	if !ok {
		return http.StatusUnprocessableEntity, fmt.Sprintf("No ref found for: %s", ref)
	}
	var doc struct {
		On map[string]*struct {
			Inputs map[string]struct {
				Required bool    `yaml:"required"`
				Default  *string `yaml:"default"`
			} `yaml:"inputs"`
		} `yaml:"on"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return http.StatusUnprocessableEntity, fmt.Sprintf("Invalid workflow file %s at %s: %v", file, ref, err)
	}
	trigger, ok := doc.On["workflow_dispatch"]
	if !ok {
		return http.StatusUnprocessableEntity, "Workflow does not have 'workflow_dispatch' trigger"
	}
	var unexpected []string
	for name := range inputs {
		if trigger == nil || !hasKey(trigger.Inputs, name) {
			unexpected = append(unexpected, strconv.Quote(name))
		}
	}
	if len(unexpected) > 0 {
		slices.Sort(unexpected)
		return http.StatusUnprocessableEntity, "Unexpected inputs provided: [" + strings.Join(unexpected, ", ") + "]"
	}
	if trigger != nil {
		for name, in := range trigger.Inputs {
			if _, sent := inputs[name]; in.Required && in.Default == nil && !sent {
				return http.StatusUnprocessableEntity, fmt.Sprintf("Required input '%s' not provided", name)
			}
		}
	}
	return 0, ""
}

func hasKey[V any](m map[string]V, k string) bool { _, ok := m[k]; return ok }

func orOctocat(login string) string {
	if login == "" {
		return "octocat"
	}
	return login
}
