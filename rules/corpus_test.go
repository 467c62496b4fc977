package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// TestCorpus runs every rule over every plan of the shared corpus (real
// plans from other tools' test suites) and checks what every finding must
// give a reviewer: a known rule, a severity, a sentence, a remedy for each
// blocking finding, and the same findings in the same order every time.
func TestCorpus(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../shared/corpus/plans/*/*.json")
	files = append(files, mustGlob(t, "../examples/plans/*.json")...)
	if len(files) < 10 {
		t.Skip("plan corpus not found at ../shared/corpus/plans")
	}
	parsed, findings := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := planparse.Parse(f, data)
		if err != nil {
			continue // not a plan, or one planparse refuses: its own tests cover that
		}
		parsed++
		projects := []Project{{Name: filepath.Base(f), Environment: "prod", Plan: p, Resources: infra.Analyze(p, nil, infra.Options{})}}
		res := DefaultConfig().Evaluate(projects, nil)
		for _, fd := range res.Findings {
			findings++
			switch {
			case !isBuiltin(fd.Rule):
				t.Errorf("%s: finding of unknown rule %q", f, fd.Rule)
			case fd.Severity != SeverityBlock && fd.Severity != SeverityWarn && fd.Severity != SeverityInfo:
				t.Errorf("%s: %s finding with severity %q", f, fd.Rule, fd.Severity)
			case len(fd.Message) < 20:
				t.Errorf("%s: %s finding with message %q", f, fd.Rule, fd.Message)
			case fd.Severity == SeverityBlock && fd.Remedy == "":
				t.Errorf("%s: blocking %s finding without a remedy", f, fd.Rule)
			case fd.Project != filepath.Base(f):
				t.Errorf("%s: %s finding names project %q", f, fd.Rule, fd.Project)
			}
		}
		if (res.Verdict == VerdictFail) != hasBlock(res.Findings) {
			t.Errorf("%s: verdict %s with findings %v", f, res.Verdict, lines(res.Findings))
		}
		again := DefaultConfig().Evaluate(projects, nil)
		if diff := cmp.Diff(res, again); diff != "" {
			t.Errorf("%s: a second evaluation differs (-first +second):\n%s", f, diff)
		}
	}
	if parsed < 10 || findings == 0 {
		t.Errorf("parsed %d plans with %d findings; the sweep checked too little", parsed, findings)
	}
}

func hasBlock(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == SeverityBlock && f.Override == nil {
			return true
		}
	}
	return false
}

func mustGlob(t *testing.T, pattern string) []string {
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
