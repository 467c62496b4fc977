package planparse

import "strings"

// ModuleCall is a module block of the plan's configuration
// (configuration.root_module.module_calls, and theirs in turn).
type ModuleCall struct {
	// Address is the call's module address: module.gpu, or
	// module.gpu.module.pool for a call inside module.gpu.
	Address string
	// Caller is the address of the module that holds the call: "" for the
	// root module.
	Caller string
	// Source is the call's source when it is a local path (./x, ../x),
	// relative to the caller's directory; "" for any other source (a
	// registry or remote address, which may hold credentials in its URL
	// and is not kept).
	Source string
}

// ModuleCalls lists the configuration's module calls, each call before
// the calls inside it, siblings by name; nil when the plan has no
// configuration.
func (p *Plan) ModuleCalls() []ModuleCall { return p.config().moduleCalls }

// moduleCall is the call name made in the module whose address prefix
// (module.a.module.b.) is prefix.
func moduleCall(prefix, name, source string) ModuleCall {
	if !strings.HasPrefix(source, "./") && !strings.HasPrefix(source, "../") {
		source = ""
	}
	return ModuleCall{Address: prefix + "module." + name, Caller: strings.TrimSuffix(prefix, "."), Source: source}
}
