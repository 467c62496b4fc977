package rules

import (
	"errors"
	"testing"
)

// FuzzParseConfig: any bytes either parse or give a *ConfigError whose
// every problem has a line; nothing panics.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(everyKey))
	f.Add([]byte("version: 1\nrules:\n  iam-admin: {severity: block\n"))
	f.Add([]byte("version: 1\nenvironments:\n  prod: &p {protected: true}\n  dev:\n    <<: *p\n"))
	f.Add([]byte("- 1\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig("f.yml", data)
		if err == nil {
			if c == nil || c.Version != 1 {
				t.Fatalf("parsed config %+v without version 1", c)
			}
			c.Evaluate([]Project{{Name: "p", Environment: "prod"}}, nil)
			return
		}
		var ce *ConfigError
		if !errors.As(err, &ce) || len(ce.Problems) == 0 {
			t.Fatalf("error %T %v is not a *ConfigError with problems", err, err)
		}
		for _, p := range ce.Problems {
			if p.Line < 1 || p.Message == "" {
				t.Fatalf("problem %+v lacks a line or a message", p)
			}
		}
	})
}
