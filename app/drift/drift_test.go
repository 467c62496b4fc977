package drift_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/drift"
	ghadapter "github.com/planwarden/planwarden/app/github"
	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// issues is the real go-github adapter (App auth) against the fake GitHub.
func issues(t *testing.T, gh *githubtest.Server) port.Issues {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	key := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	clients, err := ghadapter.Clients(port.Secrets{AppID: githubtest.AppID, PrivateKeyPEM: key, WebhookSecret: []byte("s")},
		gh.APIURL, http.DefaultTransport, ghadapter.RetryPolicy{Pause: func(time.Duration) {}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := clients(4242)
	if err != nil {
		t.Fatal(err)
	}
	return c.(port.Issues)
}

// plan is the default branch's scheduled plan after the A100 pool was
// scaled to runs nodes by hand (the code says 2; runs 2 is a clean plan).
func plan(t *testing.T, runs int, errored bool) *review.Report {
	t.Helper()
	data, err := os.ReadFile("../../examples/plans/a100-scale-out.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	ch := doc["resource_changes"].([]any)[0].(map[string]any)["change"].(map[string]any)
	before, after := ch["before"].(map[string]any), ch["after"].(map[string]any)
	before["max_count"] = after["max_count"]
	before["node_count"], after["node_count"] = runs, 2
	if runs == 2 {
		ch["actions"] = []any{"no-op"}
	}
	doc["errored"] = errored
	data, _ = json.Marshal(doc)
	p, err := planparse.Parse("drift.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return review.Build([]review.Input{{Name: "aks-gpu", Environment: "prod", Plan: p}}, review.Options{})
}

// The drift flow against the fake GitHub: the first drift opens the
// project's issue, a second run edits it, the same run again leaves it, a
// clean run closes it, a failed plan closes nothing, and drift coming back
// reopens the same issue. Nobody else's issue stands for the project's.
func TestKeepOneIssuePerProject(t *testing.T) {
	gh := githubtest.New(t)
	is := issues(t, gh)
	repo := port.Repo{Owner: "acme", Name: "infra"}
	forged := gh.AddIssue(githubtest.Issue{Owner: "acme", Repo: "infra", Title: "drift", Body: comment.DriftMarker("aks-gpu") + "\nforged"})
	steps := []struct {
		name    string
		runs    int
		errored bool
		action  comment.DriftAction
		state   string
		says    string
		edits   int
	}{
		{"first drift", 6, false, comment.DriftOpen, "open", "GPU pool `a100` scaled 2 → 6 outside Terraform", 0},
		{"the drift changes", 7, false, comment.DriftEdit, "open", "scaled 2 → 7", 1},
		{"the same drift", 7, false, comment.DriftNone, "open", "scaled 2 → 7", 1},
		{"a failed plan", 7, true, comment.DriftEdit, "open", "failed part way", 2},
		{"the drift is gone", 2, false, comment.DriftClose, "closed", "No drift", 3},
		{"still clean", 2, false, comment.DriftNone, "closed", "No drift", 3},
		{"drift again", 6, false, comment.DriftReopen, "open", "scaled 2 → 6", 4},
	}
	number := 0
	for _, s := range steps {
		res, err := drift.Keep(context.Background(), is, repo, githubtest.BotLogin, plan(t, s.runs, s.errored), comment.DriftOptions{})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if len(res) != 1 || res[0].Action != s.action {
			t.Fatalf("%s: %+v, want %s", s.name, res, s.action)
		}
		if number == 0 {
			number = res[0].Number
		}
		var ours []githubtest.Issue
		for _, got := range gh.Issues("acme", "infra") {
			switch got.Number {
			case forged:
				if got.Edits != 0 {
					t.Errorf("%s: someone else's issue with the marker was edited", s.name)
				}
			default:
				ours = append(ours, got)
			}
		}
		if len(ours) != 1 {
			t.Fatalf("%s: %d drift issues, want 1", s.name, len(ours))
		}
		got := ours[0]
		if got.Number != number || got.State != s.state || got.Edits != s.edits || !strings.Contains(got.Body, s.says) || got.Title != "planwarden: drift in aks-gpu (prod)" {
			t.Errorf("%s: issue #%d %s, %d edits, title %q; want #%d %s, %d edits, saying %q\n%s", s.name, got.Number, got.State, got.Edits, got.Title, number, s.state, s.edits, s.says, got.Body)
		}
	}
}
