package comment

import (
	"testing"

	"github.com/planwarden/planwarden/rules"
)

func parseConfig(t testing.TB, yaml string) *rules.Config {
	t.Helper()
	t.Fatal("case configs need rules.ParseConfig")
	return nil
}
