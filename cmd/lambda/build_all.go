//go:build !receiver && !worker

package main

// builtRole: built without a role tag, the binary takes either role.
const builtRole = roleAll
