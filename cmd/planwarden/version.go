package main

import (
	"fmt"
	"runtime/debug"
)

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
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
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
	out := "planwarden " + version
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
