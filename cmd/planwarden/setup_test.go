package main

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	ghadapter "github.com/planwarden/planwarden/app/github"
	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/deploy"
)

var (
	formAction    = regexp.MustCompile(`<form action="([^"]*)" method="post">`)
	manifestInput = regexp.MustCompile(`<input type="hidden" name="manifest" value="([^"]*)">`)
)

// startSetup runs setup against the fake GitHub and returns the page's
// base URL and the channel its result arrives on.
func startSetup(t *testing.T, o setupOptions, stdout io.Writer) (string, <-chan error) {
	t.Helper()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { done <- setup(ctx, o, stdout, func(a string) { ready <- a }) }()
	select {
	case a := <-ready:
		return "http://" + a, done
	case err := <-done:
		t.Fatalf("setup stopped: %v", err)
	}
	return "", nil
}

func getPage(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestSetupCreatesTheAppAndServeReadsIt drives the local page as a browser
// would: the page posts the manifest to GitHub with a state; a callback
// with another state is refused and uses nothing; the callback GitHub
// sends (the right state, the code) stores the App for serve, mode 0600,
// and neither the key nor the secret is printed.
func TestSetupCreatesTheAppAndServeReadsIt(t *testing.T) {
	t.Parallel()
	gh := githubtest.New(t)
	made := gh.ManifestCode("c0de1", "planwarden-acme")
	dir := filepath.Join(t.TempDir(), "data")
	o := setupOptions{name: "planwarden-acme", webhookURL: "https://pw.acme.dev/webhook", webURL: "https://github.com",
		apiURL: gh.APIURL, dataDir: dir, addr: "127.0.0.1:0"}
	if err := o.check(); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	base, done := startSetup(t, o, &stdout)

	status, page := getPage(t, base+"/")
	if status != http.StatusOK {
		t.Fatalf("GET / = %d", status)
	}
	act, man := formAction.FindStringSubmatch(page), manifestInput.FindStringSubmatch(page)
	if act == nil || man == nil {
		t.Fatalf("the page has no manifest form:\n%s", page)
	}
	action, err := url.Parse(html.UnescapeString(act[1]))
	if err != nil {
		t.Fatal(err)
	}
	if action.Scheme+"://"+action.Host+action.Path != "https://github.com/settings/apps/new" {
		t.Errorf("the form posts to %s, want GitHub's new-App page", action)
	}
	state := action.Query().Get("state")
	if len(state) < 32 {
		t.Fatalf("state %q: want a long random token", state)
	}
	var manifest, shipped map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(man[1])), &manifest); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	json.Unmarshal(deploy.AppManifest, &shipped)
	if manifest["redirect_url"] != base+"/callback" {
		t.Errorf("redirect_url %v, want %s/callback", manifest["redirect_url"], base)
	}
	if hook, _ := manifest["hook_attributes"].(map[string]any); hook["url"] != "https://pw.acme.dev/webhook" {
		t.Errorf("hook url %v", hook["url"])
	}
	for _, k := range []string{"default_permissions", "default_events"} {
		if !reflect.DeepEqual(manifest[k], shipped[k]) {
			t.Errorf("%s = %v, want the shipped manifest's %v", k, manifest[k], shipped[k])
		}
	}

	// A callback that this page did not start: refused, the code unused.
	for name, q := range map[string]string{
		"another state": "code=c0de1&state=" + strings.Repeat("0", len(state)),
		"no state":      "code=c0de1",
	} {
		if status, body := getPage(t, base+"/callback?"+q); status != http.StatusForbidden || !strings.Contains(body, "state does not match") {
			t.Errorf("%s: %d %q, want 403 naming the state", name, status, body)
		}
	}
	if n := gh.CallCount("POST", "/app-manifests/"); n != 0 {
		t.Fatalf("%d conversions after refused callbacks, want 0", n)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatalf("%s exists after refused callbacks", dir)
	}

	// The honest twin: GitHub's redirect, with the page's state.
	status, body := getPage(t, base+"/callback?code=c0de1&state="+state)
	if status != http.StatusOK || !strings.Contains(body, "https://github.com/apps/planwarden-acme/installations/new") {
		t.Fatalf("callback: %d %s", status, body)
	}
	if err := <-done; err != nil {
		t.Fatalf("setup: %v", err)
	}
	for f, want := range map[string]string{appKeyFile: made.PEM, appSecretFile: made.WebhookSecret} {
		p := filepath.Join(dir, f)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", f, st.Mode().Perm())
		}
		if got, _ := os.ReadFile(p); string(got) != want {
			t.Errorf("%s does not hold what GitHub sent", f)
		}
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("data directory mode %v, want 0700", st.Mode().Perm())
	}
	out := stdout.String() + body
	if strings.Contains(out, made.WebhookSecret) || strings.Contains(out, "PRIVATE KEY") {
		t.Errorf("setup showed a secret:\n%s", out)
	}
	if !strings.Contains(stdout.String(), "planwarden serve") {
		t.Errorf("stdout does not say what comes next:\n%s", stdout.String())
	}

	// serve finds the App in the data directory with no variable set.
	env := map[string]string{"PLANWARDEN_DATA_DIR": dir}
	cfg, err := serveEnv(func(k string) string { return env[k] }, os.ReadFile)
	if err != nil {
		t.Fatalf("serveEnv from the data directory: %v", err)
	}
	if cfg.secrets.AppID != made.ID || string(cfg.secrets.PrivateKeyPEM) != made.PEM || string(cfg.secrets.WebhookSecret) != made.WebhookSecret || cfg.apiURL != gh.APIURL {
		t.Errorf("serve read app %d, api %s; want %d, %s and the stored key and secret", cfg.secrets.AppID, cfg.apiURL, made.ID, gh.APIURL)
	}
	// A variable still wins over its file.
	env["PLANWARDEN_WEBHOOK_SECRET"] = "from-the-environment"
	env["PLANWARDEN_APP_ID"] = "7"
	if cfg, err := serveEnv(func(k string) string { return env[k] }, os.ReadFile); err != nil || string(cfg.secrets.WebhookSecret) != "from-the-environment" || cfg.secrets.AppID != 7 {
		t.Errorf("the variables did not win over the stored files (err %v)", err)
	}
}

