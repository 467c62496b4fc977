package planparse

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const corpusDir = "../../shared/corpus/plans"

// corpusFiles lists the shared plan corpus, or skips when it is absent
// (a user's clone has no ../shared).
func corpusFiles(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*.json"))
	if len(files) == 0 {
		t.Skipf("plan corpus not found at %s (it lives beside the repo in ../shared); skipping corpus tests", corpusDir)
	}
	return files
}

// TestCorpus parses every plan of the corpus: valid plans parse with one
// change per resource_changes entry, the broken ones give a typed error.
func TestCorpus(t *testing.T) {
	t.Parallel()
	files := corpusFiles(t)
	if len(files) < 400 {
		t.Fatalf("corpus has %d files, expected the full corpus of 453", len(files))
	}
	for _, f := range files {
		rel, _ := filepath.Rel(corpusDir, f)
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Parse(rel, data)
			base := filepath.Base(f)
			switch {
			case strings.HasPrefix(base, "INVALID__"):
				var pe *Error
				if !errors.As(err, &pe) {
					t.Fatalf("want a *planparse.Error, got %v", err)
				}
				if !strings.Contains(err.Error(), rel) {
					t.Errorf("error does not name the file: %v", err)
				}
				if pe.Hint == "" {
					t.Errorf("error says nothing about what to do: %v", err)
				}
				return
			case strings.HasPrefix(base, "NOTPLAN__"):
				if !errors.Is(err, ErrNotPlan) {
					t.Fatalf("want ErrNotPlan, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("valid plan refused: %v", err)
			}
			want := countResourceChanges(t, data)
			if len(p.Changes) != want {
				t.Errorf("got %d changes, plan has %d resource_changes", len(p.Changes), want)
			}
			for _, c := range p.Changes {
				if c.Address == "" || c.Type == "" || c.Action == "" {
					t.Errorf("change missing address/type/action: %+v", c)
				}
				_ = c.Diff()
			}
		})
	}
}

func countResourceChanges(t *testing.T, data []byte) int {
	t.Helper()
	data, err := normalize("x", data)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		ResourceChanges []json.RawMessage `json:"resource_changes"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	return len(raw.ResourceChanges)
}

// TestCorpusErrors pins the message of each deliberately broken file.
func TestCorpusErrors(t *testing.T) {
	t.Parallel()
	corpusFiles(t)
	tests := map[string]struct {
		file string
		kind error
		says string
	}{
		"setup-terraform wrapper output": {"infracost/INVALID__plan_with_terraform_wrapper.json", ErrWrapperOutput, "terraform_wrapper: false"},
		"two documents":                  {"terracost/INVALID__aws__terraform-plan-noprovider.json", ErrNotJSON, ":190:"},
		"trailing garbage":               {"terraform-json/INVALID__invalid.json", ErrNotJSON, ":676:"},
		"empty show of a state":          {"terracost/NOTPLAN__terraform-empty-plan.json", ErrNotPlan, "terraform show -json"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(corpusDir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(tc.file, data)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("want %v, got %v", tc.kind, err)
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %q does not say %q", err, tc.says)
			}
		})
	}
}
