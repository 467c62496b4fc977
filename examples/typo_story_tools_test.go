package examples

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// storyFinding is a finding as the typo story is told in any tool: the
// rule, and the resource by its (Terraform) type and its own name.
type storyFinding struct{ Rule, Severity, Type, Name string }

func storyFindings(t *testing.T, p *planparse.Plan) (rules.Verdict, []storyFinding) {
	t.Helper()
	r := review.Build([]review.Input{{Name: "story", Environment: "prod", Plan: p}}, review.Options{})
	var out []storyFinding
	for _, f := range r.Projects[0].Findings {
		sf := storyFinding{Rule: f.Rule, Severity: string(f.Severity)}
		for _, c := range p.Changes {
			if c.Address == f.Address {
				sf.Type, sf.Name = c.Type, c.Name
			}
		}
		out = append(out, sf)
	}
	return r.Verdict, out
}

func parseFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The GPU pool typo blocks with the same findings on the same resource
// whether Terraform, Pulumi or Terragrunt planned it.
func TestTypoStoryAcrossTools(t *testing.T) {
	t.Parallel()
	tfPlan, err := planparse.Parse("tf", parseFile(t, filepath.Join("plans", "aks-gpu-typo.json")))
	if err != nil {
		t.Fatal(err)
	}
	wantVerdict, want := storyFindings(t, tfPlan)
	if wantVerdict != rules.VerdictFail || len(want) != 2 {
		t.Fatalf("the Terraform story: %s with %v", wantVerdict, want)
	}
	unit := func(path, dir string) func(t *testing.T) *planparse.Plan {
		return func(t *testing.T) *planparse.Plan {
			units, ok := planparse.SplitUnits(parseFile(t, path))
			if !ok {
				t.Fatalf("%s: no units", path)
			}
			for _, u := range units {
				if u.Dir == dir {
					p, err := planparse.Parse(path+"#"+dir, u.Data)
					if err != nil {
						t.Fatal(err)
					}
					return p
				}
			}
			t.Fatalf("%s: no unit %s", path, dir)
			return nil
		}
	}
	file := func(path, tool string) func(t *testing.T) *planparse.Plan {
		return func(t *testing.T) *planparse.Plan {
			p, err := planparse.Parse(path, parseFile(t, path))
			if err != nil {
				t.Fatal(err)
			}
			if p.Tool != tool {
				t.Errorf("%s: tool %q, want %q", path, p.Tool, tool)
			}
			return p
		}
	}
	tests := map[string]func(t *testing.T) *planparse.Plan{
		"Pulumi preview":              file("pulumi-gpu/preview-typo.json", planparse.ToolPulumi),
		"Terragrunt run --all output": unit("terragrunt-gpu/run-all-show.json", "aks-gpu"),
		"Terragrunt --json-out-dir":   file("terragrunt-gpu/json-out-dir/aks-gpu/tfplan.json", ""),
	}
	for name, plan := range tests {
		t.Run(name, func(t *testing.T) {
			verdict, got := storyFindings(t, plan(t))
			if verdict != wantVerdict {
				t.Errorf("verdict %s, want %s", verdict, wantVerdict)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings differ from Terraform's (-terraform +%s):\n%s", name, diff)
			}
		})
	}
}

// The Karpenter story: a NodePool whose families lose every GPU family
// blocks as a GPU pool's typo does; the deployment that scales its GPU
// pods from 2 to 6 is in the GPU table, not a finding.
func TestKarpenterStory(t *testing.T) {
	t.Parallel()
	p, err := planparse.Parse("karpenter", parseFile(t, filepath.Join("plans", "karpenter-gpu-typo.json")))
	if err != nil {
		t.Fatal(err)
	}
	verdict, got := storyFindings(t, p)
	want := []storyFinding{
		{"gpu-pool-sku", "block", "kubernetes_manifest", "gpu_nodepool"},
		{"gpu-sku-loss", "block", "kubernetes_manifest", "gpu_nodepool"},
	}
	if verdict != rules.VerdictFail {
		t.Errorf("verdict %s, want fail", verdict)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
