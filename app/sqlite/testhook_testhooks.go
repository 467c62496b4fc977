//go:build testhooks

package sqlite

// SetTestHook sets the function called at named steps (the kill tests of
// cmd/planwarden build the binary with -tags testhooks); an error fails
// the step. Release builds have no such function.
func SetTestHook(f func(step string) error) { testHook = f }
