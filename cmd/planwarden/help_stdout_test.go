package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestEveryCommandsHelpGoesToStdout: `planwarden CMD --help` is a question
// answered on standard output with exit 0 (so `| less` works), for every
// command, serve and jobs included; a bad flag is still usage on stderr.
func TestEveryCommandsHelpGoesToStdout(t *testing.T) {
	t.Parallel()
	for name := range commands {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, flag := range []string{"--help", "-h"} {
				var stdout, stderr bytes.Buffer
				code := run([]string{name, flag}, strings.NewReader(""), &stdout, &stderr)
				if code != exitOK {
					t.Errorf("%s %s: exit %d, want 0", name, flag, code)
				}
				if !strings.HasPrefix(stdout.String(), "usage: planwarden "+name) {
					t.Errorf("%s %s: stdout %.80q, want the usage", name, flag, stdout.String())
				}
				if stderr.Len() != 0 {
					t.Errorf("%s %s: stderr %.80q, want nothing", name, flag, stderr.String())
				}
			}
			// The honest twin: a flag nobody defined is a usage error, on stderr.
			var stdout, stderr bytes.Buffer
			if code := run([]string{name, "--no-such-flag"}, strings.NewReader(""), &stdout, &stderr); code != exitUsage {
				t.Errorf("%s --no-such-flag: exit %d, want %d", name, code, exitUsage)
			}
			if stdout.Len() != 0 || !strings.Contains(stderr.String(), "no-such-flag") {
				t.Errorf("%s --no-such-flag: stdout %.80q, stderr %.80q: want the complaint on stderr only", name, stdout.String(), stderr.String())
			}
		})
	}
}
