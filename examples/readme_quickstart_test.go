package examples

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEQuickStartIsOneScreen: the README's quick start starts with
// make run and make test, shows the picture, and fits on a screen (40
// lines); what a new team runs on its own repository is in it.
func TestREADMEQuickStartIsOneScreen(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "## Quick start")
	section, _, ok2 := strings.Cut(rest, "\n## ")
	if !ok || !ok2 {
		t.Fatal("README.md has no Quick start section followed by another")
	}
	lines := strings.Split(strings.TrimSpace(section), "\n")
	if len(lines) > 40 {
		t.Errorf("the quick start is %d lines, want at most 40 (one screen)", len(lines))
	}
	firstCode := strings.Index(section, "```sh\n")
	if firstCode < 0 || !strings.HasPrefix(section[firstCode+6:], "make run") || !strings.Contains(section[firstCode:firstCode+200], "\nmake test") {
		t.Errorf("the quick start's first commands are not make run and make test")
	}
	for _, want := range []string{"](docs/comment.png)", "planwarden init", "planwarden setup", "planwarden serve", "docs/github-app.md"} {
		if !strings.Contains(section, want) {
			t.Errorf("the quick start lacks %q", want)
		}
	}
}

// TestGitHubAppDocsStartWithSetup: docs/github-app.md's first commands
// are planwarden setup, then serve; the manual steps come later.
func TestGitHubAppDocsStartWithSetup(t *testing.T) {
	data, err := os.ReadFile("../docs/github-app.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	first := strings.Index(doc, "```sh\n")
	if first < 0 {
		t.Fatal("docs/github-app.md has no sh block")
	}
	if heading := strings.Index(doc, "\n## "); heading >= 0 && heading < first {
		t.Errorf("docs/github-app.md's first commands come after its first section, want them at the top")
	}
	block, _, _ := strings.Cut(doc[first+len("```sh\n"):], "```")
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "planwarden setup") || !strings.HasPrefix(lines[1], "planwarden serve") {
		t.Errorf("docs/github-app.md starts with %q, want planwarden setup, then planwarden serve", lines)
	}
}
