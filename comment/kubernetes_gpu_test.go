package comment

import (
	"os"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
)

// The GPU table lists what Kubernetes workloads request (limits × replicas,
// before and after) and the GPU families a Karpenter NodePool allows, though
// neither bills by itself; the headline's GPUs stay the priced fleets'.
func TestGPUTableKubernetes(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../examples/plans/karpenter-gpu-typo.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse("karpenter-gpu-typo.json", data)
	if err != nil {
		t.Fatal(err)
	}
	md := Render(review.Build([]review.Input{{Name: "serving", Environment: "prod", Plan: p}}, review.Options{}), Options{})
	for _, want := range []string{
		// A workload's GPUs are per pod, its counts pods, its cost its nodes'.
		"| `kubernetes_deployment_v1.llm` | `nvidia.com/gpu` | NVIDIA GPU (model chosen by the node) × 1 per pod | 2 / 2 / 2 pods → 6 / 6 / 6 pods | 2 → 6 | through its nodes |",
		"| `kubernetes_manifest.gpu_nodepool` | `g5, g6` → `m5, c5` |",
		"`gpu-sku-loss` on `kubernetes_manifest.gpu_nodepool`",
		// A list of families: neither has a GPU (not "which has").
		"but gets m5, c5, neither of which has a GPU",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the comment lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "**GPUs:**") {
		t.Errorf("requested GPUs are counted in the headline, beside the nodes that run them:\n%s", md)
	}
}
