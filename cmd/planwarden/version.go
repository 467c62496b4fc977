package main

import (
	"fmt"
	"runtime/debug"
)

// version is set by release builds (-ldflags "-X main.version=v1.2.3",
// .goreleaser.yaml); a source build reads its module version instead.
var version string

// versionString says which build this is: the module version (a release tag,
// or "(devel)" for a source build), the commit and whether the tree had
// uncommitted changes, and the Go version, all from the binary's build info.
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "planwarden (no build information)"
	}
	return formatVersion(info)
}

func formatVersion(info *debug.BuildInfo) string {
	v := info.Main.Version
	if version != "" {
		v = version
	}
	if v == "" {
		v = "(devel)"
	}
	var commit, when, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	out := "planwarden " + v
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		out += fmt.Sprintf(" (commit %s%s", commit, modified)
		if when != "" {
			out += ", " + when
		}
		out += ")"
	}
	return out + " " + info.GoVersion
}
