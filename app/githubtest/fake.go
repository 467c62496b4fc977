// Package githubtest is a fake GitHub for tests: an httptest server that
// serves the REST endpoints planwarden uses, under /api/v3/ as GitHub
// Enterprise Server does, keeps their state (PRs and their labels,
// comments, check runs, workflow runs, artifacts, files, permissions, team
// memberships), records every call, and
// checks each request against GitHub's REST description (openapi.json:
// the operations it serves, cut from GitHub's published description by
// `go generate`).
package githubtest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// APIPrefix is where the REST API lives on the fake.
const APIPrefix = "/api/v3"

// Server is the fake GitHub.
type Server struct {
	// URL is the server root; APIURL the REST base to configure clients with.
	URL, APIURL string

	t      testing.TB
	srv    *httptest.Server
	spec   *spec
	served []string // what routes serves, as "METHOD /path"

	mu         sync.Mutex
	calls      []Call
	faults     []*Fault
	nextID     int64
	tokens     int
	blobAuth   int
	prs        map[string]*PR
	comments   []*Comment
	checks     []*CheckRun
	runs       map[string]*Run
	artifacts  map[int64]*artifact
	files      map[string][]byte
	perms      map[string]string
	teams      map[string]string // org/slug:user -> membership state
	dispatches []Dispatch
	reactions  []Reaction
	gates      []*Gate
	defaults   map[string]string // owner/repo -> default branch (main when unset)
	graphql    []GraphQLCall
	manifests  map[string]*ManifestApp // manifest flow codes
	tokenUsers map[string]string       // token -> the login it acts as (TokenUser)
	issues     []*Issue                // issues.go
}

// Gate holds matching requests until Release; Arrived is closed when the
// first one arrives.
type Gate struct {
	Method, Path string
	Arrived      chan struct{}
	release      chan struct{}
	once         sync.Once
	arrivedOnce  sync.Once
}

// Release lets held and later requests through.
func (g *Gate) Release() { g.once.Do(func() { close(g.release) }) }

// Hold installs a gate for requests of method whose path contains path.
func (s *Server) Hold(method, path string) *Gate {
	g := &Gate{Method: method, Path: path, Arrived: make(chan struct{}), release: make(chan struct{})}
	s.mu.Lock()
	s.gates = append(s.gates, g)
	s.mu.Unlock()
	s.t.Cleanup(g.Release)
	return g
}

// Call is one request the bot made.
type Call struct {
	Method, Path string
	Query        string
	Body         []byte
	// Auth is the Authorization scheme: "token" (installation), "bearer"
	// (the App's JWT) or "" (none).
	Auth   string
	Status int
}

// PR is a pull request on the fake.
type PR struct {
	Owner, Repo string
	Number      int
	State       string // default open
	HeadSHA     string
	HeadRef     string
	HeadRepo    string // default owner/repo
	BaseRef     string // default main
	Labels      []string
	// Author is the login of who opened it (default "octocat").
	Author string
	// Files are the files it changes, as GitHub's "list pull request
	// files" returns them (at most 3,000); nil is one Terraform file,
	// infra/main.tf (a pull request changes something).
	Files []PRFile
	// MergeCommitSHA, when set, makes it merged: the commit its merge made
	// on the base branch (GitHub's merge_commit_sha), which lists it
	// among its pull requests.
	MergeCommitSHA string

	events []event // its issue events, oldest first (labeled, unlabeled)
}

// event is an issue event of the fake: a label added or removed.
type event struct {
	ID    int64
	Event string // labeled, unlabeled
	Actor string
	Label string
	At    time.Time
}

// PRFile is one changed file of a pull request; a rename names the
// previous path too.
type PRFile struct {
	Filename, PreviousFilename string
	Status                     string // default modified (renamed with PreviousFilename)
	// SHA is the file's blob SHA at the head (default forty zeros).
	SHA string
}

// Changed makes PRFiles of paths.
func Changed(paths ...string) []PRFile {
	out := make([]PRFile, 0, len(paths))
	for _, p := range paths {
		out = append(out, PRFile{Filename: p})
	}
	return out
}

