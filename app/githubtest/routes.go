package githubtest

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	api := func(pattern string, h http.HandlerFunc) {
		s.served = append(s.served, pattern)
		method, path, _ := cut(pattern)
		mux.HandleFunc(method+" "+APIPrefix+path, h)
	}
	api("POST /app/installations/{id}/access_tokens", s.accessToken)
	api("GET /app", s.getApp)
	api("GET /repos/{owner}/{repo}/pulls/{n}", s.getPR)
	api("GET /repos/{owner}/{repo}/pulls", s.listPRs)
	api("GET /app/installations", s.listInstallations)
	api("GET /installation/repositories", s.listInstallationRepos)
	api("GET /repos/{owner}/{repo}/pulls/{n}/files", s.prFiles)
	api("GET /repos/{owner}/{repo}/commits/{sha}/pulls", s.prsForCommit)
	api("GET /repos/{owner}/{repo}/issues/{n}/comments", s.listComments)
	api("GET /repos/{owner}/{repo}/issues/{n}/events", s.listIssueEvents)
	api("POST /repos/{owner}/{repo}/issues/{n}/comments", s.createComment)
	api("PATCH /repos/{owner}/{repo}/issues/comments/{id}", s.editComment)
	api("POST /repos/{owner}/{repo}/issues/comments/{id}/reactions", s.react)
	api("POST /repos/{owner}/{repo}/check-runs", s.createCheck)
	api("PATCH /repos/{owner}/{repo}/check-runs/{id}", s.updateCheck)
	api("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", s.listChecks)
	api("GET /repos/{owner}/{repo}/actions/runs/{id}", s.getRun)
	api("GET /repos/{owner}/{repo}/actions/runs/{id}/artifacts", s.listArtifacts)
	api("GET /repos/{owner}/{repo}/actions/artifacts/{id}/zip", s.artifactRedirect)
	api("GET /repos/{owner}/{repo}/contents/{path...}", s.getContents)
	api("GET /repos/{owner}/{repo}/collaborators/{user}/permission", s.permission)
	api("POST /repos/{owner}/{repo}/actions/workflows/{wf}/dispatches", s.dispatch)
	api("GET /orgs/{org}/teams/{slug}/memberships/{user}", s.teamMembership)
	api("GET /repos/{owner}/{repo}", s.getRepo)
	api("GET /repos/{owner}/{repo}/actions/workflows/{wf}/runs", s.listWorkflowRuns)
	api("POST /app-manifests/{code}/conversions", s.convertManifest)
	api("GET /user", s.getUser)
	api("GET /repos/{owner}/{repo}/issues", s.listIssues)
	api("POST /repos/{owner}/{repo}/issues", s.createIssue)
	api("PATCH /repos/{owner}/{repo}/issues/{n}", s.editIssue)
	mux.HandleFunc("POST "+GraphQLPath, s.serveGraphQL)
	mux.HandleFunc("GET /_blob/{id}", s.blob)
	return s.middleware(mux)
}

// ServedOperations are the REST operations the fake serves, as
// "METHOD /path/{param}" below APIPrefix, in the order routes names them.
func ServedOperations() []string {
	s := &Server{}
	s.routes()
	return s.served
}

func cut(pattern string) (string, string, bool) {
	for i := range pattern {
		if pattern[i] == ' ' {
			return pattern[:i], pattern[i+1:], true
		}
	}
	return "", pattern, false
}

func (s *Server) accessToken(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.tokens++
	n := s.tokens
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{
		"token": fmt.Sprintf("ghs_fake%d", n), "expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339),
	})
}

// BotLogin is the fake App's account; comments the bot creates carry it.
// AppID is the fake App's id: configure the bot with it.
const (
	BotLogin = "planwarden[bot]"
	AppID    = 99
)

func (s *Server) getApp(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"id": AppID, "slug": "planwarden", "name": "planwarden"})
}

func prJSON(p *PR) map[string]any {
	labels := []any{}
	for _, l := range p.Labels {
		labels = append(labels, map[string]any{"name": l})
	}
	out := map[string]any{
		"number": p.Number, "state": p.State, "labels": labels, "user": map[string]any{"login": p.Author},
		"changed_files": len(p.Files),
		"head":          map[string]any{"sha": p.HeadSHA, "ref": p.HeadRef, "repo": map[string]any{"full_name": p.HeadRepo}},
		"base":          map[string]any{"ref": p.BaseRef, "repo": map[string]any{"full_name": p.Owner + "/" + p.Repo}},
	}
	if p.MergeCommitSHA != "" {
		out["merge_commit_sha"], out["merged_at"], out["state"] = p.MergeCommitSHA, "2026-12-01T12:00:00Z", "closed"
	}
	return out
}

