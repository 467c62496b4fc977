package trust

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What a step hands the steps after it: directories put on PATH
// (GITHUB_PATH, PATH=...) and variables that make programs load code
// (GITHUB_ENV, BASH_ENV=...).

// dangerousEnv are variables that make programs load code from a file
// they name: a step setting one to a repository file runs it.
var dangerousEnv = map[string]bool{
	"BASH_ENV": true, "ENV": true, "NODE_OPTIONS": true, "PYTHONPATH": true, "PYTHONSTARTUP": true,
	"PERL5OPT": true, "PERL5LIB": true, "RUBYOPT": true, "RUBYLIB": true, "LD_PRELOAD": true,
	"LD_LIBRARY_PATH": true, "TF_CLI_CONFIG_FILE": true, "TERRAFORM_CONFIG": true, "GOFLAGS": true,
}

// checkEnvVar records the repository files a PATH or a dangerous
// variable's value names (a directory put on PATH counts whole), and an
// Unreadable when the value cannot be placed.
func (sh *shell) checkEnvVar(name string, v word) {
	val, line := v.s, v.line
	if !v.known || strings.Contains(val, exprMark) {
		sh.fail(line, v.text, "it sets "+name+", which decides what programs run, to a value planwarden cannot place", "", true)
		return
	}
	var tokens []string
	if name == "PATH" {
		tokens = strings.Split(val, ":")
	} else {
		for _, t := range strings.FieldsFunc(val, func(r rune) bool { return r == ':' || r == ' ' }) {
			if _, after, ok := strings.Cut(t, "="); ok {
				t = after
			}
			tokens = append(tokens, t)
		}
	}
	for _, t := range tokens {
		if t == "" || name != "PATH" && !strings.Contains(t, "/") && !strings.HasPrefix(t, ".") {
			continue // an option, not a file
		}
		switch p, where := sh.place(t); where {
		case inRepo:
			sh.r.use(p, "named by "+name+", set by "+strings.TrimPrefix(sh.via(), "run by "))
		case cwdLost:
			sh.fail(line, v.text, "it sets "+name+" to a relative path after a cd planwarden cannot follow", "", true)
		}
	}
}

// writesRunnerFile checks what a command writes to GITHUB_PATH (a
// directory later steps find commands in) or GITHUB_ENV (variables of
// later steps).
func (sh *shell) writesRunnerFile(file string, words []word, in stdin) {
	var values []word
	switch words[0].s {
	case "echo":
		for _, w := range words[1:] {
			if w.s != "-n" && w.s != "-e" && w.s != "-E" {
				values = append(values, w)
			}
		}
	case "printf":
		if len(words) > 1 {
			if f := words[1]; f.known && !strings.Contains(f.s, "%") {
				values = append(values, f)
			} else {
				values = append(values, words[2:]...)
			}
		}
	case "cat":
		if in.hasHdoc && len(words) == 1 {
			for _, l := range strings.Split(in.heredoc, "\n") {
				if l = strings.TrimSpace(l); l != "" {
					values = append(values, word{s: l, known: true, text: l, line: in.hdocLine})
				}
			}
			break
		}
		fallthrough
	default:
		sh.fail(words[0].line, words[0].text, "it writes what planwarden cannot read to "+path.Base(file), "", true)
		return
	}
	for _, v := range values {
		if file == ghPathFile {
			sh.checkEnvVar("PATH", v)
			continue
		}
		name, val, ok := strings.Cut(v.s, "=")
		if !ok && v.known {
			continue // a heredoc delimiter line (NAME<<EOF) or a blank
		}
		if !ok && !v.known {
			name, _, _ = strings.Cut(v.prefix, "=")
		}
		if name == "PATH" || dangerousEnv[name] || !syntax.ValidName(name) {
			sh.checkEnvVar(name, word{s: val, known: v.known, line: v.line, text: v.text})
		}
	}
}
