package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	ghadapter "github.com/planwarden/planwarden/app/github"
	"github.com/planwarden/planwarden/deploy"
)

func init() {
	commands["setup"] = command{summary: "create the GitHub App from its manifest in your browser and store its id, key and secret for serve", run: runSetup}
}

const setupUsage = `usage: planwarden setup [--org ORG] [--name NAME] [--webhook-url URL] [--github-url URL]
                        [--data-dir DIR] [--lambda] [--addr 127.0.0.1:PORT] [--force]

Creates planwarden's GitHub App with GitHub's manifest flow, then stores what
serve needs. It serves a page on this machine only (loopback); open it in a
browser signed in to GitHub and press the button. The page posts the App
manifest (deploy/github-app-manifest.json: its permissions and events) to
GitHub, for your account or for --org's; GitHub shows the App, you create
it, and GitHub sends the browser back here with a one-time code, which
setup exchanges for the App's id, private key and webhook secret.

They are written to the data directory, each file mode 0600:
  github-app.json   the App's id, name, page and API URL (no secret)
  github-app.pem    its private key
  webhook-secret    its webhook secret
planwarden serve reads them there with no variable set (each PLANWARDEN_*
variable still wins over its file). Setup never prints the key or the secret.

  --org ORG          create the App for organization ORG (default: your account)
  --name NAME        the App's name; names are unique on GitHub (default planwarden;
                     GitHub's page lets you change it before creating)
  --webhook-url URL  where GitHub reaches serve, ending in /webhook (default: a
                     placeholder to change in the App's settings later)
  --github-url URL   GitHub's web address (default https://github.com; GitHub
                     Enterprise Server: https://HOST); the REST API is derived
                     from it (api.github.com, or https://HOST/api/v3/)
  --api-url URL      the REST API base, when it is not the derived one
  --data-dir DIR     where to store them (default PLANWARDEN_DATA_DIR, else
                     ./planwarden-data)
  --lambda           for the AWS Lambda deployment: also print the commands
                     that put the key and the secret in the stack's Secrets
                     Manager secrets (they read the files; no secret is printed)
  --addr ADDR        the local page's address, a loopback one (default 127.0.0.1:3000)
  --force            replace the App files already in the data directory

Exit status: 0 the App was created and stored, 1 GitHub or the browser did
not finish, 2 bad usage.
`

// defaultWebhookURL is the manifest's placeholder hook URL.
const defaultWebhookURL = "https://planwarden.example.com/webhook"

// setupOptions are setup's flags, read.
type setupOptions struct {
	org, name, webhookURL string
	webURL, apiURL        string
	dataDir, addr         string
	lambda, force         bool
}

