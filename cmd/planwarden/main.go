// Command planwarden reviews Terraform/OpenTofu plans: `review` prints the
// review of plan files, `validate` checks a repo config, `redact` writes a
// plan without its secrets (the one to upload from CI), `serve` runs the
// GitHub App.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// Exit codes of the CLI contract.
const (
	exitOK    = 0 // verdict pass or warn
	exitFail  = 1 // verdict fail
	exitUsage = 2 // bad usage or unreadable input
)

// command is one subcommand; each registers itself from its own file.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(stdout)
		return exitOK
	case "--version", "-version", "version":
		fmt.Fprintln(stdout, versionString())
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "planwarden: unknown command %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return cmd.run(args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: planwarden <command> [flags]    (planwarden --version prints the version)")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
}
