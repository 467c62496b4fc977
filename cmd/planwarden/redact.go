package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/planwarden/planwarden/planparse"
)

func init() {
	commands["redact"] = command{summary: "write a plan JSON with every sensitive or secret-looking value replaced (upload this, not the raw plan)", run: runRedact}
}

const redactUsage = `usage: planwarden redact PLAN.json > plan.redacted.json

Writes PLAN.json (terraform show -json output, or an ARM what-if result;
- reads standard input) to
standard output with every value a sensitivity mark covers, and every
value, map key and for_each key that looks like a secret, replaced by
"(sensitive) " and a digest, and every other text the review would not
show (scripts, commands, connection strings, messages) by
"(redacted text, N lines, ...)": what the review says of it and no more.
Structure, marks and unknowns are kept, so planwarden reviews the redacted
plan as it reviews the original. Upload the
redacted plan as the CI artifact: terraform writes sensitive values into
the JSON in clear text, and anyone who can read the repository can
download an artifact.

Exit status: 0 written, 2 bad usage or unreadable input.
`

func runRedact(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("redact", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, redactUsage)
		return exitOK
	} else if err != nil {
		fmt.Fprintf(stderr, "planwarden redact: %v\n%s", err, redactUsage)
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "planwarden redact: give exactly one plan file (%d given)\n%s", fs.NArg(), redactUsage)
		return exitUsage
	}
	f := fs.Arg(0)
	data, err := readPlanFile(f, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "planwarden redact: read %s: %v\n", f, errors.Unwrap(err))
		return exitUsage
	}
	out, err := planparse.Redact(displayName(f), data)
	if err != nil {
		fmt.Fprintf(stderr, "planwarden redact: %v\n", err)
		return exitUsage
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "planwarden redact: write: %v\n", err)
		return exitUsage
	}
	return exitOK
}
