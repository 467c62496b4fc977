package review

// GenerateSchemaForTest exposes the schema generator to the external test.
var GenerateSchemaForTest = generateSchema

// ChangeRowsFastForTest says whether WriteJSON writes change rows without reflection.
var ChangeRowsFastForTest = changeRowsFast
