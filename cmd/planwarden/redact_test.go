package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
)

const corpusPlans = "../../../shared/corpus/plans"

// digests are the hex digits after "(sensitive) ": keyed per process and per
// redact run, so they differ between the two reviews by design.
var digests = regexp.MustCompile(`\(sensitive\) [0-9a-f]{8}`)

// sameDigests numbers the digests of s in order of first appearance, so two
// reviews compare equal when they hide the same things in the same places
// and keep the same equalities between hidden values.
func sameDigests(s string) string {
	seen := map[string]int{}
	return digests.ReplaceAllStringFunc(s, func(d string) string {
		if _, ok := seen[d]; !ok {
			seen[d] = len(seen)
		}
		return fmt.Sprintf("(sensitive) #%d", seen[d])
	})
}

func TestRedactPlantedSecrets(t *testing.T) {
	t.Parallel()
	for name, tc := range plantedCases(t) {
		t.Run(name, func(t *testing.T) {
			data, err := json.Marshal(tc.plan)
			if err != nil {
				t.Fatal(err)
			}
			red, err := planparse.Redact("plan.json", data)
			if err != nil {
				t.Fatal(err)
			}
			for _, leak := range tc.leaks {
				if q, _ := json.Marshal(leak); strings.Contains(string(red), strings.Trim(string(q), `"`)) {
					t.Errorf("the redacted plan holds %q:\n%s", leak, red)
				}
			}
			before, after := reviewAll(t, "plan.json", data), reviewAll(t, "plan.json", red)
			if d := cmp.Diff(sameDigests(before), sameDigests(after)); d != "" {
				t.Errorf("the review of the redacted plan differs (-original +redacted):\n%s", d)
			}
		})
	}
}

// TestRedactCorpusReviewIdentical redacts every plan of the shared corpus
// and reviews both: the comment, the check run and the JSON report must be
// the same, hidden values aside.
func TestRedactCorpusReviewIdentical(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(corpusPlans, "*", "*.json"))
	if len(files) == 0 {
		t.Skipf("plan corpus not found at %s (it lives beside the repo in ../shared); skipping", corpusPlans)
	}
	reviewed := 0
	for _, f := range files {
		rel, _ := filepath.Rel(corpusPlans, f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		red, err := planparse.Redact(rel, data)
		if err != nil {
			if _, perr := planparse.Parse(rel, data); perr == nil || perr.Error() != err.Error() {
				t.Errorf("%s: redact refused a plan review reads (or said something else): %v / %v", rel, err, perr)
			}
			continue
		}
		reviewed++
		before, after := reviewAll(t, rel, data), reviewAll(t, rel, red)
		if d := cmp.Diff(sameDigests(before), sameDigests(after)); d != "" {
			t.Errorf("%s: the review of the redacted plan differs (-original +redacted):\n%s", rel, d)
		}
	}
	if reviewed < 400 {
		t.Errorf("only %d corpus plans were redacted and reviewed", reviewed)
	}
}

func TestRedactCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := newFake(7)
	pw := f.password()
	plan, _ := json.Marshal(attr("aws_lambda_function", "environment", map[string]any{"DB_PASS": pw}))
	path := filepath.Join(dir, "plan.json")
	if err := os.WriteFile(path, plan, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "", "redact", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(out, pw) || !strings.Contains(out, `"DB_PASS":"(sensitive) `) {
		t.Errorf("redact wrote %s", out)
	}
	code, stdinOut, _ := runCLI(t, string(plan), "redact", "-")
	if code != exitOK || strings.Contains(stdinOut, pw) {
		t.Errorf("redact - exit %d: %s", code, stdinOut)
	}

	tests := map[string]struct {
		args []string
		says string
	}{
		"no file":        {[]string{"redact"}, "give exactly one plan file"},
		"two files":      {[]string{"redact", path, path}, "give exactly one plan file"},
		"missing file":   {[]string{"redact", filepath.Join(dir, "nope.json")}, "nope.json"},
		"not a plan":     {[]string{"redact", writeFile(t, dir, "state.json", `{"version":4,"serial":1,"lineage":"x"}`)}, "state.json"},
		"unknown flag":   {[]string{"redact", "--nope", path}, "not defined: -nope"},
		"binary plan":    {[]string{"redact", writeFile(t, dir, "tfplan", "PK\x03\x04binary")}, "terraform show -json"},
		"truncated plan": {[]string{"redact", writeFile(t, dir, "cut.json", `{"format_version":"1.2","resource_changes":[`)}, "cut.json"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", tc.args...)
			if code != exitUsage || out != "" || !strings.Contains(stderr, tc.says) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and a message saying %q", code, out, stderr, tc.says)
			}
		})
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