var ownerName = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$`)

func runSetup(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o setupOptions
	fs.StringVar(&o.org, "org", "", "organization that owns the App")
	fs.StringVar(&o.name, "name", "planwarden", "the App's name")
	fs.StringVar(&o.webhookURL, "webhook-url", defaultWebhookURL, "where GitHub reaches serve")
	fs.StringVar(&o.webURL, "github-url", "https://github.com", "GitHub's web address")
	fs.StringVar(&o.apiURL, "api-url", "", "the REST API base")
	fs.StringVar(&o.dataDir, "data-dir", dataDirEnv(os.Getenv), "where to store the App's credentials")
	fs.StringVar(&o.addr, "addr", "127.0.0.1:3000", "the local page's loopback address")
	fs.BoolVar(&o.lambda, "lambda", false, "print the Secrets Manager commands too")
	fs.BoolVar(&o.force, "force", false, "replace stored App files")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, setupUsage)
			return exitOK
		}
		fmt.Fprintf(stderr, "planwarden setup: %v\n%s", err, setupUsage)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "planwarden setup: unexpected argument %q\n%s", fs.Arg(0), setupUsage)
		return exitUsage
	}
	if err := o.check(); err != nil {
		fmt.Fprintf(stderr, "planwarden setup: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, time.Hour) // GitHub's code lasts an hour
	defer cancel()
	if err := setup(ctx, o, stdout, nil); err != nil {
		fmt.Fprintf(stderr, "planwarden setup: %v\n", err)
		return exitFail
	}
	return exitOK
}

// check validates the flags and derives the API URL.
func (o *setupOptions) check() error {
	if o.org != "" && !ownerName.MatchString(o.org) {
		return fmt.Errorf("--org %q is not an organization's login", o.org)
	}
	if strings.TrimSpace(o.name) == "" || len(o.name) > 34 {
		return fmt.Errorf("--name %q: give the App a name of 1 to 34 characters", o.name)
	}
	if u, err := url.Parse(o.webhookURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("--webhook-url %q is not an http(s) URL", o.webhookURL)
	}
	web, err := url.Parse(strings.TrimRight(o.webURL, "/"))
	if err != nil || (web.Scheme != "https" && web.Scheme != "http") || web.Host == "" || (web.Path != "" && web.Path != "/") {
		return fmt.Errorf("--github-url %q: give GitHub's web address, such as https://github.com or https://github.example.com", o.webURL)
	}
	o.webURL = web.Scheme + "://" + web.Host
	if o.apiURL == "" {
		o.apiURL = o.webURL + "/api/v3/" // GitHub Enterprise Server
		if strings.EqualFold(web.Host, "github.com") {
			o.apiURL = "https://api.github.com/"
		}
	}
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return fmt.Errorf("--addr %q: want HOST:PORT on loopback, such as 127.0.0.1:3000", o.addr)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--addr %q: the setup page serves loopback only (127.0.0.1, ::1 or localhost): it hands out a one-time token", o.addr)
	}
	if found := storedCredentialsExist(o.dataDir); len(found) > 0 && !o.force {
		return fmt.Errorf("%s already holds an App (%s): pass --force to replace it, or --data-dir for another directory", o.dataDir, strings.Join(found, ", "))
	}
	return nil
}

// setup serves the page until an App was created and stored, ctx ends, or
// the exchange failed. ready, when set, learns the page's address.
func setup(ctx context.Context, o setupOptions, stdout io.Writer, ready func(addr string)) error {
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", o.addr, err)
	}
	flow, err := newSetupFlow(o, ln.Addr().String())
	if err != nil {
		ln.Close()
		return err
	}
	srv := &http.Server{Handler: flow, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	fmt.Fprintf(stdout, "Open http://%s/ in a browser signed in to GitHub and press the button.\n", ln.Addr())
	if ready != nil {
		ready(ln.Addr().String())
	}
	var res setupResult
	select {
	case res = <-flow.done:
	case <-ctx.Done():
		return fmt.Errorf("stopped before GitHub sent the App back (%v); nothing was stored", context.Cause(ctx))
	}
	// Let the browser get its page before the server closes.
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(shut)
	if res.err != nil {
		return res.err
	}
	printCreated(stdout, o, res.app)
	return nil
}

// setupResult is how the flow ended.
type setupResult struct {
	app ghadapter.CreatedApp
	err error
}

// setupFlow is the local page: GET / posts the manifest to GitHub with a
// one-time state; GET /callback takes GitHub's code back, only with that
// state, once.
type setupFlow struct {
	o        setupOptions
	addr     string // the page's host:port
	state    string
	manifest []byte
	convert  func(ctx context.Context, code string) (ghadapter.CreatedApp, error)
	done     chan setupResult

	mu   sync.Mutex
	used bool
}

func newSetupFlow(o setupOptions, addr string) (*setupFlow, error) {
	var m map[string]any
	if err := json.Unmarshal(deploy.AppManifest, &m); err != nil {
		return nil, fmt.Errorf("read the App manifest: %w", err)
	}
	m["name"] = o.name
	hook, _ := m["hook_attributes"].(map[string]any)
	if hook == nil {
		hook = map[string]any{"active": true}
	}
	hook["url"] = o.webhookURL
	m["hook_attributes"] = hook
	m["redirect_url"] = "http://" + addr + "/callback"
	manifest, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	state := make([]byte, 32)
	if _, err := rand.Read(state); err != nil {
		return nil, err
	}
	f := &setupFlow{o: o, addr: addr, state: hex.EncodeToString(state), manifest: manifest, done: make(chan setupResult, 1)}
	f.convert = func(ctx context.Context, code string) (ghadapter.CreatedApp, error) {
		return ghadapter.ConvertManifest(ctx, o.apiURL, code, http.DefaultTransport)
	}
	return f, nil
}

// newAppURL is GitHub's page that takes a manifest, with the state.
func (f *setupFlow) newAppURL() string {
	p := "/settings/apps/new"
	if f.o.org != "" {
		p = "/organizations/" + url.PathEscape(f.o.org) + "/settings/apps/new"
	}
	return f.o.webURL + p + "?state=" + url.QueryEscape(f.state)
}

func (f *setupFlow) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Only a page opened as this address: a name that merely resolves to
	// loopback (DNS rebinding) gets nothing.
	_, port, _ := net.SplitHostPort(f.addr)
	if r.Host != f.addr && r.Host != "localhost:"+port {
		http.Error(w, "planwarden setup answers only at http://"+f.addr+"/", http.StatusMisdirectedRequest)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action "+f.o.webURL)
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/":
		f.page(w)
	case r.Method == http.MethodGet && r.URL.Path == "/callback":
		f.callback(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (f *setupFlow) page(w http.ResponseWriter) {
	owner := "your account"
	if f.o.org != "" {
		owner = "the organization " + f.o.org
	}
	body := fmt.Sprintf(`<p>This creates the GitHub App <b>%s</b> for %s on %s, with the permissions and events of planwarden's manifest. GitHub shows it before anything is created.</p>
