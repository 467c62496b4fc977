package githubtest

import (
	"bytes"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
)

func loadedSpec(t *testing.T) *spec {
	t.Helper()
	sp, reason, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	if sp == nil {
		t.Skip(reason)
	}
	return sp
}

func TestValidateAgainstGitHubDescription(t *testing.T) {
	t.Parallel()
	sp := loadedSpec(t)
	t.Logf("GitHub's REST description loaded in %v (%d paths)", sp.loadTime, sp.doc.Paths.Len())
	tests := map[string]struct {
		method, path, body string
		want               string // substring of a problem; "" means valid
	}{
		"create check run in progress": {"POST", "/repos/o/r/check-runs", `{"name":"planwarden","head_sha":"abc","status":"in_progress","output":{"title":"t","summary":"s"}}`, ""},
		"complete check run":           {"PATCH", "/repos/o/r/check-runs/5", `{"status":"completed","conclusion":"neutral","completed_at":"2026-12-02T11:00:00Z","output":{"title":"t","summary":"s","annotations":[{"path":"main.tf","start_line":1,"end_line":1,"annotation_level":"warning","message":"m"}]}}`, ""},
		"check run without head_sha":   {"POST", "/repos/o/r/check-runs", `{"name":"planwarden"}`, `property "head_sha" is missing`},
		"conclusion maybe":             {"PATCH", "/repos/o/r/check-runs/5", `{"conclusion":"maybe"}`, `"/conclusion": value is not one of the allowed values`},
		"completed_at not a time":      {"PATCH", "/repos/o/r/check-runs/5", `{"conclusion":"success","completed_at":"yesterday"}`, `"/completed_at": string doesn't match the format "date-time"`},
		"name is not a string":         {"POST", "/repos/o/r/check-runs", `{"name":5,"head_sha":"abc"}`, `"/name": value must be a string`},
		"output without summary":       {"PATCH", "/repos/o/r/check-runs/5", `{"output":{"title":"t"}}`, `property "summary" is missing`},
		"annotation level unknown":     {"PATCH", "/repos/o/r/check-runs/5", `{"output":{"title":"t","summary":"s","annotations":[{"path":"a","start_line":1,"end_line":1,"annotation_level":"error","message":"m"}]}}`, `annotation_level": value is not one of`},
		"reaction not in the list":     {"POST", "/repos/o/r/issues/comments/9/reactions", `{"content":"thumbsup"}`, "value is not one of"},
		"dispatch without ref":         {"POST", "/repos/o/r/actions/workflows/plan.yml/dispatches", `{"inputs":{"pr":"1"}}`, `property "ref" is missing`},
		"comment body is required":     {"POST", "/repos/o/r/issues/3/comments", `{}`, `property "body" is missing`},
		"body is not JSON":             {"POST", "/repos/o/r/issues/3/comments", `{"body":`, "request body has an error"},
		"no body where one is needed":  {"POST", "/repos/o/r/issues/3/comments", ``, "request body has an error: value is required"},
		"contents path with slashes":   {"GET", "/repos/o/r/contents/.github/planwarden.yml", ``, ""},
		"artifact zip":                 {"GET", "/repos/o/r/actions/artifacts/7/zip", ``, ""},
		"check run id not a number":    {"PATCH", "/repos/o/r/check-runs/abc", `{"status":"completed"}`, `parameter "check_run_id" in path has an error`},
		"wrong method":                 {"DELETE", "/repos/o/r/check-runs", ``, "does not take DELETE"},
		"no such path":                 {"GET", "/repos/o/r/planwarden", ``, "no path of GitHub's REST API matches /repos/o/r/planwarden"},
		"installation token":           {"POST", "/app/installations/42/access_tokens", ``, ""},
		"installation token, null":     {"POST", "/app/installations/42/access_tokens", `null`, ""},
		"installation token, scoped":   {"POST", "/app/installations/42/access_tokens", `{"repositories":["r"],"permissions":{"checks":"write"}}`, ""},
		"installation token, bad perm": {"POST", "/app/installations/42/access_tokens", `{"permissions":{"checks":"admin"}}`, `"/permissions/checks": value is not one of`},
		"null comment":                 {"POST", "/repos/o/r/issues/3/comments", `null`, "request body has an error"},
		"manifest conversion":          {"POST", "/app-manifests/a1b2c3/conversions", ``, ""},
		"manifest conversion, a body":  {"POST", "/app-manifests/a1b2c3/conversions", `{"code":"a1b2c3"}`, "request body"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			probs := sp.validate(tc.method, tc.path, []byte(tc.body))
			got := strings.Join(probs, "; ")
			if tc.want == "" && got != "" {
				t.Errorf("problems %q, want none", got)
			}
			if tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("problems %q, want one containing %q", got, tc.want)
			}
		})
	}
}

