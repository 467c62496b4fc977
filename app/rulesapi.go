package app

import (
	"errors"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// What app needs of the rules package's repo config, in one place.

// configPaths are where a repo keeps its config, tried in order.
var configPaths = rules.ConfigPaths

func parseConfig(file string, data []byte) (*rules.Config, error) {
	return rules.ParseConfig(file, data)
}

// configAnnotations puts each config problem on its line of the file.
func configAnnotations(err error) []record.Annotation {
	var ce *rules.ConfigError
	if !errors.As(err, &ce) {
		return nil
	}
	var out []record.Annotation
	for _, p := range ce.Problems {
		out = append(out, record.Annotation{
			Path: ce.File, StartLine: max(p.Line, 1), EndLine: max(p.Line, 1),
			Level: "failure", Title: "planwarden config", Message: p.Message,
		})
	}
	return out
}