func (s *Server) getPR(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.prs[key(r.PathValue("owner"), r.PathValue("repo"), r.PathValue("n"))]
	if !ok {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, prJSON(p))
}

// maxPRFiles is how many files GitHub lists for one pull request.
const maxPRFiles = 3000

func (s *Server) prFiles(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.prs[key(r.PathValue("owner"), r.PathValue("repo"), r.PathValue("n"))]
	if !ok {
		notFound(w)
		return
	}
	all := p.Files[:min(len(p.Files), maxPRFiles)]
	lo, hi := s.page(w, r, len(all))
	out := []any{}
	for _, f := range all[lo:hi] {
		st := f.Status
		if st == "" {
			st = "modified"
			if f.PreviousFilename != "" {
				st = "renamed"
			}
		}
		sha := f.SHA
		if sha == "" {
			sha = "0000000000000000000000000000000000000000"
		}
		m := map[string]any{"filename": f.Filename, "status": st, "sha": sha}
		if f.PreviousFilename != "" {
			m["previous_filename"] = f.PreviousFilename
		}
		out = append(out, m)
	}
	writeJSON(w, http.StatusOK, out)
}

// page cuts a listing of n items to the request's page (per_page at most
// 100, default 30) and sets the Link header to the next page, as GitHub
// does.
func (s *Server) page(w http.ResponseWriter, r *http.Request, n int) (lo, hi int) {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 || per > 100 {
		per = 30
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	lo, hi = min((page-1)*per, n), min(page*per, n)
	if hi < n {
		u := *r.URL
		q := u.Query()
		q.Set("page", strconv.Itoa(page+1))
		u.RawQuery = q.Encode()
		w.Header().Set("Link", fmt.Sprintf(`<%s%s>; rel="next"`, s.URL, u.RequestURI()))
	}
	return lo, hi
}

func (s *Server) prsForCommit(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []any{}
	for _, p := range s.prs {
		if p.Owner == r.PathValue("owner") && p.Repo == r.PathValue("repo") && (p.HeadSHA == r.PathValue("sha") || p.MergeCommitSHA != "" && p.MergeCommitSHA == r.PathValue("sha")) {
			out = append(out, prJSON(p))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func commentJSON(c *Comment) map[string]any {
	return map[string]any{"id": c.ID, "node_id": c.NodeID, "body": c.Body, "user": map[string]any{"login": c.User, "type": userType(c.User)}}
}

// listIssueEvents lists a pull request's label events, oldest first, a
// page at a time with GitHub's next and last links.
func (s *Server) listIssueEvents(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.prs[key(r.PathValue("owner"), r.PathValue("repo"), r.PathValue("n"))]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
		return
	}
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 || per > 100 {
		per = 30
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	all := p.events
	last := max(1, (len(all)+per-1)/per)
	lo, hi := min((page-1)*per, len(all)), min(page*per, len(all))
	link := func(page int, rel string) string {
		u := *r.URL
		q := u.Query()
		q.Set("page", strconv.Itoa(page))
		u.RawQuery = q.Encode()
		return fmt.Sprintf(`<%s%s>; rel=%q`, s.URL, u.RequestURI(), rel)
	}
	if page < last {
		w.Header().Set("Link", link(page+1, "next")+", "+link(last, "last"))
	}
	out := []any{}
	for _, e := range all[lo:hi] {
		out = append(out, map[string]any{
			"id": e.ID, "node_id": fmt.Sprintf("LE_%d", e.ID), "url": fmt.Sprintf("%s/repos/%s/%s/issues/events/%d", s.APIURL, p.Owner, p.Repo, e.ID),
			"actor": map[string]any{"login": e.Actor, "id": 1, "type": actorType(e.Actor)}, "event": e.Event,
			"commit_id": nil, "commit_url": nil, "created_at": e.At.Format(time.RFC3339),
			"label": map[string]any{"name": e.Label, "color": "ededed"},
		})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, _ := strconv.Atoi(r.PathValue("n"))
	var all []*Comment
	for _, c := range s.comments {
		if c.Owner == r.PathValue("owner") && c.Repo == r.PathValue("repo") && c.PR == n {
			all = append(all, c)
		}
	}
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 || per > 100 {
		per = 30
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	lo, hi := min((page-1)*per, len(all)), min(page*per, len(all))
	if hi < len(all) {
		u := *r.URL
		q := u.Query()
		q.Set("page", strconv.Itoa(page+1))
		u.RawQuery = q.Encode()
		w.Header().Set("Link", fmt.Sprintf(`<%s%s>; rel="next"`, s.URL, u.RequestURI()))
	}
	out := []any{}
	for _, c := range all[lo:hi] {
		out = append(out, commentJSON(c))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) createComment(w http.ResponseWriter, r *http.Request) {
	var in struct{ Body string }
	if err := decode(r, &in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n, _ := strconv.Atoi(r.PathValue("n"))
	if _, ok := s.prs[key(r.PathValue("owner"), r.PathValue("repo"), n)]; !ok {
		notFound(w)
		return
	}
	c := s.newComment(r.PathValue("owner"), r.PathValue("repo"), n, s.actorLocked(r), in.Body)
	writeJSON(w, http.StatusCreated, commentJSON(c))
}

func (s *Server) editComment(w http.ResponseWriter, r *http.Request) {
	var in struct{ Body string }
	if err := decode(r, &in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.comments {
		if c.ID == pathInt(r, "id") && c.Owner == r.PathValue("owner") && c.Repo == r.PathValue("repo") {
			c.Body = in.Body
			c.Edits++
			writeJSON(w, http.StatusOK, commentJSON(c))
			return
		}
	}
	notFound(w)
}

func (s *Server) react(w http.ResponseWriter, r *http.Request) {
	var in struct{ Content string }
	if err := decode(r, &in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reactions = append(s.reactions, Reaction{CommentID: pathInt(r, "id"), Content: in.Content})
	writeJSON(w, http.StatusCreated, map[string]any{"id": s.id(), "content": in.Content})
}

type checkIn struct {
	Name       *string `json:"name"`
	HeadSHA    string  `json:"head_sha"`
	Status     *string `json:"status"`
	Conclusion *string `json:"conclusion"`
	ExternalID *string `json:"external_id"`
	Output     *struct {
		Title       string `json:"title"`
		Summary     string `json:"summary"`
		Text        string `json:"text"`
		Annotations []any  `json:"annotations"`
	} `json:"output"`
}

func (c *CheckRun) apply(in checkIn) {
	if in.Name != nil {
		c.Name = *in.Name
	}
	if in.Status != nil {
		c.Status = *in.Status
	}
	if in.Conclusion != nil {
		c.Conclusion, c.Status = *in.Conclusion, "completed"
	}
	if in.ExternalID != nil {
		c.ExternalID = *in.ExternalID
	}
	if in.Output != nil {
		c.Title, c.Summary, c.Text = in.Output.Title, in.Output.Summary, in.Output.Text
		c.Annotations += len(in.Output.Annotations)
	}
}

func (s *Server) checkJSON(c *CheckRun) map[string]any {
	return map[string]any{
		"id": c.ID, "name": c.Name, "head_sha": c.HeadSHA, "status": c.Status, "conclusion": c.Conclusion,
		"external_id": c.ExternalID, "html_url": fmt.Sprintf("%s/%s/%s/runs/%d", s.URL, c.Owner, c.Repo, c.ID),
		"output": map[string]any{"title": c.Title, "summary": c.Summary, "text": c.Text},
	}
}

func (s *Server) createCheck(w http.ResponseWriter, r *http.Request) {
	var in checkIn
	if err := decode(r, &in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &CheckRun{ID: s.id(), Owner: r.PathValue("owner"), Repo: r.PathValue("repo"), HeadSHA: in.HeadSHA, Status: "queued"}
	c.apply(in)
	s.checks = append(s.checks, c)
	writeJSON(w, http.StatusCreated, s.checkJSON(c))
}

func (s *Server) updateCheck(w http.ResponseWriter, r *http.Request) {
	var in checkIn
	if err := decode(r, &in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.checks {
		if c.ID == pathInt(r, "id") && c.Owner == r.PathValue("owner") {
			c.apply(in)
			c.Updates++
			writeJSON(w, http.StatusOK, s.checkJSON(c))
			return
		}
	}
	notFound(w)
}

func (s *Server) listChecks(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name := r.URL.Query().Get("check_name")
	out := []any{}
	app := r.URL.Query().Get("app_id")
	for i := len(s.checks) - 1; i >= 0; i-- { // newest first, as GitHub lists them
		c := s.checks[i]
		made := AppID
		if c.AppID != 0 {
			made = c.AppID
		}
		if app != "" && app != strconv.Itoa(made) {
			continue
		}
		if c.Owner == r.PathValue("owner") && c.Repo == r.PathValue("repo") && c.HeadSHA == r.PathValue("ref") && (name == "" || c.Name == name) {
			out = append(out, s.checkJSON(c))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(out), "check_runs": out})
}

func (s *Server) getRun(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	run, ok := s.runs[key(r.PathValue("owner"), r.PathValue("repo"), r.PathValue("id"))]
	if !ok {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, s.runJSON(run))
}

func (s *Server) listArtifacts(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []any{}
	for id := int64(0); id <= s.nextID; id++ { // in creation order
		a, ok := s.artifacts[id]
		if ok && a.owner == r.PathValue("owner") && a.repo == r.PathValue("repo") && a.runID == pathInt(r, "id") {
			out = append(out, map[string]any{"id": a.id, "name": a.name, "size_in_bytes": len(a.zip), "expired": false})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(out), "artifacts": out})
}

func (s *Server) artifactRedirect(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	a, ok := s.artifacts[pathInt(r, "id")]
	s.mu.Unlock()
	if !ok || a.owner != r.PathValue("owner") {
		notFound(w)
		return
	}
	w.Header().Set("Location", fmt.Sprintf("%s/_blob/%d?sig=signed-url-secret", s.URL, a.id))
	w.WriteHeader(http.StatusFound)
}

func (s *Server) blob(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if r.Header.Get("Authorization") != "" {
		s.blobAuth++
	}
	a, ok := s.artifacts[pathInt(r, "id")]
	s.mu.Unlock()
	if !ok || r.URL.Query().Get("sig") == "" {
		http.Error(w, "AuthenticationFailed", http.StatusForbidden)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Length", strconv.Itoa(len(a.zip))) // as Azure's blob store declares it
	w.Write(a.zip)
}

func (s *Server) getContents(w http.ResponseWriter, r *http.Request) {
	ref := r.URL.Query().Get("ref")
	if ref == "" {
		ref = "main"
	}
	s.mu.Lock()
	data, ok := s.files[r.PathValue("owner")+"/"+r.PathValue("repo")+"@"+ref+":"+r.PathValue("path")]
	s.mu.Unlock()
	if !ok {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"type": "file", "encoding": "base64", "content": b64(data),
		"path": r.PathValue("path"), "name": r.PathValue("path"), "size": len(data)})
}

func (s *Server) permission(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	perm, ok := s.perms[r.PathValue("owner")+"/"+r.PathValue("repo")+":"+r.PathValue("user")]
	s.mu.Unlock()
	if !ok {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"permission": perm, "user": map[string]any{"login": r.PathValue("user")}})
}

func (s *Server) dispatch(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Ref    string            `json:"ref"`
		Inputs map[string]string `json:"inputs"`
	}
	if err := decode(r, &in); err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"message": "inputs must be strings"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if status, msg := s.dispatchProblem(r.PathValue("owner"), r.PathValue("repo"), r.PathValue("wf"), in.Ref, in.Inputs); status != 0 {
		writeJSON(w, status, map[string]string{"message": msg, "documentation_url": "https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event"})
		return
	}
	s.dispatches = append(s.dispatches, Dispatch{Owner: r.PathValue("owner"), Repo: r.PathValue("repo"), Workflow: r.PathValue("wf"), Ref: in.Ref, Inputs: in.Inputs})
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) teamMembership(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	state, ok := s.teams[strings.ToLower(r.PathValue("org")+"/"+r.PathValue("slug"))+":"+strings.ToLower(r.PathValue("user"))]
	s.mu.Unlock()
	if !ok {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"url":   fmt.Sprintf("%s%s/teams/1/memberships/%s", s.URL, APIPrefix, r.PathValue("user")),
		"role":  "member",
		"state": state,
	})
}

// actorType is GitHub's type of an account: an App's login ends with
// [bot].
func actorType(login string) string {
	if strings.HasSuffix(login, "[bot]") {
		return "Bot"
	}
	return "User"
}

// InstallationID is the one installation the fake App lists.
const InstallationID = 4242

func (s *Server) listInstallations(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, []any{map[string]any{"id": InstallationID, "app_id": AppID}})
}

// listInstallationRepos lists every repository the fake holds a pull
// request of, in name order.
func (s *Server) listInstallationRepos(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	seen := map[string]bool{}
	var repos []any
	var names []string
	for _, p := range s.prs {
		if n := p.Owner + "/" + p.Repo; !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	s.mu.Unlock()
	slices.Sort(names)
	for _, n := range names {
		o, name, _ := strings.Cut(n, "/")
		repos = append(repos, map[string]any{"id": 1, "name": name, "full_name": n, "owner": map[string]any{"login": o}})
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(repos), "repositories": repos})
}

// listPRs lists a repository's pull requests of the state asked (default
// open), by number.
func (s *Server) listPRs(w http.ResponseWriter, r *http.Request) {
	state := r.URL.Query().Get("state")
	if state == "" {
		state = "open"
	}
	s.mu.Lock()
	var prs []*PR
	for _, p := range s.prs {
		if p.Owner == r.PathValue("owner") && p.Repo == r.PathValue("repo") && (state == "all" || p.State == state) {
			prs = append(prs, p)
		}
	}
	slices.SortFunc(prs, func(a, b *PR) int { return a.Number - b.Number })
	lo, hi := s.page(w, r, len(prs))
	out := []any{}
	for _, p := range prs[lo:hi] {
		out = append(out, prJSON(p))
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}
