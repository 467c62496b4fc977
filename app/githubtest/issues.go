package githubtest

import (
	"fmt"
	"net/http"
	"strconv"
)

// Issue is an issue on the fake (the drift review's): numbered apart from
// the pull requests the tests add.
type Issue struct {
	Owner, Repo string
	Number      int
	Title, Body string
	State       string // open, closed
	User        string
	// Edits counts the PATCHes it got.
	Edits int
}

// AddIssue adds an issue (open unless State says otherwise, by User or
// octocat) and returns its number.
func (s *Server) AddIssue(is Issue) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if is.State == "" {
		is.State = "open"
	}
	if is.User == "" {
		is.User = "octocat"
	}
	is.Number = int(s.id())
	s.issues = append(s.issues, &is)
	return is.Number
}

// Issues returns copies of a repository's issues, oldest first.
func (s *Server) Issues(owner, repo string) []Issue {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Issue
	for _, is := range s.issues {
		if is.Owner == owner && is.Repo == repo {
			out = append(out, *is)
		}
	}
	return out
}

func issueJSON(s *Server, is *Issue) map[string]any {
	return map[string]any{
		"id": is.Number, "node_id": fmt.Sprintf("I_%d", is.Number), "number": is.Number, "title": is.Title, "body": is.Body,
		"state": is.State, "user": map[string]any{"login": is.User},
		"url": fmt.Sprintf("%s/repos/%s/%s/issues/%d", s.APIURL, is.Owner, is.Repo, is.Number),
	}
}

// listIssues lists issues newest first, filtered by state (default open)
// and creator, one page (per_page up to 100) with GitHub's next link.
func (s *Server) listIssues(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	var all []*Issue
	for i := len(s.issues) - 1; i >= 0; i-- {
		is := s.issues[i]
		if is.Owner != r.PathValue("owner") || is.Repo != r.PathValue("repo") ||
			state != "all" && is.State != state || q.Get("creator") != "" && is.User != q.Get("creator") {
			continue
		}
		all = append(all, is)
	}
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 || per > 100 {
		per = 30
	}
	page := max(1, atoi(q.Get("page")))
	lo, hi := min((page-1)*per, len(all)), min(page*per, len(all))
	if hi < len(all) {
		u := *r.URL
		qq := u.Query()
		qq.Set("page", strconv.Itoa(page+1))
		u.RawQuery = qq.Encode()
		w.Header().Set("Link", fmt.Sprintf(`<%s%s>; rel="next"`, s.URL, u.RequestURI()))
	}
	out := []any{}
	for _, is := range all[lo:hi] {
		out = append(out, issueJSON(s, is))
	}
	writeJSON(w, http.StatusOK, out)
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

type issueIn struct {
	Title *string `json:"title"`
	Body  *string `json:"body"`
	State *string `json:"state"`
}

// createIssue opens an issue as the bot.
func (s *Server) createIssue(w http.ResponseWriter, r *http.Request) {
	var in issueIn
	if err := decode(r, &in); err != nil || in.Title == nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"message": "Validation Failed"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	is := &Issue{Owner: r.PathValue("owner"), Repo: r.PathValue("repo"), Number: int(s.id()), Title: *in.Title, State: "open", User: BotLogin}
	if in.Body != nil {
		is.Body = *in.Body
	}
	s.issues = append(s.issues, is)
	writeJSON(w, http.StatusCreated, issueJSON(s, is))
}

// editIssue sets what the request names of an issue.
func (s *Server) editIssue(w http.ResponseWriter, r *http.Request) {
	var in issueIn
	if err := decode(r, &in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := atoi(r.PathValue("n"))
	for _, is := range s.issues {
		if is.Owner != r.PathValue("owner") || is.Repo != r.PathValue("repo") || is.Number != n {
			continue
		}
		if in.Title != nil {
			is.Title = *in.Title
		}
		if in.Body != nil {
			is.Body = *in.Body
		}
		if in.State != nil {
			is.State = *in.State
		}
		is.Edits++
		writeJSON(w, http.StatusOK, issueJSON(s, is))
		return
	}
	notFound(w)
}
