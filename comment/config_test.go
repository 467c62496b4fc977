package comment

import (
	"testing"

	"github.com/planwarden/planwarden/rules"
)

// parseConfig reads a case's inline repo config.
func parseConfig(t testing.TB, yaml string) *rules.Config {
	t.Helper()
	c, err := rules.ParseConfig(".github/planwarden.yml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
