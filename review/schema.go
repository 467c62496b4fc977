package review

import (
	_ "embed"
)

// SchemaVersion is the version of the JSON report's shape, written as the
// report's schema_version. It grows when a field changes meaning or goes
// away; adding a field does not change it.
const SchemaVersion = 1

// ReportSchemaID is the $id of the report's JSON Schema.
const ReportSchemaID = "https://raw.githubusercontent.com/planwarden/planwarden/main/review/report.schema.json"

//go:embed report.schema.json
var reportSchema []byte

// JSONSchema returns the JSON Schema (draft 2020-12) of the JSON report that
// reportjson.Write writes, generated from Report's Go types and committed as
// review/report.schema.json. Every object is closed (additionalProperties
// false), so a report with a field the schema does not know fails it.
func JSONSchema() []byte { return append([]byte(nil), reportSchema...) }
