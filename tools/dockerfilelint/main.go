// Command dockerfilelint checks a Dockerfile with BuildKit's own lint rules
// (those `docker build --check` runs while parsing), plus four that an image
// of a service should keep: every base image pinned to a tag or digest (no
// implicit or explicit :latest), a final stage that runs as a non-root USER,
// an ENTRYPOINT in JSON form, and every VOLUME of the final stage owned by
// that USER (a directory COPY --chown'd to the volume's path: a fresh named
// volume copies the image's directory, owner included, and a root-owned
// one leaves the service unable to write its state). It prints file:line: rule: message and exits
// 1 when there is any finding. `make lint` runs it on the repo's Dockerfile.
package main

import (
	"fmt"
	"os"
	"path"
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

func lint(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	res, err := parser.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var findings []string
	add := func(line int, rule, msg string) {
		findings = append(findings, fmt.Sprintf("%s:%d: %s: %s", file, line, rule, msg))
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
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(stages) == 0 {
		return nil, fmt.Errorf("%s: no FROM instruction", file)
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
	// Each volume with the --chown of the COPY that made its directory
	// before VOLUME (what a step changes there after VOLUME is discarded).
	type volume struct {
		dir, chown string
		line       int
	}
	var volumes []volume
	owned := map[string]string{} // path -> the --chown of the COPY that made it
	for _, c := range final.Commands {
		switch c := c.(type) {
		case *instructions.VolumeCommand:
			for _, dir := range c.Volumes {
				volumes = append(volumes, volume{dir, owned[path.Clean(dir)], c.Location()[0].Start.Line})
			}
		case *instructions.CopyCommand:
			if c.Chown != "" {
				owned[path.Clean(c.DestPath)] = c.Chown
			}
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
	for _, v := range volumes {
		if !sameUser(v.chown, user) {
			add(v.line, "VolumeOwnedByUser", fmt.Sprintf("VOLUME %s is not owned by the final stage's USER %q, who then cannot write to a fresh volume; create the directory in the build stage and COPY --chown=%s it to %s before VOLUME", v.dir, user, orDefault(user, "nonroot:nonroot"), v.dir))
		}
	}
	return findings, nil
}

// knownUIDs are the accounts of the distroless images, by name.
var knownUIDs = map[string]string{"nonroot": "65532", "root": "0"}

// sameUser reports whether a --chown names the user USER names (by name
// or by a distroless account's uid).
func sameUser(chown, user string) bool {
	u := func(s string) string {
		s, _, _ = strings.Cut(s, ":")
		if id, ok := knownUIDs[s]; ok {
			return id
		}
		return s
	}
	return user != "" && u(chown) == u(user)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
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
