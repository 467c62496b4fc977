package porttest_test

import (
	"testing"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
)

// The DynamoDB Store runs the same suite in app/aws (on moto).
func TestMemoryStore(t *testing.T) {
	porttest.RunStore(t, func(*testing.T) port.Store { return porttest.NewMemoryStore(nil) })
}
