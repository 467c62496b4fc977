package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/planwarden/planwarden/app/port"
)

// CreatedApp is what GitHub answers when it turns a manifest's code into
// an App: its credentials (Secrets) and the names a person needs next.
type CreatedApp struct {
	Secrets port.Secrets
	// Slug names the App (its bot is <slug>[bot]); HTMLURL is its page on
	// GitHub, where it is installed (HTMLURL + "/installations/new").
	Slug, Name, HTMLURL, Owner string
}

// String never prints the secrets.
func (a CreatedApp) String() string {
	return fmt.Sprintf("app %s (%d), secrets redacted", a.Slug, a.Secrets.AppID)
}

// manifestCode is the shape of the code GitHub appends to the manifest's
// redirect URL; anything else never reaches the request path.
var manifestCode = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)

// ConvertManifest exchanges the code of GitHub's App manifest flow for the
// new App's id, private key and webhook secret (POST
// /app-manifests/{code}/conversions, unauthenticated: the code is the
// credential). A code works once, within an hour of its making, so the
// request is sent once and never retried. Errors never quote the answer's
// body, which holds the key.
func ConvertManifest(ctx context.Context, apiURL, code string, base http.RoundTripper) (CreatedApp, error) {
	if !manifestCode.MatchString(code) {
		return CreatedApp{}, errors.New("convert the app manifest: the code GitHub sent is not a manifest code")
	}
	u, err := url.Parse(apiURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return CreatedApp{}, fmt.Errorf("github api url %q: not an absolute URL", apiURL)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	if base == nil {
		base = http.DefaultTransport
	}
	gc := github.NewClient(&http.Client{Transport: base, Timeout: 30 * time.Second, CheckRedirect: apiRedirects(u)})
	gc.BaseURL = u
	cfg, resp, err := gc.Apps.CompleteAppManifest(ctx, code)
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return CreatedApp{}, errors.New("convert the app manifest: GitHub does not know the code (it works once, for an hour): create the App again")
		}
		return CreatedApp{}, fmt.Errorf("convert the app manifest: %w", err)
	}
	app := CreatedApp{
		Secrets: port.Secrets{AppID: cfg.GetID(), PrivateKeyPEM: []byte(cfg.GetPEM()), WebhookSecret: []byte(cfg.GetWebhookSecret())},
		Slug:    cfg.GetSlug(), Name: cfg.GetName(), HTMLURL: cfg.GetHTMLURL(), Owner: cfg.GetOwner().GetLogin(),
	}
	switch {
	case app.Secrets.AppID <= 0:
		return CreatedApp{}, errors.New("convert the app manifest: GitHub's answer has no app id")
	case len(app.Secrets.PrivateKeyPEM) == 0:
		return CreatedApp{}, errors.New("convert the app manifest: GitHub's answer has no private key")
	case len(app.Secrets.WebhookSecret) == 0:
		return CreatedApp{}, errors.New("convert the app manifest: GitHub's answer has no webhook secret (the manifest must set hook_attributes)")
	}
	return app, nil
}
