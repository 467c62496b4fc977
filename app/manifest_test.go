package app

import (
	"bytes"
	"encoding/json"
	"maps"
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
	t.Parallel()
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
		"checks": "write", "issues": "write", "contents": "read",
		"pull_requests": "write", // minimizeComment on a PR's conversation comment; issues: write alone is refused
		"actions":       "write", "metadata": "read", "merge_queues": "read",
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

// docs/github-app.md's permission table and events line are what an
// operator reads before approving the App: they must name exactly the
// manifest's permissions, at the manifest's levels, and its events.
func TestGitHubAppDocsMatchTheManifest(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../deploy/github-app-manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		DefaultEvents      []string          `json:"default_events"`
		DefaultPermissions map[string]string `json:"default_permissions"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/github-app.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	_, section, ok := strings.Cut(text, "### Permissions and events\n")
	if !ok {
		t.Fatal("docs/github-app.md: no \"### Permissions and events\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")

	// The table: | Permission | Level | Used for |, one row per permission.
	key := map[string]string{
		"Checks": "checks", "Pull requests": "pull_requests", "Issues": "issues",
		"Contents": "contents", "Actions": "actions", "Metadata": "metadata",
		"Merge queues": "merge_queues", "Members (organization)": "members",
	}
	level := map[string]string{"read": "read", "write": "write", "read and write": "write"}
	documented := map[string]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if !strings.HasPrefix(line, "|") || len(cells) != 3 {
			continue
		}
		name, lvl := strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1])
		if name == "Permission" || strings.HasPrefix(name, "---") {
			continue
		}
		k, ok := key[name]
		if !ok {
			t.Errorf("docs/github-app.md: permission row %q is not one the manifest can hold", name)
			continue
		}
		l, ok := level[lvl]
		if !ok {
			t.Errorf("docs/github-app.md: permission %s has level %q, want read, write or \"read and write\"", name, lvl)
			continue
		}
		documented[k] = l
	}
	if !maps.Equal(documented, m.DefaultPermissions) {
		t.Errorf("docs/github-app.md lists permissions %v, the manifest asks for %v", documented, m.DefaultPermissions)
	}
	if m.DefaultPermissions["members"] != "" && strings.Contains(section, "does not ask for it") {
		t.Errorf("docs/github-app.md says the manifest does not ask for members, but it does")
	}

	// The events line: Events: `a`, `b`, ... .
	_, events, ok := strings.Cut(section, "\nEvents:")
	if !ok {
		t.Fatal("docs/github-app.md: no \"Events:\" line in the permissions section")
	}
	events, _, _ = strings.Cut(events, ".")
	var listed []string
	for _, f := range strings.Split(events, ",") {
		listed = append(listed, strings.Trim(strings.TrimSpace(f), "`"))
	}
	slices.Sort(listed)
	if want := slices.Sorted(slices.Values(m.DefaultEvents)); !slices.Equal(listed, want) {
		t.Errorf("docs/github-app.md lists events %v, the manifest subscribes to %v", listed, want)
	}
}