// Comment is an issue comment.
type Comment struct {
	ID          int64
	Owner, Repo string
	PR          int
	Body        string
	User        string
	Edits       int
	// NodeID is the comment's GraphQL id; Minimized and MinimizedReason
	// what minimizeComment made of it (the classifier as sent, OUTDATED).
	NodeID          string
	Minimized       bool
	MinimizedReason string
}

// CheckRun is a check run as the fake holds it.
type CheckRun struct {
	ID          int64
	Owner, Repo string
	Name        string
	HeadSHA     string
	Status      string
	Conclusion  string
	ExternalID  string
	Title       string
	Summary     string
	Text        string
	Annotations int
	Updates     int
	// AppID is the app that made it: 0 for the fake App (AppID), another
	// for a check run some other app (a workflow's) made.
	AppID int
}

// Run is a workflow run.
type Run struct {
	Owner, Repo string
	ID          int64
	Name, Path  string
	HeadSHA     string
	HeadBranch  string
	Conclusion  string
	PRs         []int
	StartedAt   time.Time
	// DisplayTitle is the run's title: the workflow's run-name when it
	// sets one (GitHub's display_title).
	DisplayTitle string
	// Event triggered it (default pull_request); Status is its status
	// (default completed); Attempt is its run_attempt (default 1);
	// HeadRepo is the repository of its head commit (default owner/repo;
	// a fork's run names the fork).
	Event    string
	Status   string
	Attempt  int
	HeadRepo string
	// Actor is who triggered it (GitHub's triggering_actor; default
	// octocat).
	Actor string
}

type artifact struct {
	owner, repo string
	runID, id   int64
	name        string
	zip         []byte
}

// Dispatch is a workflow_dispatch the bot asked for.
type Dispatch struct {
	Owner, Repo, Workflow, Ref string
	Inputs                     map[string]string
}

// Reaction is a reaction the bot added to a comment.
type Reaction struct {
	CommentID int64
	Content   string
}

// Fault makes matching requests fail Times times before they are served.
type Fault struct {
	Method string // "" any
	Path   string // substring of the path
	Times  int
	Status int
	Header http.Header
	Body   string
	// Applied serves the request first (it takes effect), then answers
	// with the fault: a 502 after the comment was made.
	Applied bool
	hits    int
}

// New starts a fake GitHub; it is closed when the test ends. Requests that
// do not match GitHub's REST description fail the test.
func New(t testing.TB) *Server {
	t.Helper()
	sp, reason, err := loadSpec()
	if err != nil {
		t.Fatalf("githubtest: %v", err)
	}
	if sp == nil {
		t.Logf("githubtest: %s", reason)
	}
	s := &Server{t: t, spec: sp, nextID: 1000, prs: map[string]*PR{}, runs: map[string]*Run{},
		artifacts: map[int64]*artifact{}, files: map[string][]byte{}, perms: map[string]string{}, teams: map[string]string{}}
	s.srv = httptest.NewServer(s.routes())
	s.URL, s.APIURL = s.srv.URL, s.srv.URL+APIPrefix+"/"
	t.Cleanup(s.srv.Close)
	return s
}

// Validating reports whether requests are checked against the description.
func (s *Server) Validating() bool { return s.spec != nil }

func (s *Server) id() int64 { s.nextID++; return s.nextID }

func key(owner, repo string, n any) string { return fmt.Sprintf("%s/%s#%v", owner, repo, n) }

// AddPR adds or replaces a pull request.
func (s *Server) AddPR(pr PR) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if pr.State == "" {
		pr.State = "open"
	}
	if pr.HeadRepo == "" {
		pr.HeadRepo = pr.Owner + "/" + pr.Repo
	}
	if pr.BaseRef == "" {
		pr.BaseRef = "main"
	}
	if pr.HeadRef == "" {
		pr.HeadRef = fmt.Sprintf("feature-%d", pr.Number)
	}
	if pr.Author == "" {
		pr.Author = "octocat"
	}
	if pr.Files == nil {
		pr.Files = Changed("infra/main.tf")
	}
	s.prs[key(pr.Owner, pr.Repo, pr.Number)] = &pr
}

