// Package reviewtest checks JSON reports against the report's JSON Schema
// (review/report.schema.json), for the tests of every package that writes one.
package reviewtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/planwarden/planwarden/review"
)

var (
	compileOnce sync.Once
	compiled    *jsonschema.Schema
	compileErr  error
)

func reportSchema() (*jsonschema.Schema, error) {
	compileOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(review.JSONSchema()))
		if err != nil {
			compileErr = fmt.Errorf("report schema is not JSON: %w", err)
			return
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(review.ReportSchemaID, doc); err != nil {
			compileErr = err
			return
		}
		compiled, compileErr = c.Compile(review.ReportSchemaID)
	})
	return compiled, compileErr
}

// ReportError returns why report (JSON bytes) does not fit the report's
// schema, or nil when it does.
func ReportError(report []byte) error {
	s, err := reportSchema()
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(report))
	if err != nil {
		return fmt.Errorf("report is not JSON: %w", err)
	}
	return s.Validate(doc)
}

// ValidateReport fails t when report does not fit the schema; name says
// which report it was.
func ValidateReport(t testing.TB, name string, report []byte) {
	t.Helper()
	if err := ReportError(report); err != nil {
		var v any
		_ = json.Unmarshal(report, &v)
		t.Errorf("%s: the JSON report does not fit review/report.schema.json: %v", name, err)
	}
}
