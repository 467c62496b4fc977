package review_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
	"github.com/planwarden/planwarden/review/reviewtest"
)

var updateSchema = flag.Bool("update-schema", false, "rewrite review/report.schema.json from the Go types")

func TestReportSchemaIsGenerated(t *testing.T) {
	t.Parallel()
	got := review.GenerateSchemaForTest()
	if *updateSchema {
		if err := os.WriteFile("report.schema.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got, review.JSONSchema()) {
		t.Errorf("review/report.schema.json is not what the Go types give; run: go test ./review -run TestReportSchemaIsGenerated -update-schema")
	}
}

func TestReportSchemaValidatesReports(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"../examples/plans/aks-gpu-typo.json", "../examples/plans/sagemaker-rename.json", "../examples/plans/a100-scale-out.json", "../examples/plans/bucket-lifecycle.json"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := planparse.Parse(f, data)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		r := review.Build([]review.Input{{Name: "p", Environment: "prod", Plan: p}}, review.Options{})
		if r.SchemaVersion != review.SchemaVersion {
			t.Errorf("%s: schema_version %d, want %d", f, r.SchemaVersion, review.SchemaVersion)
		}
		if err := reportjson.Write(&out, r); err != nil {
			t.Fatal(err)
		}
		reviewtest.ValidateReport(t, f, out.Bytes())
	}
}

func TestReportSchemaRejectsWrongReports(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"unknown verdict":          `{"schema_version":1,"verdict":"maybe","totals":{"hourly_before":null,"hourly_after":null,"hourly_delta":null,"max_hourly_after":null,"unpriced_count":0},"projects":[],"overrides":[]}`,
		"a figure as a string":     `{"schema_version":1,"verdict":"pass","totals":{"hourly_before":"0","hourly_after":null,"hourly_delta":null,"max_hourly_after":null,"unpriced_count":0},"projects":[],"overrides":[]}`,
		"a field it does not know": `{"schema_version":1,"verdict":"pass","bonus":1,"totals":{"hourly_before":null,"hourly_after":null,"hourly_delta":null,"max_hourly_after":null,"unpriced_count":0},"projects":[],"overrides":[]}`,
		"no totals":                `{"schema_version":1,"verdict":"pass","projects":[],"overrides":[]}`,
	}
	for name, doc := range cases {
		if err := reviewtest.ReportError([]byte(doc)); err == nil {
			t.Errorf("%s: the schema accepted %s", name, doc)
		}
	}
}

// TestReportSchemaOverTheCorpus reviews every plan of the shared corpus and
// checks each JSON report against the schema.
func TestReportSchemaOverTheCorpus(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../shared/corpus/plans/*/*.json")
	more, _ := filepath.Glob("../../shared/corpus/plans/*.json")
	files = append(files, more...)
	if len(files) == 0 {
		t.Skip("../shared/corpus/plans is absent (a user's clone has none); the examples are checked above")
	}
	checked := 0
	for _, f := range files {
		if filepath.Base(f) == "INDEX.json" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := planparse.Parse(f, data)
		if err != nil {
			continue // the deliberately broken plans; planparse tests their errors
		}
		var out bytes.Buffer
		if err := reportjson.Write(&out, review.Build([]review.Input{{Name: "p", Plan: p}}, review.Options{})); err != nil {
			t.Fatal(err)
		}
		reviewtest.ValidateReport(t, f, out.Bytes())
		checked++
	}
	if checked < 400 {
		t.Errorf("checked %d corpus reports, expected over 400 of the corpus's plans", checked)
	}
}
