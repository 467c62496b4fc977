package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/planwarden/planwarden/planparse"
)

func init() {
	commands["redact"] = command{summary: "write a plan JSON with every sensitive or secret-looking value replaced (upload this, not the raw plan)", run: runRedact}
}

const redactUsage = `usage: planwarden redact PLAN.json > plan.redacted.json

Writes PLAN.json (terraform show -json output, a Terragrunt run-all output
of them, an ARM or Deployment Stacks what-if result, or a Pulumi preview;
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
	if err != nil && (errors.Is(err, planparse.ErrNotJSON) || errors.Is(err, planparse.ErrNotPlan)) {
		if units, ok := planparse.SplitUnits(data); ok {
			out, err = redactUnits(displayName(f), units)
		}
	}
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

// redactUnits redacts each plan of a Terragrunt run-all output (parsePlans
// reads them so) and writes them as review reads them back: documents one
// after another, or, when the output named the units' directories, one
// stdout log line a unit with its directory. Terragrunt's own log lines
// are left out, as review leaves them out.
func redactUnits(file string, units []planparse.Unit) ([]byte, error) {
	var out bytes.Buffer
	for i, u := range units {
		where := u.Dir
		if where == "" {
			where = strconv.Itoa(i + 1)
		}
		red, err := planparse.Redact(file+"#"+planparse.ShownName(where), u.Data)
		if err != nil {
			return nil, fmt.Errorf("%w (unit %d of %d in a Terragrunt run-all output)", err, i+1, len(units))
		}
		red = bytes.TrimSuffix(red, []byte("\n"))
		if u.Dir == "" {
			out.Write(red)
			out.WriteByte('\n')
			continue
		}
		line, err := json.Marshal(struct {
			Level string `json:"level"`
			Dir   string `json:"working-dir"`
			Msg   string `json:"msg"`
		}{"stdout", u.Dir, string(red)})
		if err != nil {
			return nil, fmt.Errorf("redact %s: encode unit %d: %w", file, i+1, err)
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}
