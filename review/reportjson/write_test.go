package reportjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
	"github.com/planwarden/planwarden/review/reviewtest"
)

// TestWriteMatchesMarshalIndent holds the streaming writer to
// encoding/json's own output, so the report's shape has one definition:
// the struct tags.
func TestWriteMatchesMarshalIndent(t *testing.T) {
	t.Parallel()
	large, err := planparse.Parse("large.json", plantest.Large(300))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string][]review.Input{
		"real terraform plan": {{Name: "real", Plan: parseFile(t, "../../planparse/testdata/terraform-real.json")}},
		"story and large":     {{Name: "typo", Environment: "prod", Plan: parseFile(t, "../../examples/plans/aks-gpu-typo.json")}, {Name: "large", Plan: large}},
		"no projects":         nil,
		"characters encoding/json escapes": {{Name: "odd <&> \u2028 é \"q\"", Environment: "prod", Plan: mustParse(t, `{"format_version":"1.2","resource_changes":[
		  {"address":"aws_s3_bucket.b[\"<&>\u2028\\u0001é\"]","type":"aws_s3_bucket","name":"b","change":{"actions":["delete"],"before":{"bucket":"x"}}},
		  {"address":"aws_instance.tiny","type":"aws_instance","name":"tiny","change":{"actions":["create"],"after":{"instance_type":"t4g.nano","tags":{"cost-center":"a"}}}}]}`)}},
	}
	for name, inputs := range tests {
		t.Run(name, func(t *testing.T) {
			got := writeMatchesMarshalIndent(t, review.Build(inputs, review.Options{}))
			reviewtest.ValidateReport(t, name, got)
		})
	}
}

// writeMatchesMarshalIndent checks Write against json.MarshalIndent
// and returns what Write wrote.
func writeMatchesMarshalIndent(t *testing.T, r *review.Report) []byte {
	t.Helper()
	want, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := reportjson.Write(&got, r); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want)+"\n", got.String()); diff != "" {
		t.Errorf("Write differs from MarshalIndent (-want +got):\n%s", diff)
	}
	return got.Bytes()
}

func mustParse(t *testing.T, plan string) *planparse.Plan {
	t.Helper()
	p, err := planparse.Parse("odd.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// chunks records the size of each write and fails after failAfter writes
// (never when failAfter is 0).
type chunks struct {
	sizes     []int
	failAfter int
}

func (c *chunks) Write(p []byte) (int, error) {
	if c.failAfter > 0 && len(c.sizes) == c.failAfter {
		return 0, errors.New("disk full")
	}
	c.sizes = append(c.sizes, len(p))
	return len(p), nil
}

// A large report reaches its writer in pieces of at most about 64 KiB (it
// is never held whole), and a writer's error is Write's.
func TestWriteStreams(t *testing.T) {
	t.Parallel()
	large, err := planparse.Parse("large.json", plantest.Large(2000))
	if err != nil {
		t.Fatal(err)
	}
	r := review.Build([]review.Input{{Name: "large", Plan: large}}, review.Options{})
	var c chunks
	if err := reportjson.Write(&c, r); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, n := range c.sizes {
		total += n
		if n > 72<<10 {
			t.Errorf("a write of %d bytes: the report is gathered instead of streamed", n)
		}
	}
	if len(c.sizes) < 4 {
		t.Errorf("%d bytes in %d writes, want them in pieces", total, len(c.sizes))
	}
	if err := reportjson.Write(&chunks{failAfter: 2}, r); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Write to a failing writer: %v, want its error", err)
	}
}

func parseFile(t *testing.T, path string) *planparse.Plan {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
