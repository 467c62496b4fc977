package github

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
)

// TestConvertManifestGivesTheNewAppsCredentials: the manifest flow's code
// becomes the App's id, key and webhook secret, once; the request carries
// no credentials and matches GitHub's REST description (the fake checks).
func TestConvertManifestGivesTheNewAppsCredentials(t *testing.T) {
	t.Parallel()
	gh := githubtest.New(t)
	made := gh.ManifestCode("a1b2c3", "planwarden-acme")
	tests := map[string]struct {
		code    string
		wantErr string
	}{
		"the code converts":           {code: "a1b2c3"},
		"a code works once":           {code: "a1b2c3", wantErr: "works once"},
		"an unknown code":             {code: "ffff", wantErr: "does not know the code"},
		"a code that would be a path": {code: "../../user", wantErr: "not a manifest code"},
	}
	for _, name := range []string{"the code converts", "a code works once", "an unknown code", "a code that would be a path"} {
		tc := tests[name]
		t.Run(name, func(t *testing.T) {
			before := gh.CallCount("POST", "/app-manifests/")
			app, err := ConvertManifest(context.Background(), gh.APIURL, tc.code, http.DefaultTransport)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one saying %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "PRIVATE KEY") || strings.Contains(err.Error(), made.WebhookSecret) {
					t.Errorf("error shows a secret: %v", err)
				}
				if name == "a code that would be a path" && gh.CallCount("POST", "/app-manifests/") != before {
					t.Errorf("a malformed code was sent to GitHub")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if app.Secrets.AppID != made.ID || string(app.Secrets.PrivateKeyPEM) != made.PEM || string(app.Secrets.WebhookSecret) != made.WebhookSecret {
				t.Errorf("credentials do not match what GitHub made (id %d, want %d)", app.Secrets.AppID, made.ID)
			}
			if app.Slug != "planwarden-acme" || app.HTMLURL != "https://github.com/apps/planwarden-acme" {
				t.Errorf("slug %q, page %q", app.Slug, app.HTMLURL)
			}
			if s := app.String(); strings.Contains(s, "PRIVATE KEY") || strings.Contains(s, made.WebhookSecret) {
				t.Errorf("String() shows a secret: %s", s)
			}
			for _, c := range gh.Calls() {
				if strings.HasPrefix(c.Path, githubtest.APIPrefix+"/app-manifests/") && c.Auth != "" {
					t.Errorf("the conversion carried Authorization %q; it needs none", c.Auth)
				}
			}
		})
	}
}
