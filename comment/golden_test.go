package comment

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

var update = flag.Bool("update", false, "rewrite the golden .md files from the current output")

// goldenCase is the pipeline input of one golden file: plans (inline or by
// path, relative to testdata) run through planparse.Parse, review.Build and
// Render.
type goldenCase struct {
	Config    string           `json:"config"`
	Overrides []rules.Override `json:"overrides"`
	Options   struct {
		Marker     bool      `json:"marker"`
		HeadSHA    string    `json:"head_sha"`
		PlanTime   time.Time `json:"plan_time"`
		DetailsURL string    `json:"details_url"`
	} `json:"options"`
	Projects []struct {
		Name        string          `json:"name"`
		Environment string          `json:"environment"`
		Plan        json.RawMessage `json:"plan"`
		PlanFile    string          `json:"plan_file"`
	} `json:"projects"`
}

// loadCase runs a case file through the pipeline.
func loadCase(t testing.TB, path string) (*review.Report, Options) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c goldenCase
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var inputs []review.Input
	for _, p := range c.Projects {
		data, name := []byte(p.Plan), p.Name+".json"
		if p.PlanFile != "" {
			if data, err = os.ReadFile(filepath.Join(filepath.Dir(path), p.PlanFile)); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			name = filepath.Base(p.PlanFile)
		}
		plan, err := planparse.Parse(name, data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		inputs = append(inputs, review.Input{Name: p.Name, Environment: p.Environment, Plan: plan})
	}
	opt := review.Options{Overrides: c.Overrides, DigestKey: []byte("planwarden golden files")}
	if c.Config != "" {
		opt.Config = parseConfig(t, c.Config)
	}
	o := Options{Marker: c.Options.Marker, HeadSHA: c.Options.HeadSHA, PlanTime: c.Options.PlanTime, DetailsURL: c.Options.DetailsURL}
	return review.Build(inputs, opt), o
}

func TestGolden(t *testing.T) {
	t.Parallel()
	cases, err := filepath.Glob("testdata/*.json")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, path := range cases {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			r, opt := loadCase(t, path)
			got := Render(r, opt)
			checkBody(t, got, opt)
			compareGolden(t, strings.TrimSuffix(path, ".json")+".md", got)

			c := CheckOutput(r, opt)
			if len(c.Summary) > MaxCheckBytes || len(c.Text) > MaxCheckBytes || len(c.Annotations) > MaxAnnotations {
				t.Errorf("check output over the limits: summary %d, text %d, %d annotations", len(c.Summary), len(c.Text), len(c.Annotations))
			}
			checkStructure(t, c.Summary, opt.DetailsURL)
			checkStructure(t, c.Text, opt.DetailsURL)
			check := "Conclusion: " + c.Conclusion + "\n\nTitle: " + c.Title + "\n\n---\n" + c.Summary + "\n---\n" + c.Text
			compareGolden(t, strings.TrimSuffix(path, ".json")+".check.md", check)
		})
	}
}

// processDigest is the digest of a hidden map or instance key, keyed per
// process (planparse keyText): golden files write it as ########.
var processDigest = regexp.MustCompile(`\(sensitive\) [0-9a-f]{8}`)

// compareGolden compares got with the golden file (or rewrites it with -update).
func compareGolden(t *testing.T, golden, got string) {
	t.Helper()
	got = processDigest.ReplaceAllString(got, "(sensitive) ########")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./comment -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs from the golden file (-want +got); rerun with -update if intended:\n%s", golden, diff)
	}
}

// checkBody asserts what must hold for every rendered comment.
func checkBody(t reporter, body string, opt Options) {
	t.Helper()
	if len(body) > MaxCommentBytes {
		t.Errorf("body is %d bytes, over %d", len(body), MaxCommentBytes)
	}
	m, ok := ParseMarker(body)
	if ok != opt.Marker {
		t.Errorf("ParseMarker found=%v, want %v", ok, opt.Marker)
	}
	if ok && opt.HeadSHA != "" && m.HeadSHA != strings.ToLower(opt.HeadSHA) {
		t.Errorf("marker sha %q, want %q", m.HeadSHA, opt.HeadSHA)
	}
	checkStructure(t, body, opt.DetailsURL)
}

// TestGoldenFilesParse checks the committed golden files themselves, so a
// hand-edited or stale golden file with broken structure is caught too.
func TestGoldenFilesParse(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/*.md")
	if len(files) == 0 {
		t.Fatal("no golden files; run go test ./comment -update")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) { checkStructure(t, string(b), "https://github.com/acme/ml-infra/runs/123456789") })
	}
}
