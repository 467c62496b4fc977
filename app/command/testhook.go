package command

// testHook, when set (binaries built with -tags testhooks: the kill tests
// of cmd/planwarden), is called at named steps; an error fails the step.
var testHook func(step string) error

func step(name string) error {
	if testHook == nil {
		return nil
	}
	return testHook(name)
}