func TestValidateQueryAndHeaders(t *testing.T) {
	t.Parallel()
	sp := loadedSpec(t)
	tests := map[string]struct {
		method, url, contentType, body string
		want                           string
	}{
		"list comments paged":      {"GET", "/repos/o/r/issues/3/comments?per_page=100&page=2", "", "", ""},
		"per_page is not a number": {"GET", "/repos/o/r/issues/3/comments?per_page=lots", "", "", `parameter "per_page" in query has an error`},
		"check runs filter":        {"GET", "/repos/o/r/commits/abc/check-runs?check_name=planwarden&filter=latest&app_id=99", "", "", ""},
		"check runs filter typo":   {"GET", "/repos/o/r/commits/abc/check-runs?filter=newest", "", "", `parameter "filter" in query has an error`},
		"body sent as form":        {"POST", "/repos/o/r/issues/3/comments", "application/x-www-form-urlencoded", "body=hi", "request body has an error"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r, err := http.NewRequest(tc.method, "http://githubtest"+APIPrefix+tc.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.contentType != "" {
				r.Header.Set("Content-Type", tc.contentType)
			}
			got := strings.Join(sp.validateRequest(r, []byte(tc.body)), "; ")
			if tc.want == "" && got != "" {
				t.Errorf("problems %q, want none", got)
			}
			if tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("problems %q, want one containing %q", got, tc.want)
			}
		})
	}
}

// errorsTB records the fake's Errorf calls instead of failing the test.
type errorsTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (e *errorsTB) Errorf(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.errs = append(e.errs, format)
	e.TB.Logf("reported: "+format, args...)
}

// TestServerReportsViolations goes through the fake: a request that does not
// match the description is reported to the test, one that does is not.
func TestServerReportsViolations(t *testing.T) {
	t.Parallel()
	loadedSpec(t)
	tb := &errorsTB{TB: t}
	s := New(tb)
	if !s.Validating() {
		t.Fatal("Validating() = false with the description present")
	}
	post := func(body string) {
		req, err := http.NewRequest("POST", s.APIURL+"repos/o/r/check-runs", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "token ghs_test")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	post(`{"name":"planwarden","head_sha":"abc","status":"in_progress"}`)
	if len(tb.errs) != 0 {
		t.Fatalf("a valid request was reported: %d problems", len(tb.errs))
	}
	post(`{"name":"planwarden","head_sha":"abc","conclusion":"maybe"}`)
	if len(tb.errs) != 1 || !strings.Contains(tb.errs[0], "does not match GitHub's REST description") {
		t.Fatalf("reported %q, want one mismatch", tb.errs)
	}
}

// openapi.json is what specgen makes of GitHub's description as it is in
// the shared corpus: regenerate it (go generate ./app/githubtest) when
// either changes.
func TestEmbeddedSpecIsCurrent(t *testing.T) {
	t.Parallel()
	full, err := os.ReadFile(SourceSpec())
	if os.IsNotExist(err) {
		t.Skipf("GitHub's REST description is not at %s (the shared corpus is absent): openapi.json is not compared", SourceSpec())
	}
	if err != nil {
		t.Fatal(err)
	}
	want, err := TrimSpec(full, ServedOperations())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(append(want, '\n'), embeddedSpec) {
		t.Errorf("openapi.json is not what specgen makes of %s: run go generate ./app/githubtest", SourceSpec())
	}
}

// Every operation the fake serves routes in openapi.json, so a route added
// without regenerating it fails here, not as a puzzling validation error.
func TestEmbeddedSpecRoutesEveryServedOperation(t *testing.T) {
	t.Parallel()
	sp := loadedSpec(t)
	for _, op := range ServedOperations() {
		method, path, _ := cut(op)
		path = regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(path, "1")
		req, err := http.NewRequest(method, "http://githubtest"+APIPrefix+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := sp.router.FindRoute(req); err != nil {
			t.Errorf("%s: %v (run go generate ./app/githubtest)", op, err)
		}
	}
	if n := sp.doc.Paths.Len(); n > len(ServedOperations()) {
		t.Errorf("openapi.json has %d paths for %d served operations: it keeps more than the fake serves", n, len(ServedOperations()))
	}
}
