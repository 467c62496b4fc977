// Command dockerfilelint checks a Dockerfile with BuildKit's own lint rules
// (those `docker build --check` runs while parsing), plus three that an image
// of a service should keep: every base image pinned to a tag or digest (no
// implicit or explicit :latest), a final stage that runs as a non-root USER,
// and an ENTRYPOINT in JSON form. It prints file:line: rule: message and exits
// 1 when there is any finding. `make lint` runs it on the repo's Dockerfile.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/linter"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: dockerfilelint Dockerfile")
		os.Exit(2)
	}
	findings, err := lint(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "dockerfilelint:", err)
		os.Exit(2)
	}
	for _, f := range findings {
		fmt.Println(f)
	}
	if len(findings) > 0 {
		os.Exit(1)
	}
}

func lint(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	res, err := parser.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var findings []string
	add := func(line int, rule, msg string) {
		findings = append(findings, fmt.Sprintf("%s:%d: %s: %s", path, line, rule, msg))
	}
	for _, w := range res.Warnings {
		line := 0
		if w.Location != nil {
			line = w.Location.Start.Line
		}
		add(line, "parser", w.Short)
	}
	lt := linter.New(&linter.Config{Warn: func(rule, _, _, msg string, loc []parser.Range) {
		line := 0
		if len(loc) > 0 {
			line = loc[0].Start.Line
		}
		add(line, rule, msg)
	}})
	stages, _, err := instructions.Parse(res.AST, lt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(stages) == 0 {
		return nil, fmt.Errorf("%s: no FROM instruction", path)
	}
	names := map[string]bool{}
	for _, s := range stages {
		line := 0
		if len(s.Location) > 0 {
			line = s.Location[0].Start.Line
		}
		if !names[s.BaseName] && s.BaseName != "scratch" && !pinned(s.BaseName) {
			add(line, "PinnedBaseImage", fmt.Sprintf("base image %q has no tag or digest; pin it (name:tag or name@sha256:...)", s.BaseName))
		}
		if s.Name != "" {
			names[s.Name] = true
		}
	}
	final := stages[len(stages)-1]
	user, entry := "", false
	for _, c := range final.Commands {
		switch c := c.(type) {
		case *instructions.UserCommand:
			user = c.User
		case *instructions.EntrypointCommand:
			entry = true
			if !c.PrependShell {
				continue
			}
			add(c.Location()[0].Start.Line, "EntrypointJSONForm", "ENTRYPOINT in shell form runs under /bin/sh and does not get signals; use the JSON form")
		}
	}
	finalLine := final.Location[0].Start.Line
	if u := strings.SplitN(user, ":", 2)[0]; u == "" || u == "root" || u == "0" {
		add(finalLine, "NonRootUser", "the final stage runs as root; add USER with a non-root user (for example nonroot or 65532)")
	}
	if !entry {
		add(finalLine, "EntrypointJSONForm", "the final stage has no ENTRYPOINT")
	}
	return findings, nil
}

// pinned reports whether an image reference names a tag other than latest,
// or a digest.
func pinned(ref string) bool {
	if strings.Contains(ref, "@sha256:") {
		return true
	}
	name := ref[strings.LastIndex(ref, "/")+1:]
	_, tag, ok := strings.Cut(name, ":")
	return ok && tag != "" && tag != "latest"
}
