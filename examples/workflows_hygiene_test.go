package examples

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

var pinned = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$`)

// TestWorkflowsArePinnedAndScoped holds the example workflows to what a
// security reviewer asks of CI that handles cloud credentials: actions
// pinned by commit, no default permissions (each job asks for its own), no
// expression pasted into a shell script.
func TestWorkflowsArePinnedAndScoped(t *testing.T) {
	files, _ := filepath.Glob("workflows/*.yml")
	if len(files) < 3 {
		t.Fatalf("found %d example workflows, want the plan, what-if and destroy workflows", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var wf struct {
			Permissions any `yaml:"permissions"`
			Jobs        map[string]struct {
				Permissions map[string]string `yaml:"permissions"`
				Steps       []struct {
					Uses string `yaml:"uses"`
					Run  string `yaml:"run"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(data, &wf); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if m, ok := wf.Permissions.(map[string]any); !ok || len(m) != 0 {
			t.Errorf("%s: top-level permissions = %v, want {} (each job asks for its own)", f, wf.Permissions)
		}
		for name, job := range wf.Jobs {
			if job.Permissions == nil {
				t.Errorf("%s: job %s sets no permissions", f, name)
			}
			for _, s := range job.Steps {
				if s.Uses != "" && !strings.HasPrefix(s.Uses, "./") && !pinned.MatchString(s.Uses) {
					t.Errorf("%s: job %s uses %q: pin it by full commit SHA", f, name, s.Uses)
				}
				if strings.Contains(s.Run, "${{") {
					t.Errorf("%s: job %s pastes an expression into run: %q; pass it through env", f, name, s.Run)
				}
			}
		}
		if !strings.Contains(string(data), "\nconcurrency:") {
			t.Errorf("%s: no concurrency group", f)
		}
	}
}
