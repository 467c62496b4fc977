package rules

import (
	_ "embed"
)

//go:generate go test -run TestSchemaIsUpToDate -update .

// schemaFile is the committed JSON Schema of the config, generated from
// the Go types by generateSchema (TestSchemaIsUpToDate keeps it in step).
//
//go:embed planwarden.schema.json
var schemaFile []byte

// JSONSchema returns the JSON Schema (draft-07) of the config file, for
// editors: point yaml-language-server at it with
// `# yaml-language-server: $schema=<url of planwarden.schema.json>`.
// The schema checks shapes, keys and enumerations; ParseConfig also checks
// references between sections (environments, rule ids) and CEL.
func JSONSchema() []byte { return append([]byte(nil), schemaFile...) }

// SchemaID is the $id of the JSON Schema.
const SchemaID = "https://raw.githubusercontent.com/planwarden/planwarden/main/rules/planwarden.schema.json"