// AddRun adds a workflow run, or replaces the run of that id (a run that
// moves on from queued to in_progress to completed).
func (s *Server) AddRun(r Run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Event == "" {
		r.Event = "pull_request"
	}
	if r.Status == "" {
		r.Status = "completed"
	}
	if r.Attempt == 0 {
		r.Attempt = 1
	}
	if r.HeadRepo == "" {
		r.HeadRepo = r.Owner + "/" + r.Repo
	}
	s.runs[key(r.Owner, r.Repo, r.ID)] = &r
}

// SetBase retargets a pull request at another base branch, as "Edit" on
// GitHub does.
func (s *Server) SetBase(owner, repo string, pr int, base string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.prs[key(owner, repo, pr)]; ok {
		p.BaseRef = base
	}
}

// AddArtifact attaches an artifact zip to a run and returns its id.
func (s *Server) AddArtifact(owner, repo string, runID int64, name string, zip []byte) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.id()
	s.artifacts[id] = &artifact{owner: owner, repo: repo, runID: runID, id: id, name: name, zip: zip}
	return id
}

// SetFile puts a file in the repo at ref (a branch name).
func (s *Server) SetFile(owner, repo, ref, path string, content []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[owner+"/"+repo+"@"+ref+":"+path] = content
}

// SetPermission sets a user's permission on a repo (admin, write, read, none).
func (s *Server) SetPermission(owner, repo, user, perm string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.perms[owner+"/"+repo+":"+user] = perm
}

// SetTeamMember makes user a member of the team org/slug with state
// (active or pending); GitHub answers 404 for anyone else.
func (s *Server) SetTeamMember(org, slug, user, state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.teams[strings.ToLower(org+"/"+slug)+":"+strings.ToLower(user)] = state
}

// SetLabels replaces a pull request's labels.
func (s *Server) SetLabels(owner, repo string, pr int, labels ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.prs[key(owner, repo, pr)]; ok {
		p.Labels = append([]string(nil), labels...)
	}
}

// Label puts label on a pull request as actor does on GitHub: the label
// and its "labeled" issue event (LabelEvents lists them).
func (s *Server) Label(owner, repo string, pr int, actor, label string) {
	s.labelEvent(owner, repo, pr, actor, label, "labeled")
}

// Unlabel takes label off a pull request as actor does on GitHub.
func (s *Server) Unlabel(owner, repo string, pr int, actor, label string) {
	s.labelEvent(owner, repo, pr, actor, label, "unlabeled")
}

func (s *Server) labelEvent(owner, repo string, pr int, actor, label, kind string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.prs[key(owner, repo, pr)]
	if !ok {
		s.t.Fatalf("githubtest: no pull request %s/%s#%d to label", owner, repo, pr)
	}
	p.Labels = slices.DeleteFunc(p.Labels, func(l string) bool { return strings.EqualFold(l, label) })
	if kind == "labeled" {
		p.Labels = append(p.Labels, label)
	}
	s.nextID++
	p.events = append(p.events, event{ID: s.nextID, Event: kind, Actor: actor, Label: label, At: time.Now().UTC()})
}

// Fail installs a fault.
func (s *Server) Fail(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
}

// Recover removes every fault: GitHub answers again.
func (s *Server) Recover() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// Calls returns every request so far, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// CallCount counts the calls of a method whose path contains path.
func (s *Server) CallCount(method, path string) int {
	n := 0
	for _, c := range s.Calls() {
		if (method == "" || c.Method == method) && strings.Contains(c.Path, path) {
			n++
		}
	}
	return n
}

// Comments returns the comments of a PR, oldest first.
func (s *Server) Comments(owner, repo string, pr int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments {
		if c.Owner == owner && c.Repo == repo && c.PR == pr {
			out = append(out, *c)
		}
	}
	return out
}

