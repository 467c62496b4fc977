// Command specgen writes app/githubtest/openapi.json: GitHub's published
// REST description (13 MB, in the shared corpus) cut to the operations the
// fake GitHub serves and to what validating their requests needs. Run it
// with `go generate ./app/githubtest` after adding a route to the fake.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/planwarden/planwarden/app/githubtest"
)

func main() {
	in := flag.String("in", githubtest.SourceSpec(), "GitHub's REST description (api.github.com.json)")
	out := flag.String("out", "openapi.json", "where to write the cut description")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "specgen:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	full, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	cut, err := githubtest.TrimSpec(full, githubtest.ServedOperations())
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	return os.WriteFile(out, append(cut, '\n'), 0o644)
}