// TestSetupStateIsOneTime: once the App came back, the same state takes
// nothing more (a replayed redirect cannot replace what was stored).
func TestSetupStateIsOneTime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f, err := newSetupFlow(setupOptions{name: "planwarden", webhookURL: defaultWebhookURL, webURL: "https://github.com", dataDir: dir}, "127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	converted := 0
	f.convert = func(context.Context, string) (ghadapter.CreatedApp, error) {
		converted++
		return ghadapter.CreatedApp{Slug: "pw", HTMLURL: "https://github.com/apps/pw",
			Secrets: port.Secrets{AppID: 5, PrivateKeyPEM: []byte("-----BEGIN RSA PRIVATE KEY-----\nx\n-----END RSA PRIVATE KEY-----\n"), WebhookSecret: []byte("s")}}, nil
	}
	call := func(host, query string) int {
		r, _ := http.NewRequest("GET", "http://"+host+"/callback?"+query, nil)
		w := &recorder{header: http.Header{}}
		f.ServeHTTP(w, r)
		return w.status
	}
	tests := []struct {
		name, host, query string
		want, converted   int
	}{
		{"a name that resolves to loopback", "rebind.example:1", "code=a&state=" + f.state, http.StatusMisdirectedRequest, 0},
		{"the page's state", "127.0.0.1:1", "code=a&state=" + f.state, http.StatusOK, 1},
		{"the same state again", "127.0.0.1:1", "code=b&state=" + f.state, http.StatusForbidden, 1},
	}
	for _, tc := range tests {
		if got := call(tc.host, tc.query); got != tc.want || converted != tc.converted {
			t.Errorf("%s: status %d, %d conversions; want %d, %d", tc.name, got, converted, tc.want, tc.converted)
		}
	}
}

type recorder struct {
	header http.Header
	status int
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = 200
	}
	return len(b), nil
}
func (r *recorder) WriteHeader(s int) { r.status = s }