// AddComment adds a comment someone else wrote and returns its id.
func (s *Server) AddComment(owner, repo string, pr int, user, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.newComment(owner, repo, pr, user, body)
	return c.ID
}

// CheckRuns returns the check runs on a commit, oldest first.
func (s *Server) CheckRuns(owner, repo, sha string) []CheckRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []CheckRun
	for _, c := range s.checks {
		if c.Owner == owner && c.Repo == repo && c.HeadSHA == sha {
			out = append(out, *c)
		}
	}
	return out
}

// AddCheckRun adds a completed check run as another app or a past
// review made it; an AppID other than the fake App's (0 is the fake App)
// lists it only when a request asks for that app.
func (s *Server) AddCheckRun(c CheckRun) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.ID = s.id()
	if c.Status == "" {
		c.Status = "completed"
	}
	s.checks = append(s.checks, &c)
	return c.ID
}

// Dispatches returns the workflow dispatches so far.
func (s *Server) Dispatches() []Dispatch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Dispatch(nil), s.dispatches...)
}

// Reactions returns the reactions so far.
func (s *Server) Reactions() []Reaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Reaction(nil), s.reactions...)
}

// TokensIssued counts installation tokens handed out.
func (s *Server) TokensIssued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokens
}

// BlobAuthLeaks counts artifact blob downloads that carried an
// Authorization header (must stay 0).
func (s *Server) BlobAuthLeaks() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.blobAuth
}

// recorder captures the status for the call log.
type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(code int) { r.status = code; r.ResponseWriter.WriteHeader(code) }

func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		auth := strings.ToLower(strings.SplitN(r.Header.Get("Authorization"), " ", 2)[0])
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			s.mu.Lock()
			s.calls = append(s.calls, Call{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: body, Auth: auth, Status: rec.status})
			s.mu.Unlock()
		}()
		if api, ok := strings.CutPrefix(r.URL.Path, APIPrefix); ok {
			if s.spec != nil {
				for _, p := range s.spec.validateRequest(r, body) {
					s.t.Errorf("githubtest: %s %s does not match GitHub's REST description: %s", r.Method, api, p)
				}
			}
			want := "token"
			switch {
			case api == "/app" || strings.HasPrefix(api, "/app/"):
				want = "bearer"
			case strings.HasPrefix(api, "/app-manifests/"):
				want = "" // the manifest flow's code is the credential
			}
			if auth != want {
				s.t.Errorf("githubtest: %s %s with Authorization %q, want %q", r.Method, api, auth, want)
				rec.WriteHeader(http.StatusUnauthorized)
				return
			}
		}
		s.mu.Lock()
		gates := append([]*Gate(nil), s.gates...)
		s.mu.Unlock()
		for _, g := range gates {
			if (g.Method == "" || g.Method == r.Method) && strings.Contains(r.URL.Path, g.Path) {
				g.arrivedOnce.Do(func() { close(g.Arrived) })
				select {
				case <-g.release:
				case <-r.Context().Done():
				}
			}
		}
		if f := s.fault(r); f != nil {
			if f.Applied {
				next.ServeHTTP(httptest.NewRecorder(), r)
			}
			for k, v := range f.Header {
				rec.Header()[k] = v
			}
			rec.WriteHeader(f.Status)
			io.WriteString(rec, f.Body)
			return
		}
		next.ServeHTTP(rec, r)
	})
}

func (s *Server) fault(r *http.Request) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if (f.Method == "" || f.Method == r.Method) && strings.Contains(r.URL.Path, f.Path) && f.hits < f.Times {
			f.hits++
			return f
		}
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func notFound(w http.ResponseWriter) {
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})
}

func decode(r *http.Request, v any) error { return json.NewDecoder(r.Body).Decode(v) }

func pathInt(r *http.Request, name string) int64 {
	n, _ := strconv.ParseInt(r.PathValue(name), 10, 64)
	return n
}

func b64(data []byte) string { return base64.StdEncoding.EncodeToString(data) }
