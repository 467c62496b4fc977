package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/planwarden/planwarden/rules"
)

func init() {
	commands["init"] = command{summary: "find the repository's Terraform root modules and Bicep entry points; write the repo config and a plan workflow for them", run: runInit}
}

const initUsage = `usage: planwarden init [--dry-run] [--force] [DIR]

Finds the projects of the repository at DIR (default: the current
directory): Terraform root modules (directories whose .tf files hold a
backend, cloud or provider block, and that no other root calls as a
module) and Bicep entry points (main.bicep). It writes

  .github/planwarden.yml                 the repo config declaring them: each
                                         project's directory, its paths (the
                                         directory and the local modules it
                                         calls) and its environment, read from
                                         its path (prod, staging, dev), else a
                                         comment saying to set it (until then
                                         it is judged as strictly as prod)
  .github/workflows/planwarden-plan.yml  the plan workflow: plans each project
                                         on every pull request and uploads the
                                         redacted plan as planwarden-<project>

Both pass planwarden validate and actionlint. Review them, commit them, and
make the planwarden check required (docs/github-app.md).

  --dry-run  print both files instead of writing them
  --force    replace files that exist (without it, init refuses)

Exit status: 0 written (or printed), 2 nothing found, a file exists, or bad usage.
`

func runInit(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dryRun := fs.Bool("dry-run", false, "print instead of writing")
	force := fs.Bool("force", false, "replace existing files")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, initUsage)
			return exitOK
		}
		fmt.Fprintf(stderr, "planwarden init: %v\n%s", err, initUsage)
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "planwarden init: "+format+"\n", a...)
		return exitUsage
	}
	if len(rest) > 1 {
		return fail("give one repository directory, not %d", len(rest))
	}
	root := "."
	if len(rest) == 1 {
		root = rest[0]
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return fail("%s is not a directory", root)
	}
	projects, err := scanRepo(root)
	if err != nil {
		return fail("%v", err)
	}
	if len(projects) == 0 {
		return fail("found no Terraform root module (a directory whose .tf files hold a backend or provider block) and no main.bicep under %s; run it in the repository's root, or write %s by hand (docs/config.md)", root, rules.ConfigPath)
	}
	files := []struct{ path, content string }{
		{rules.ConfigPath, renderConfig(projects)},
		{rules.DefaultPlanWorkflow, renderWorkflow(projects)},
	}
	// A config init writes must be one planwarden reads: a failure here
	// is init's own bug, never the user's to fix.
	if _, err := rules.ParseConfig(rules.ConfigPath, []byte(files[0].content)); err != nil {
		return fail("the config init made is not valid (a bug; please report it): %v", err)
	}
	if !*dryRun {
		var exist []string
		for _, f := range []string{rules.ConfigPath, rules.AltConfigPath, rules.DefaultPlanWorkflow} {
			if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); err == nil {
				exist = append(exist, f)
			}
		}
		if len(exist) > 0 && !*force {
			return fail("%s already in %s: pass --force to replace, or --dry-run to see what init would write", strings.Join(exist, " and "), root)
		}
	}
	for _, p := range projects {
		env := "environment " + p.env
		if p.envGuessed {
			env = "no environment in its path: set it in the config; until then it is judged as prod"
		}
		fmt.Fprintf(stderr, "found %s project %s in %s (%s)\n", p.tool, p.name, orDot(p.dir), env)
	}
	if *dryRun {
		for _, f := range files {
			fmt.Fprintf(stdout, "# ---- %s ----\n%s", f.path, f.content)
		}
		return exitOK
	}
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fail("%v", err)
		}
		if err := os.WriteFile(p, []byte(f.content), 0o644); err != nil {
			return fail("write %s: %v", p, errors.Unwrap(err))
		}
		fmt.Fprintf(stdout, "wrote %s\n", p)
	}
	fmt.Fprintf(stdout, "Next: planwarden validate, review the environments, commit both files, and make the planwarden check required (docs/github-app.md).\n")
	return exitOK
}

func orDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
