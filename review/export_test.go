package review

// GenerateSchemaForTest exposes the schema generator to the external test.
var GenerateSchemaForTest = generateSchema