<form action="%s" method="post">
<input type="hidden" name="manifest" value="%s">
<button type="submit">Create the GitHub App on GitHub</button>
</form>
<p>Webhooks will go to <code>%s</code>.</p>`,
		html.EscapeString(f.o.name), html.EscapeString(owner), html.EscapeString(f.o.webURL),
		html.EscapeString(f.newAppURL()), html.EscapeString(string(f.manifest)), html.EscapeString(f.o.webhookURL))
	writePage(w, http.StatusOK, "Create planwarden's GitHub App", body)
}

func (f *setupFlow) callback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	state, code := q.Get("state"), q.Get("code")
	f.mu.Lock()
	ok := !f.used && subtle.ConstantTimeCompare([]byte(state), []byte(f.state)) == 1
	used := f.used
	if ok {
		f.used = true
	}
	f.mu.Unlock()
	if !ok {
		msg := "This address was not made by this setup (its state does not match), so its code was not used and nothing was stored."
		if used {
			msg = "This setup has already taken its App from GitHub; nothing more was stored."
		}
		writePage(w, http.StatusForbidden, "Refused", "<p>"+msg+" Start again from <a href=\"/\">the setup page</a>.</p>")
		return
	}
	app, err := f.convert(r.Context(), code)
	if err == nil {
		err = writeStoredApp(f.o.dataDir, app, f.o.apiURL)
	}
	if err != nil {
		writePage(w, http.StatusBadGateway, "The App was not stored", "<p>"+html.EscapeString(err.Error())+"</p><p>See the terminal, then run <code>planwarden setup</code> again.</p>")
		f.done <- setupResult{err: err}
		return
	}
	writePage(w, http.StatusOK, "Created "+app.Slug, fmt.Sprintf(`<p>The GitHub App <b>%s</b> (id %d) is created; its id, private key and webhook secret are stored in <code>%s</code>.</p>
<p>Next, <a href="%s">install it on your repositories</a>. The terminal says what else to do.</p>`,
		html.EscapeString(app.Slug), app.Secrets.AppID, html.EscapeString(f.o.dataDir), html.EscapeString(app.HTMLURL+"/installations/new")))
	f.done <- setupResult{app: app}
}

func writePage(w http.ResponseWriter, status int, title, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<!doctype html><html><head><meta charset="utf-8"><title>%s</title>
<style>body{font:16px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;max-width:42em;margin:3em auto;color:#1f2328}
button{font-size:16px;padding:.5em 1em;background:#1f883d;color:#fff;border:0;border-radius:6px;cursor:pointer}
code{background:#eff1f3;padding:.1em .3em;border-radius:4px}</style></head>
<body><h1>%s</h1>%s</body></html>
`, html.EscapeString(title), html.EscapeString(title), body)
}

// printCreated says what was stored and what comes next; it names files,
// never their contents.
func printCreated(w io.Writer, o setupOptions, app ghadapter.CreatedApp) {
	abs, err := filepath.Abs(o.dataDir)
	if err != nil {
		abs = o.dataDir
	}
	fmt.Fprintf(w, "Created the GitHub App %s (id %d): %s\n", app.Slug, app.Secrets.AppID, app.HTMLURL)
	fmt.Fprintf(w, "Stored in %s (mode 0600): %s (id, API URL), %s (private key), %s.\n", o.dataDir, appInfoFile, appKeyFile, appSecretFile)
	fmt.Fprintln(w, "Next:")
	fmt.Fprintf(w, "  1. Install it on your repositories: %s/installations/new\n", app.HTMLURL)
	if o.webhookURL == defaultWebhookURL {
		fmt.Fprintf(w, "  2. Set its webhook URL (now a placeholder) to where serve is reached, ending in /webhook: %s (General, Webhook)\n", app.HTMLURL)
	} else {
		fmt.Fprintf(w, "  2. GitHub sends its webhooks to %s.\n", o.webhookURL)
	}
	if !o.lambda {
		fmt.Fprintf(w, "  3. Run: PLANWARDEN_DATA_DIR=%s planwarden serve   (it reads the App from there; no other variable needed)\n", o.dataDir)
		return
	}
	fmt.Fprintln(w, "  3. For the Lambda deployment (docs/deploy.md), with the stack's outputs PrivateKeySecretArn and WebhookSecretArn:")
	fmt.Fprintf(w, "       aws secretsmanager put-secret-value --secret-id \"$PrivateKeySecretArn\" --secret-string file://%s\n", filepath.ToSlash(filepath.Join(abs, appKeyFile)))
	fmt.Fprintf(w, "       aws secretsmanager put-secret-value --secret-id \"$WebhookSecretArn\" --secret-string file://%s\n", filepath.ToSlash(filepath.Join(abs, appSecretFile)))
	fmt.Fprintf(w, "     and deploy with GitHubAppId=%d (make deploy asks for it the first time; later: sam deploy --parameter-overrides GitHubAppId=%d).\n", app.Secrets.AppID, app.Secrets.AppID)
	fmt.Fprintf(w, "     Then delete the local copies: rm %s %s\n", filepath.Join(o.dataDir, appKeyFile), filepath.Join(o.dataDir, appSecretFile))
}
