package rules

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every YAML example in docs/config.md is a config planwarden accepts
// (snippets get the version line, and the environments they name, added).
func TestDocsExamplesParse(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	if len(blocks) < 5 {
		t.Fatalf("found %d yaml examples in docs/config.md, want at least 5", len(blocks))
	}
	for i, b := range blocks {
		yml := b[1]
		if !strings.Contains(yml, "version:") && strings.TrimSpace(stripComments(yml)) != "" {
			head := "version: 1\n"
			if !regexp.MustCompile(`(?m)^environments:`).MatchString(yml) {
				head += "environments: {dev: {}, sandbox: {}}\n"
			}
			yml = head + yml
		}
		if _, err := ParseConfig("docs/config.md example", []byte(yml)); err != nil {
			t.Errorf("example %d does not parse:\n%s\n%v", i+1, b[1], err)
		}
	}
}

func stripComments(s string) string {
	return regexp.MustCompile(`(?m)^\s*#.*$`).ReplaceAllString(s, "")
}
