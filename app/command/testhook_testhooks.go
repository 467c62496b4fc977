//go:build testhooks

package command

// SetTestHook sets the function called at named steps (the kill tests of
// cmd/planwarden build the binary with -tags testhooks), e.g.
// destroy-dispatched: after a confirmed /destroy-staging's dispatch was
// sent and before it was recorded as sent. Release builds have no such
// function.
func SetTestHook(f func(step string) error) { testHook = f }
