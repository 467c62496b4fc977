package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// examplePlans are the bundled example plans of every input format.
func examplePlans(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, g := range []string{"../../examples/plans/*.json", "../../examples/*/*.json", "../../examples/*/*/*/*.json"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d example plans: %v", len(files), files)
	}
	return files
}

// TestRedactedPlanReviewsAsTheOriginal: the JSON report (with the change
// digests `planwarden verify` compares) of `planwarden review` on the
// output of `planwarden redact` is the JSON report of the plan itself,
// byte for byte but the file name, for every bundled example and every
// corpus plan: redact hides only what the review does not show, and keeps
// every fact the review derives. A plan review refuses, redact refuses
// with the same error.
func TestRedactedPlanReviewsAsTheOriginal(t *testing.T) {
	t.Parallel()
	files := examplePlans(t)
	corpus, _ := filepath.Glob(filepath.Join(corpusPlans, "*", "*.json"))
	if len(corpus) == 0 {
		t.Logf("plan corpus not found at %s (it lives beside the repo in ../shared): only the %d examples are redacted", corpusPlans, len(files))
	}
	dir := t.TempDir()
	// documents one after another, as terragrunt run --all -- show -json
	// prints them without its log
	var multi []byte
	for _, f := range files[:2] {
		d, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		multi = append(append(multi, d...), '\n')
	}
	if err := os.MkdirAll(filepath.Join(dir, "units"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "units", "run-all.json"), multi, 0o644); err != nil {
		t.Fatal(err)
	}
	// a Helm release whose values (YAML in a string) hold its GPU limits
	if err := os.WriteFile(filepath.Join(dir, "units", "helm.json"), []byte(helmGPUPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(append(files, filepath.Join(dir, "units", "run-all.json"), filepath.Join(dir, "units", "helm.json")), corpus...)
	compared, refused := 0, 0
	for i, f := range files {
		code, red, stderr := runCLI(t, "", "redact", f)
		if code != exitOK {
			rcode, _, rstderr := runCLI(t, "", "review", "--format", "json", f)
			msg := strings.TrimPrefix(strings.TrimSpace(stderr), "planwarden redact: ")
			if rcode != exitUsage || !strings.Contains(rstderr, msg) {
				t.Errorf("%s: redact refused a plan review reads, or said something else: %s / %s", f, stderr, rstderr)
			}
			refused++
			continue
		}
		redPath := filepath.Join(dir, strconv.Itoa(i), filepath.Base(filepath.Dir(f)), filepath.Base(f)) // the project is named after them
		if err := os.MkdirAll(filepath.Dir(redPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(redPath, []byte(red), 0o644); err != nil {
			t.Fatal(err)
		}
		code, orig, stderr := runCLI(t, "", "review", "--format", "json", "--digests", f)
		code2, redacted, stderr2 := runCLI(t, "", "review", "--format", "json", "--digests", redPath)
		if code != code2 || stderr != strings.ReplaceAll(stderr2, redPath, f) {
			t.Errorf("%s: review exits %d (%q), of the redacted plan %d (%q)", f, code, stderr, code2, stderr2)
		}
		if d := cmp.Diff(orig, strings.ReplaceAll(redacted, redPath, f)); d != "" {
			t.Errorf("%s: the JSON report of the redacted plan differs (-original +redacted):\n%s", f, d)
		}
		compared++
	}
	t.Logf("%d plans redacted and reviewed alike, %d refused by both", compared, refused)
	if len(corpus) > 0 && compared < 400 {
		t.Errorf("only %d plans were redacted and compared", compared)
	}
}

// helmGPUPlan creates a Helm release whose GPU limits and replicas are in
// its values, a YAML text with a secret-bearing argument beside them.
const helmGPUPlan = `{"format_version":"1.2","terraform_version":"1.9.8","resource_changes":[{"address":"helm_release.vllm","mode":"managed",
"type":"helm_release","name":"vllm","provider_name":"registry.terraform.io/hashicorp/helm","change":{"actions":["create"],"before":null,
"after":{"name":"vllm","chart":"vllm","namespace":"ml","values":["replicaCount: 3 # three\nimage:\n  repository: vllm/vllm-openai\n  tag: v0.6.0\nresources:\n  limits:\n    nvidia.com/gpu: 4\nextraArgs: \"--api-key Zq7!helm\"\n"]},
"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}]}`
