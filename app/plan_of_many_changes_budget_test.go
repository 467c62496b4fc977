package app_test

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app"
	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/planparse"
)

// A plan of many small changes is charged for its changes, not only its
// bytes: one of 20,000 changes that three times its bytes would let in
// fails its check as too large for the worker. The honest twin, a plan
// of as many bytes in one change, is reviewed under the same budget.
func TestAPlanOfManySmallChangesIsChargedForThem(t *testing.T) {
	t.Parallel()
	const sha = "4444444444444444444444444444444444444444"
	many := githubtest.ManyChanges(t, 20_000)
	zr, err := zip.NewReader(bytes.NewReader(many), int64(len(many)))
	if err != nil {
		t.Fatal(err)
	}
	size := int64(zr.File[0].UncompressedSize64)
	// The job's fixed part, three times the plan, the zip and its
	// directory, and 8 MiB more: the bytes fit, 20,000 changes do not.
	budget := 16<<20 + planparse.DecodeBound + 3*size + int64(len(many)) + 8<<20

	h := newHarness(t, func(c *app.Config) { c.MemoryBudget = budget })
	h.openPR(8, sha)
	h.planRun("d-many", 91, 8, sha, many, runOpt{})
	if c := h.planwardenCheck(sha); c.Title != "Plan too large for the worker" {
		t.Errorf("a plan of 20,000 changes over the budget: check %s %q; want it too large for the worker", c.Conclusion, c.Title)
	}

	head := `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{"address":"aws_instance.gpu","mode":"managed","type":"aws_instance","name":"gpu","provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["create"],"before":null,"after":{"instance_type":"p4d.24xlarge","description":"`
	tail := `"},"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}]}`
	one := zipOf(t, entry{"plan.json", []byte(head + strings.Repeat("gpu-node-pool-a100-", int(size)/19) + tail)})
	h2 := newHarness(t, func(c *app.Config) { c.MemoryBudget = budget })
	h2.openPR(8, sha)
	h2.planRun("d-one", 91, 8, sha, one, runOpt{})
	if c := h2.planwardenCheck(sha); c.Status != "completed" || c.Title == "Plan too large for the worker" || !strings.Contains(c.Title, "GPUs") {
		t.Errorf("a plan of as many bytes in one change: check %s %q; want it reviewed", c.Conclusion, c.Title)
	}
}
