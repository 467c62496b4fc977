// Package examples holds the stacks, plans and CI workflows the README's
// stories use; its test keeps them working with the code.
package examples

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/planwarden/planwarden/app/command"
	"github.com/planwarden/planwarden/app/run"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// TestStories reviews each example plan with the default config, as
// `make run` and the README describe.
func TestStories(t *testing.T) {
	tests := map[string]struct {
		plan, env string
		verdict   rules.Verdict
		rules     []string
	}{
		"GPU pool typo blocks":                     {"aks-gpu-typo.json", "prod", rules.VerdictFail, []string{"gpu-pool-sku", "gpu-sku-loss"}},
		"A100 VM without cost-center blocks":       {"a100-vm-no-tags.json", "prod", rules.VerdictFail, []string{"required-tags"}},
		"prod endpoint rename blocks":              {"sagemaker-rename.json", "prod", rules.VerdictFail, []string{"endpoint-replacement"}},
		"staging endpoint rename warns":            {"sagemaker-rename.json", "staging", rules.VerdictWarn, []string{"endpoint-replacement"}},
		"bucket lifecycle change passes":           {"bucket-lifecycle.json", "prod", rules.VerdictPass, nil},
		"35 more A100s at max scale is flagged":    {"a100-scale-out.json", "prod", rules.VerdictWarn, []string{"cost-increase", "gpu-increase"}},
		"Bicep GPU pool typo blocks":               {"../bicep-gpu-vm/whatif-typo.json", "prod", rules.VerdictFail, []string{"gpu-pool-sku", "gpu-sku-loss"}},
		"Bicep A100 VM without cost-center blocks": {"../bicep-gpu-vm/whatif-vm-no-tags.json", "prod", rules.VerdictFail, []string{"required-tags"}},
		"node drain action before a GPU update":    {"eks-gpu-drain-action.json", "prod", rules.VerdictWarn, []string{"action-invocation", "action-invocation"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("plans", tc.plan)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := planparse.Parse(path, data)
			if err != nil {
				t.Fatal(err)
			}
			r := review.Build([]review.Input{{Name: "example", Environment: tc.env, Plan: p}}, review.Options{})
			if r.Verdict != tc.verdict {
				t.Errorf("verdict = %s, want %s", r.Verdict, tc.verdict)
			}
			var got []string
			for _, f := range r.Projects[0].Findings {
				got = append(got, f.Rule)
			}
			if strings.Join(got, ",") != strings.Join(tc.rules, ",") {
				t.Errorf("findings = %v, want %v", got, tc.rules)
			}
		})
	}
}

type workflow struct {
	RunName string         `yaml:"run-name"`
	On      map[string]any `yaml:"on"`
	Jobs    map[string]struct {
		Steps []struct {
			Uses string            `yaml:"uses"`
			With map[string]string `yaml:"with"`
			Run  string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

func readWorkflow(t *testing.T, name string) workflow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("workflows", name))
	if err != nil {
		t.Fatal(err)
	}
	var w workflow
	if err := yaml.Unmarshal(data, &w); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return w
}

// TestWorkflowsMatchTheApp checks the example workflows against what the
// App looks for: their file names (the /plan and /destroy-staging
// defaults), the inputs it dispatches, the artifact prefix, the metadata
// file, and the wrapper setting that keeps the plan JSON clean.
func TestWorkflowsMatchTheApp(t *testing.T) {
	planFile := path.Base(rules.DefaultPlanWorkflow) // what /plan dispatches with no plan_workflows
	plan := readWorkflow(t, planFile)
	dispatch, _ := plan.On["workflow_dispatch"].(map[string]any)
	inputs, _ := dispatch["inputs"].(map[string]any)
	for _, in := range command.PlanInputs {
		if _, ok := inputs[in]; !ok {
			t.Errorf("%s does not declare the %s input /plan sends", planFile, in)
		}
	}
	for name, w := range map[string]workflow{planFile: plan, rules.DefaultDestroyWorkflow: readWorkflow(t, rules.DefaultDestroyWorkflow)} {
		if !strings.Contains(w.RunName, "inputs.correlation_id") {
			t.Errorf("%s: run-name %q does not carry inputs.correlation_id, so planwarden cannot find its runs", name, w.RunName)
		}
	}
	uploads, wrapperOff := 0, false
	for _, job := range plan.Jobs {
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Uses, "actions/upload-artifact") {
				uploads++
				if !strings.HasPrefix(s.With["name"], run.ArtifactPrefix) {
					t.Errorf("artifact %q does not start with %q", s.With["name"], run.ArtifactPrefix)
				}
				if !strings.Contains(s.With["path"], run.MetadataFile) {
					t.Errorf("artifact does not carry %s", run.MetadataFile)
				}
			}
			if strings.HasPrefix(s.Uses, "hashicorp/setup-terraform") && s.With["terraform_wrapper"] == "false" {
				wrapperOff = true
			}
		}
	}
	if uploads == 0 || !wrapperOff {
		t.Errorf("uploads=%d wrapper off=%v", uploads, wrapperOff)
	}
	whatif := readWorkflow(t, "planwarden-whatif.yml")
	uploads = 0
	for _, job := range whatif.Jobs {
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Uses, "actions/upload-artifact") {
				uploads++
				if !strings.HasPrefix(s.With["name"], run.ArtifactPrefix) || !strings.Contains(s.With["path"], run.MetadataFile) {
					t.Errorf("what-if artifact %q does not start with %q or does not carry %s", s.With["name"], run.ArtifactPrefix, run.MetadataFile)
				}
			}
			if strings.Contains(s.Run, "what-if") && !strings.Contains(s.Run, "planwarden redact whatif.raw.json > whatif.json") {
				t.Errorf("the what-if step must upload the redacted result (planwarden redact):\n%s", s.Run)
			}
			if strings.Contains(s.Run, "what-if") && (!strings.Contains(s.Run, "--result-format FullResourcePayloads") || !strings.Contains(s.Run, "--no-pretty-print")) {
				t.Errorf("the what-if step must ask for FullResourcePayloads and --no-pretty-print (planwarden reads the payloads):\n%s", s.Run)
			}
		}
	}
	if uploads == 0 {
		t.Errorf("planwarden-whatif.yml uploads no artifact")
	}
	destroy := readWorkflow(t, rules.DefaultDestroyWorkflow)
	dispatch, _ = destroy.On["workflow_dispatch"].(map[string]any)
	inputs, _ = dispatch["inputs"].(map[string]any)
	for _, in := range command.DestroyInputs {
		if _, ok := inputs[in]; !ok {
			t.Errorf("%s does not declare the %s input /destroy-staging sends", rules.DefaultDestroyWorkflow, in)
		}
	}
}
