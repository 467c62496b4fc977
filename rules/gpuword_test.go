package rules

import (
	"strings"
	"testing"
)

// hasGPUWord splits a tag value into words without allocating; it must
// find exactly the words strings.FieldsFunc finds.
func TestHasGPUWord(t *testing.T) {
	t.Parallel()
	fields := func(v string) bool {
		for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		}) {
			if w == "gpu" || w == "nvidia" || w == "cuda" {
				return true
			}
		}
		return false
	}
	for _, v := range []string{"", "gpu", "GPU", "gpus", "a-gpu", "gpu-", "my gpu pool", "nvidia/cuda", "NVIDIA_A100",
		"cuda12", "x.cuda.y", "égpu", "gpué", "ΣGPU", "İgpu", "no-gpu-here", "vgpu", "gpu1", "1gpu", "g p u", "Cuda", "nvidia\x00"} {
		if got, want := hasGPUWord(v), fields(v); got != want {
			t.Errorf("hasGPUWord(%q) = %v, word split says %v", v, got, want)
		}
	}
}
