package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/planwarden/planwarden/rules"
)

// reportValidated runs the first-day checks (rules.Lint) on a config that
// parsed, prints them and the summary, and returns the exit status: 2 when
// a check found an error, else 0 (warnings do not fail). file is the
// config's path ("<stdin>": its bytes are on stdin again).
func reportValidated(stdout, stderr io.Writer, file, repo string, cfg *rules.Config, stdin io.Reader) int {
	var data []byte
	var err error
	if file == "<stdin>" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		fmt.Fprintf(stderr, "planwarden validate: read %s: %v\n", file, err)
		return exitUsage
	}
	if repo == "" {
		repo = repoRootOf(file)
	}
	errs, warns := rules.Lint(cfg, data, rules.LintOptions{Dir: repoDir(repo)})
	for _, w := range warns {
		fmt.Fprintf(stderr, "%s:%d: warning: %s\n", file, w.Line, w.Message)
	}
	if len(errs) > 0 {
		fmt.Fprintln(stderr, (&rules.ConfigError{File: file, Problems: errs}).Error())
		fmt.Fprintf(stderr, "planwarden validate: %s: %d %s\n", file, len(errs), plural(len(errs), "problem", "problems"))
		return exitUsage
	}
	warnModulesOutsidePaths(cfg, os.DirFS(repo), stderr)
	summary := summarize(cfg)
	if len(warns) > 0 {
		summary += ", " + countOf(len(warns), "warning", "warnings")
	}
	fmt.Fprintf(stdout, "%s: ok (%s)\n", file, summary)
	return exitOK
}

// repoRootOf is the repository a config file belongs to: the directory
// holding .github/ for .github/planwarden.yml, the file's directory for
// .planwarden.yml, else the current directory.
func repoRootOf(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "."
	}
	dir := filepath.Dir(abs)
	switch {
	case filepath.Base(dir) == ".github" && filepath.Base(abs) == filepath.Base(rules.ConfigPath):
		return filepath.Dir(dir)
	case filepath.Base(abs) == rules.AltConfigPath:
		return dir
	}
	return "."
}

// repoDir answers rules.LintOptions.Dir from the file system under root.
func repoDir(root string) func(string) (bool, []string) {
	return func(dir string) (bool, []string) {
		p := filepath.Join(root, filepath.FromSlash(dir))
		st, err := os.Stat(p)
		exists := err == nil && st.IsDir()
		var siblings []string
		if entries, err := os.ReadDir(filepath.Dir(p)); err == nil {
			for _, e := range entries {
				if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
					siblings = append(siblings, e.Name())
				}
			}
		}
		return exists, siblings
	}
}
