package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

func init() {
	commands["validate"] = command{summary: "check a repo config (.github/planwarden.yml); exit 2 with file:line on errors", run: runValidate}
}

const validateUsage = `usage: planwarden validate [--config FILE] [--repo DIR] [--schema]

Checks a planwarden repo config. Without --config it checks
.github/planwarden.yml, else .planwarden.yml, in the current directory.
--config - reads standard input. --schema prints the config's JSON Schema
(for editors) instead.

Beyond the format it checks what breaks on the first day: each project's
directory exists in the repository (--repo, default: the directory holding
.github/ for a .github/planwarden.yml, else the current directory), each
custom rule's expression type-checks against what a change holds, and it
warns about allowed_skus entries no price catalog knows.

Exit status: 0 the config is valid (or there is none and the defaults
apply; warnings are printed as file:line: warning: ...), 2 the config has
errors (each printed as file:line: problem) or cannot be read.
`

// nearMisses are config names planwarden does not read, with the name it does.
var nearMisses = [][2]string{
	{".github/planwarden.yaml", rules.ConfigPath},
	{".planwarden.yaml", rules.AltConfigPath},
	{"planwarden.yml", rules.AltConfigPath},
	{".github/.planwarden.yml", rules.ConfigPath},
}

func runValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	path := fs.String("config", "", "config file")
	printSchema := fs.Bool("schema", false, "print the JSON Schema of the config")
	repo := fs.String("repo", "", "the repository's root directory")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, validateUsage)
			return exitOK
		}
		fmt.Fprintf(stderr, "planwarden validate: %v\n%s", err, validateUsage)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "planwarden validate: unexpected argument %q (use --config FILE)\n%s", fs.Arg(0), validateUsage)
		return exitUsage
	}
	if *printSchema {
		_, _ = stdout.Write(rules.JSONSchema())
		return exitOK
	}
	var (
		cfg *rules.Config
		err error
	)
	switch *path {
	case "":
		for _, p := range rules.ConfigPaths {
			if _, statErr := os.Stat(p); statErr == nil {
				*path = p
				break
			}
		}
		if *path == "" {
			for _, m := range nearMisses {
				if _, statErr := os.Stat(m[0]); statErr == nil {
					fmt.Fprintf(stderr, "planwarden validate: found %s, but planwarden reads only %s or %s; rename it to %s\n", m[0], rules.ConfigPath, rules.AltConfigPath, m[1])
					return exitUsage
				}
			}
			fmt.Fprintf(stdout, "no %s or %s here: planwarden applies its defaults\n", rules.ConfigPath, rules.AltConfigPath)
			return exitOK
		}
		cfg, err = rules.LoadConfig(*path)
	case "-":
		var data []byte
		data, err = io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "planwarden validate: read standard input: %v\n", err)
			return exitUsage
		}
		*path = "<stdin>"
		cfg, err = rules.ParseConfig(*path, data)
		stdin = bytes.NewReader(data) // read again by reportValidated
	default:
		cfg, err = rules.LoadConfig(*path)
	}
	if err != nil {
		var ce *rules.ConfigError
		if errors.As(err, &ce) {
			fmt.Fprintln(stderr, ce.Error())
			fmt.Fprintf(stderr, "planwarden validate: %s: %d %s\n", *path, len(ce.Problems), plural(len(ce.Problems), "problem", "problems"))
		} else {
			fmt.Fprintf(stderr, "planwarden validate: %v\n", err)
		}
		return exitUsage
	}
	return reportValidated(stdout, stderr, *path, *repo, cfg, stdin)
}

// warnModulesOutsidePaths warns, on stderr, about each local module a
// project's directory (in the current directory, the repository) calls
// outside the project's paths; the config stays valid.
func warnModulesOutsidePaths(cfg *rules.Config, repo fs.FS, stderr io.Writer) {
	outside, err := trust.ModulesOutsidePaths(cfg, repo)
	if err != nil {
		fmt.Fprintf(stderr, "planwarden validate: warning: cannot read the projects' module calls: %v\n", err)
	}
	for _, p := range cfg.Projects {
		for _, m := range outside[p.Name] {
			fmt.Fprintf(stderr, "planwarden validate: warning: project %s: directory %s calls local module %s (module %q in %s), outside its paths; add %q to its paths so a pull request that changes only the module needs its plan\n",
				p.Name, p.Directory, m.Dir, m.Name, m.File, m.Dir+"/**")
		}
	}
}

// summarize says what a valid config declares.
func summarize(c *rules.Config) string {
	parts := []string{
		fmt.Sprintf("version %d", c.Version),
		countOf(len(c.Projects), "project", "projects"),
		countOf(len(c.EnvironmentNames()), "environment", "environments"),
		countOf(len(c.CustomRules), "custom rule", "custom rules"),
	}
	var protected []string
	for _, e := range c.EnvironmentNames() {
		if c.IsProtected(e) {
			protected = append(protected, e)
		}
	}
	if len(protected) > 0 {
		parts = append(parts, "protected: "+strings.Join(protected, ", "))
	}
	return strings.Join(parts, ", ")
}

func countOf(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
