package rules

import (
	"path"
	"strings"
)

// projectInDirectory finds the declared project whose directory is dir
// (a Terragrunt unit's path, as its run-all output or --json-out-dir tree
// names it), else the one project whose directory ends in it: Terragrunt
// names units relative to where it ran, the config relative to the repo.
func (c *Config) projectInDirectory(dir string) (ProjectConfig, bool) {
	d := strings.Trim(path.Clean("/"+dir), "/")
	if d == "" || strings.ContainsAny(dir, "#") {
		return ProjectConfig{}, false
	}
	var found []ProjectConfig
	for _, p := range c.Projects {
		pd := strings.Trim(path.Clean("/"+p.Directory), "/")
		switch {
		case p.Directory == "":
		case pd == d:
			return p, true
		case strings.HasSuffix(pd, "/"+d):
			found = append(found, p)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return ProjectConfig{}, false
}
