package comment

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
	"github.com/planwarden/planwarden/review"
)

// shrunkDigests pins, by SHA-256, the comment and the check run's summary
// and text of generated plans too large to show whole: which findings, GPU
// rows, endpoints, unpriced items, table rows and diffs fit, and the lines
// saying what was left out. The sections are rendered only as far as they
// are printed; any change to what fits changes a digest. A mismatch writes
// the body it got beside the test's temporary files for a diff.
const shrunkDigests = "testdata/shrunk/digests.json"

func TestShrunkOutputIsStable(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("parses generated plans of up to 20,000 changes")
	}
	type gen struct {
		name string
		data func(int) []byte
		n    int
	}
	cases := map[string][]gen{
		"fleet-40":            {{"fleet", plantest.Large, 40}},
		"fleet-400":           {{"fleet", plantest.Large, 400}},
		"fleet-20000":         {{"fleet", plantest.Large, 20000}},
		"clusters-40":         {{"clusters", plantest.Clusters, 40}},
		"clusters-3000":       {{"clusters", plantest.Clusters, 3000}},
		"two-projects-1500":   {{"fleet", plantest.Large, 1500}, {"clusters", plantest.Clusters, 1500}},
		"three-projects-9000": {{"a", plantest.Clusters, 200}, {"b", plantest.Large, 9000}, {"c", plantest.Clusters, 600}},
	}
	got := map[string]string{}
	for name, gens := range cases {
		var inputs []review.Input
		for _, g := range gens {
			plan, err := planparse.Parse(g.name+".json", g.data(g.n))
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, review.Input{Name: g.name, Environment: "prod", Plan: plan})
		}
		r := review.Build(inputs, review.Options{DigestKey: []byte("planwarden golden files")})
		opt := Options{Marker: true, HeadSHA: "abcdef1", PlanTime: t0, DetailsURL: "https://github.com/acme/ml/runs/1"}
		c := CheckOutput(r, opt)
		for part, body := range map[string]string{"comment": Render(r, opt), "check-summary": c.Summary, "check-text": c.Text} {
			key := name + "/" + part
			sum := sha256.Sum256([]byte(body))
			got[key] = hex.EncodeToString(sum[:])
			if !*update {
				if err := os.WriteFile(filepath.Join(os.TempDir(), "planwarden-shrunk-"+name+"-"+part+".md"), []byte(body), 0o644); err != nil {
					t.Log(err)
				}
			}
		}
	}
	if *update {
		data, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(shrunkDigests, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(shrunkDigests)
	if err != nil {
		t.Fatalf("%v (run go test ./comment -run TestShrunkOutputIsStable -update)", err)
	}
	var want map[string]string
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("%s: %v", shrunkDigests, err)
	}
	for key, sum := range got {
		if want[key] != sum {
			t.Errorf("%s: digest %s, want %s: the shrunk output changed (the body is in %s); rerun with -update if intended",
				key, sum, want[key], filepath.Join(os.TempDir(), "planwarden-shrunk-*.md"))
		}
	}
	if len(want) != len(got) {
		t.Errorf("%s has %d digests, the test makes %d", shrunkDigests, len(want), len(got))
	}
}
