//go:build testhooks && unix

package main

import (
	"os"
	"syscall"

	appcommand "github.com/planwarden/planwarden/app/command"
	"github.com/planwarden/planwarden/app/sqlite"
)

// A binary built with -tags testhooks (the kill tests build one; releases
// never are) kills itself with SIGKILL when it reaches the step that
// PLANWARDEN_TEST_DIE_AT names, e.g. delivery-marked: after a delivery's
// marks were written and before its job was; destroy-dispatched: after a
// confirmed /destroy-staging's dispatch was sent and before it was
// recorded as sent.
func init() {
	at := os.Getenv("PLANWARDEN_TEST_DIE_AT")
	if at == "" {
		return
	}
	die := func(step string) error {
		if step == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		return nil
	}
	sqlite.SetTestHook(die)
	appcommand.SetTestHook(die)
}
