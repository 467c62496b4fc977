package app

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	jobs "github.com/planwarden/planwarden/app/job"
)

// The App manifest must subscribe to every event the handler works on
// (installation events come to every App unasked) and ask for the
// permissions the port uses.
func TestManifestMatchesTheHandler(t *testing.T) {
	data, err := os.ReadFile("../deploy/github-app-manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		HookAttributes struct {
			URL string `json:"url"`
		} `json:"hook_attributes"`
		DefaultEvents      []string          `json:"default_events"`
		DefaultPermissions map[string]string `json:"default_permissions"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	want := jobs.Events()
	got := slices.Sorted(slices.Values(m.DefaultEvents))
	if !slices.Equal(got, want) {
		t.Errorf("manifest events %v, want the handled events %v", got, want)
	}
	for perm, level := range map[string]string{
		"checks": "write", "pull_requests": "read", "issues": "write", "contents": "read",
		"actions": "write", "metadata": "read", "merge_queues": "read",
		"members": "read", // team membership for /override by team
	} {
		if m.DefaultPermissions[perm] != level {
			t.Errorf("permission %s: %q, want %q", perm, m.DefaultPermissions[perm], level)
		}
	}
	if len(m.DefaultPermissions) != 8 {
		t.Errorf("permissions %v: want exactly the eight the App uses", m.DefaultPermissions)
	}
	// docs/github-app.md's table says the same levels.
	doc, err := os.ReadFile("../docs/github-app.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{"checks": "Checks", "pull_requests": "Pull requests", "issues": "Issues", "contents": "Contents",
		"actions": "Actions", "metadata": "Metadata", "merge_queues": "Merge queues", "members": "Members (organization)"}
	for perm, level := range m.DefaultPermissions {
		row := "| " + rows[perm] + " | "
		i := strings.Index(string(doc), row)
		if rows[perm] == "" || i < 0 {
			t.Errorf("docs/github-app.md has no permission row for %s", perm)
			continue
		}
		cell, _, _ := strings.Cut(string(doc)[i+len(row):], " |")
		if !strings.HasSuffix(cell, level) {
			t.Errorf("docs/github-app.md: %s is %q, the manifest asks for %q", rows[perm], cell, level)
		}
	}
	if m.HookAttributes.URL == "" {
		t.Errorf("manifest has no webhook URL")
	}
}