// TestSetupPostsToTheRightGitHub: a user's App, an organization's, and
// GitHub Enterprise Server's (whose API is /api/v3 on the same host).
func TestSetupPostsToTheRightGitHub(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		org, web          string
		wantPage, wantAPI string
	}{
		"your account":             {web: "https://github.com", wantPage: "https://github.com/settings/apps/new", wantAPI: "https://api.github.com/"},
		"an organization":          {org: "acme-ml", web: "https://github.com/", wantPage: "https://github.com/organizations/acme-ml/settings/apps/new", wantAPI: "https://api.github.com/"},
		"GitHub Enterprise Server": {org: "ml", web: "https://ghe.acme.dev", wantPage: "https://ghe.acme.dev/organizations/ml/settings/apps/new", wantAPI: "https://ghe.acme.dev/api/v3/"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			o := setupOptions{org: tc.org, name: "planwarden", webhookURL: defaultWebhookURL, webURL: tc.web, dataDir: t.TempDir(), addr: "127.0.0.1:0"}
			if err := o.check(); err != nil {
				t.Fatal(err)
			}
			f, err := newSetupFlow(o, "127.0.0.1:1")
			if err != nil {
				t.Fatal(err)
			}
			if got := f.newAppURL(); got != tc.wantPage+"?state="+f.state {
				t.Errorf("posts to %s, want %s?state=...", got, tc.wantPage)
			}
			if o.apiURL != tc.wantAPI {
				t.Errorf("API %s, want %s", o.apiURL, tc.wantAPI)
			}
		})
	}
}

// TestSetupRefusesBadFlags: each refusal says what to do; nothing listens.
func TestSetupRefusesBadFlags(t *testing.T) {
	t.Parallel()
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, appInfoFile), []byte(`{"id":1}`), 0o600)
	tests := map[string]struct {
		args []string
		want string
	}{
		"a page for the network":     {[]string{"--addr", "0.0.0.0:3000", "--data-dir", t.TempDir()}, "serves loopback only"},
		"an address that is no addr": {[]string{"--addr", "3000", "--data-dir", t.TempDir()}, "want HOST:PORT"},
		"an org that is no login":    {[]string{"--org", "acme/ml", "--data-dir", t.TempDir()}, `--org "acme/ml"`},
		"a stored App":               {[]string{"--data-dir", full, "--addr", "127.0.0.1:0"}, "pass --force to replace it"},
		"a web URL with a path":      {[]string{"--github-url", "https://github.com/settings", "--data-dir", t.TempDir()}, "give GitHub's web address"},
		"an argument":                {[]string{"now"}, `unexpected argument "now"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(append([]string{"setup"}, tc.args...), nil, &stdout, &stderr); code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.want)
			}
		})
	}
}

// TestSetupForLambdaPrintsFileReferencesOnly: the Secrets Manager commands
// read the stored files; neither secret is in what is printed.
func TestSetupForLambdaPrintsFileReferencesOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	app := ghadapter.CreatedApp{Slug: "pw", HTMLURL: "https://github.com/apps/pw",
		Secrets: port.Secrets{AppID: 42, PrivateKeyPEM: []byte("-----BEGIN RSA PRIVATE KEY-----\nS0VZ\n-----END RSA PRIVATE KEY-----\n"), WebhookSecret: []byte("whsec-9f8e7d")}}
	for name, lambda := range map[string]bool{"lambda": true, "serve": false} {
		var out bytes.Buffer
		printCreated(&out, setupOptions{dataDir: dir, webhookURL: defaultWebhookURL, lambda: lambda}, app)
		s := out.String()
		if strings.Contains(s, "whsec-9f8e7d") || strings.Contains(s, "S0VZ") {
			t.Errorf("%s: printed a secret:\n%s", name, s)
		}
		keyRef := "--secret-string file://" + filepath.ToSlash(filepath.Join(dir, appKeyFile))
		secretRef := "--secret-string file://" + filepath.ToSlash(filepath.Join(dir, appSecretFile))
		if got := strings.Contains(s, keyRef) && strings.Contains(s, secretRef) && strings.Contains(s, "GitHubAppId=42"); got != lambda {
			t.Errorf("%s: Secrets Manager commands printed = %v, want %v:\n%s", name, got, lambda, s)
		}
	}
}
