package trust

import "github.com/planwarden/planwarden/rules"

// NoPlanNeeded reports whether a pull request may pass without a plan:
// GitHub listed every file it changes (ch.Complete) and each one matches
// a glob of cfg's no_plan_paths (rules.Config.NoPlanGlobs: documentation
// by default). Whether a file belongs to a project decides nothing here:
// a root module reads files outside its directory (modules, var files),
// so every other pull request waits for the trusted plan workflow. A pull
// request that changes no file at all needs no plan.
func NoPlanNeeded(cfg *rules.Config, ch Changes) bool {
	if !ch.Complete {
		return false
	}
	globs := cfg.NoPlanGlobs()
	for _, f := range ch.Files {
		if !matchAny(globs, f) {
			return false
		}
	}
	return true
}
