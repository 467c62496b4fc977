package trust

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What a simple command runs: the command word (through wrappers), the
// scripts a shell or an interpreter is given, what it sources.

// call walks a simple command.
func (sh *shell) call(ce *syntax.CallExpr, in stdin, writes string) {
	if len(ce.Args) == 0 {
		for _, a := range ce.Assigns {
			sh.assign(a, true)
		}
		return
	}
	for _, a := range ce.Assigns {
		sh.assign(a, false) // for this command only
	}
	words := make([]word, len(ce.Args))
	for i, a := range ce.Args {
		words[i] = sh.word(a)
	}
	if writes != "" {
		sh.writesRunnerFile(writes, words, in)
	}
	sh.command(words, in)
}

// scriptArgs uses the repository scripts a command's arguments name: a
// command given python -u tools/x.py, bash -e hooks/pre.bash or
// --script=x.sh runs or reads them as code.
func (sh *shell) scriptArgs(args []word) {
	for _, w := range args {
		v := w.s
		if _, after, ok := strings.Cut(v, "="); ok {
			v = after // --script=x.sh, NAME=x.sh
		}
		if w.known && v != "" && !strings.ContainsAny(v, " \t\n") && slices.ContainsFunc(scriptExts, func(ext string) bool { return strings.HasSuffix(v, ext) }) {
			if p, where := sh.place(v); where == inRepo {
				sh.r.use(p, sh.via())
			}
		}
	}
}

// unplaced records an Unreadable for a word planwarden cannot place,
// bounded by the directory its known start names when it has one.
func (sh *shell) unplaced(w word, why string) {
	in, anywhere := "", true
	if i := strings.LastIndexByte(w.prefix, '/'); i >= 0 {
		if p, where := sh.place(w.prefix[:i+1] + "x"); where == inRepo {
			in, anywhere = path.Dir(p), false
			if in == "." {
				in = ""
			}
		}
	}
	sh.fail(w.line, w.text, why, in, anywhere)
}

// Why a word cannot be placed.
const (
	whyCommand = "it runs a command planwarden cannot place (a variable, an expression or a glob)"
	whyLostCwd = "it runs a relative path after a cd planwarden cannot follow"
)

// command walks one command: words[0] is the command word.
func (sh *shell) command(words []word, in stdin) {
	if len(words) == 0 {
		return
	}
	c := words[0]
	if !c.known {
		sh.unplaced(c, whyCommand)
		return
	}
	name := c.s
	if strings.Contains(name, "/") {
		switch p, where := sh.place(name); where {
		case inRepo:
			sh.runFile(p, c.line, false)
			sh.scriptArgs(words[1:])
			return
		case cwdLost:
			sh.fail(c.line, c.text, whyLostCwd, "", true)
			return
		}
		name = path.Base(name) // /usr/bin/env, /bin/bash
	}
	args := words[1:]
	if w, ok := wrappers[name]; ok {
		sh.wrapped(name, w, args, in)
		return
	}
	sh.scriptArgs(args)
	switch {
	case name == "cd":
		sh.cd(args)
	case name == "pushd":
		sh.dirs = append(sh.dirs, sh.cwd)
		sh.cd(args)
	case name == "popd":
		if n := len(sh.dirs); n > 0 {
			sh.cwd, sh.dirs = sh.dirs[n-1], sh.dirs[:n-1]
		} else {
			sh.cwdLost = true
		}
	case name == "trap":
		if len(args) > 1 && args[0].s != "-" && args[0].s != "-p" && args[0].s != "-l" {
			if !args[0].known {
				sh.unplaced(args[0], "trap runs a command planwarden cannot read")
			} else {
				sh.walkSource(args[0].s, sh.script, args[0].line)
			}
		}
	case name == "source" || name == ".":
		if len(args) > 0 {
			sh.scriptArg(args[0], true)
		}
	case name == "eval":
		sh.eval(args, c)
	case shells[name]:
		sh.shellCmd(args, in)
	case isPython(name):
		sh.interp(args, in, pythonOpts, "-c", "-m")
	case name == "node" || name == "nodejs" || name == "ts-node" || name == "tsx":
		sh.interp(args, in, nodeOpts, "-e", "")
	case name == "ruby" || name == "perl" || name == "php" || name == "Rscript" || name == "lua":
		sh.interp(args, in, map[string]bool{"-I": true, "-r": true}, "-e", "")
	case name == "deno":
		if len(args) > 0 && args[0].s == "run" {
			sh.interp(args[1:], in, nil, "", "")
		} else if len(args) > 0 && args[0].s == "task" {
			sh.fail(c.line, c.text+" task", "it runs the tasks deno.json names, which planwarden does not read", sh.dirOrRoot(), false)
		}
	case name == "pwsh" || name == "powershell":
		sh.fail(c.line, c.text, "it runs PowerShell, which planwarden does not read", "", true)
	case name == "go":
		sh.goCmd(args, c)
	case name == "npm" || name == "npx" || name == "yarn" || name == "pnpm" || name == "bun":
		sh.pkgCmd(name, args, c)
	case name == "make" || name == "gmake":
		sh.makeCmd(args)
	case name == "find":
		for i, a := range args {
			if a.known && (a.s == "-exec" || a.s == "-execdir" || a.s == "-ok" || a.s == "-okdir") {
				end := len(args)
				for j := i + 1; j < len(args); j++ {
					if args[j].s == ";" || args[j].s == "+" {
						end = j
						break
					}
				}
				cmd := slices.Clone(args[i+1 : end])
				for k, w := range cmd {
					if strings.Contains(w.s, "{}") {
						cmd[k] = word{prefix: w.s[:strings.Index(w.s, "{}")], text: w.text, line: w.line} // a file find found
					}
				}
				sh.command(cmd, stdin{})
			}
		}
	case name == "docker" && len(args) > 0 && (args[0].s == "build" || args[0].s == "buildx" || args[0].s == "compose"):
		sh.fail(c.line, c.text+" "+args[0].text, "it builds or runs images from the repository's Dockerfiles, which planwarden does not read", sh.dirOrRoot(), false)
	default:
		if file, ok := repoRunners[name]; ok {
			sh.fail(c.line, c.text, "it runs the commands "+file+" names, which planwarden does not read", sh.dirOrRoot(), false)
		}
	}
}

// dirOrRoot is the directory as a repository directory for an
// Unreadable's In ("" also when it is lost or outside).
func (sh *shell) dirOrRoot() string {
	if sh.cwdLost || strings.HasPrefix(sh.cwd, "/") {
		return ""
	}
	return sh.cwd
}

// repoRunners are tools that run commands a repository file names.
var repoRunners = map[string]string{
	"terragrunt": "terragrunt.hcl", "pre-commit": ".pre-commit-config.yaml", "tox": "tox.ini", "nox": "noxfile.py",
	"task": "Taskfile.yml", "just": "justfile", "rake": "Rakefile", "invoke": "tasks.py", "inv": "tasks.py",
	"mvn": "pom.xml", "gradle": "build.gradle", "bazel": "BUILD", "bazelisk": "BUILD", "cargo": "Cargo.toml",
}

var shells = map[string]bool{"bash": true, "sh": true, "dash": true, "zsh": true, "ksh": true}

func isPython(name string) bool {
	return regexp.MustCompile(`^(python|pypy)(\d+(\.\d+)?)?$`).MatchString(name)
}

var (
	pythonOpts = map[string]bool{"-W": true, "-X": true, "--check-hash-based-pycs": true}
	nodeOpts   = map[string]bool{"-r": true, "--require": true, "--import": true, "--loader": true, "--experimental-loader": true, "--input-type": true, "--env-file": true, "-C": true, "--conditions": true}
)

// wrapper says how a command that runs another reads its options.
type wrapper struct {
	value    []string // options taking a value
	flags    []string // options taking none
	operands int      // words before the command (timeout's duration)
	assigns  bool     // NAME=value words before the command
	noRun    []string // options that make it run nothing (command -v)
}

var wrappers = map[string]wrapper{
	"sudo": {value: []string{"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group", "--host", "--prompt", "--chdir"},
		flags: []string{"-E", "-H", "-n", "-S", "-b", "-k", "-K", "-A", "-P", "-i", "-s", "--preserve-env", "--non-interactive", "--login", "--shell", "--set-home"}, assigns: true},
	"doas":    {value: []string{"-u", "-C"}, flags: []string{"-n", "-s"}},
	"env":     {value: []string{"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}, flags: []string{"-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"}, assigns: true},
	"timeout": {value: []string{"-s", "--signal", "-k", "--kill-after"}, flags: []string{"--preserve-status", "--foreground", "-v", "--verbose"}, operands: 1},
	"nice":    {value: []string{"-n", "--adjustment"}},
	"ionice":  {value: []string{"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"}, flags: []string{"-t"}},
	"nohup":   {},
	"time":    {value: []string{"-f", "--format", "-o", "--output"}, flags: []string{"-p", "-v", "--verbose", "--portability", "-a", "--append", "-q", "--quiet"}},
	"exec":    {value: []string{"-a"}, flags: []string{"-c", "-l"}},
	"command": {flags: []string{"-p"}, noRun: []string{"-v", "-V"}},
	"builtin": {},
	"xargs": {value: []string{"-I", "-n", "-P", "-d", "-a", "-L", "-s", "-E", "--max-args", "--max-procs", "--delimiter", "--arg-file", "--replace", "--max-lines", "--eof"},
		flags: []string{"-0", "-r", "-t", "-p", "-x", "-o", "--null", "--no-run-if-empty", "--verbose", "--interactive", "--exit", "--open-tty"}},
	"stdbuf":   {value: []string{"-i", "-o", "-e", "--input", "--output", "--error"}},
	"setsid":   {flags: []string{"-c", "-f", "-w", "--ctty", "--fork", "--wait"}},
	"chronic":  {flags: []string{"-e", "-v"}},
	"unbuffer": {flags: []string{"-p"}},
}

var niceNumber = regexp.MustCompile(`^-\d+$`)

// wrapped walks the command a wrapper runs.
func (sh *shell) wrapped(name string, w wrapper, args []word, in stdin) {
	target := sh
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.known {
			sh.unplaced(a, "it passes "+name+" a word planwarden cannot place")
			return
		}
		s := a.s
		opt, val, hasVal := strings.Cut(s, "=")
		switch {
		case s == "--":
			i++
			goto command
		case w.assigns && hasVal && syntax.ValidName(opt):
			if opt == "PATH" || dangerousEnv[opt] {
				sh.checkEnvVar(opt, word{s: val, known: true, line: a.line, text: a.text})
			}
		case slices.Contains(w.noRun, s):
			return
		case slices.Contains(w.flags, s) || strings.HasPrefix(s, "--") && hasVal && slices.Contains(w.flags, opt) || name == "nice" && niceNumber.MatchString(s):
		case slices.Contains(w.value, s) || hasVal && slices.Contains(w.value, opt) || len(s) > 2 && s[0] == '-' && s[1] != '-' && slices.Contains(w.value, s[:2]):
			if !hasVal && !(len(s) > 2 && s[1] != '-') {
				i++ // the value is the next word
				if i >= len(args) {
					return
				}
				val = args[i].s
				if !args[i].known {
					sh.unplaced(args[i], "it passes "+name+" a word planwarden cannot place")
					return
				}
			} else if !hasVal {
				val = s[2:]
			}
			switch {
			case name == "env" && (opt == "-C" || opt == "--chdir"), name == "sudo" && (opt == "-D" || opt == "--chdir"):
				target = sh.clone()
				target.cd([]word{{s: val, known: true}})
			case name == "env" && (opt == "-S" || opt == "--split-string"):
				var split []word
				for _, f := range strings.Fields(val) {
					split = append(split, word{s: f, known: true, text: f, line: a.line})
				}
				target.command(append(split, args[i+1:]...), in)
				return
			}
		case strings.HasPrefix(s, "-") && len(s) > 1:
			sh.fail(a.line, a.text, "it passes "+name+" an option planwarden does not know, so it cannot tell which word is the command", "", true)
			return
		default:
			goto command
		}
	}
command:
	i += w.operands
	if i >= len(args) {
		return
	}
	cmd := args[i:]
	if name == "xargs" {
		cmd = xargsCommand(args[:i], cmd)
	}
	target.command(cmd, in)
}

// xargsCommand is the command xargs runs: the words read from its input
// take the place of -I's replace string, else follow the command's own.
func xargsCommand(opts, cmd []word) []word {
	repl := ""
	for j, o := range opts {
		switch {
		case (o.s == "-I" || o.s == "--replace") && j+1 < len(opts):
			repl = opts[j+1].s
		case strings.HasPrefix(o.s, "-I") && len(o.s) > 2:
			repl = o.s[2:]
		case strings.HasPrefix(o.s, "--replace="):
			repl = strings.TrimPrefix(o.s, "--replace=")
		}
	}
	input := word{text: "(the words xargs reads)", line: cmd[0].line}
	if repl == "" {
		return append(slices.Clone(cmd), input)
	}
	out := slices.Clone(cmd)
	for k, w := range out {
		if strings.Contains(w.s, repl) {
			out[k] = word{prefix: w.s[:strings.Index(w.s, repl)], text: w.text, line: w.line}
		}
	}
	return out
}

// eval runs its arguments as a script when they are known.
func (sh *shell) eval(args []word, c word) {
	var parts []string
	for _, a := range args {
		if !a.known {
			sh.unplaced(a, "eval runs a script planwarden cannot read")
			return
		}
		parts = append(parts, a.s)
	}
	sh.walkSource(strings.Join(parts, " "), sh.script, c.line)
}

// shellCmd walks bash, sh and the like: -c SCRIPT, a script file, or a
// script on standard input.
func (sh *shell) shellCmd(args []word, in stdin) {
	i := 0
	for i < len(args) {
		a := args[i]
		if !a.known {
			sh.unplaced(a, "it passes the shell a word planwarden cannot place")
			return
		}
		s := a.s
		switch {
		case s == "--" || s == "-":
			i++
			goto operand
		case s == "--rcfile" || s == "--init-file":
			if i+1 < len(args) {
				sh.scriptArg(args[i+1], true)
			}
			i += 2
		case strings.HasPrefix(s, "--"):
			i++
		case len(s) > 1 && (s[0] == '-' || s[0] == '+'):
			letters := s[1:]
			i++
			i += strings.Count(letters, "o") + strings.Count(letters, "O")
			if strings.ContainsRune(letters, 'c') {
				if i >= len(args) {
					return
				}
				if !args[i].known {
					sh.unplaced(args[i], "the shell runs a script planwarden cannot read (-c with a variable or an expression)")
					return
				}
				sh.clone().walkSource(args[i].s, sh.script, args[i].line)
				return
			}
		default:
			goto operand
		}
	}
operand:
	if i < len(args) {
		sh.scriptArg(args[i], false)
		return
	}
	sh.stdinScript(in, "the shell")
}

// stdinScript walks the script a shell or an interpreter reads from its
// standard input.
func (sh *shell) stdinScript(in stdin, who string) {
	switch {
	case in.file != nil:
		sh.scriptArg(*in.file, false)
	case in.hasHdoc:
		sh.clone().walkSource(in.heredoc, sh.script, in.hdocLine)
	case in.piped:
		sh.fail(0, who, who+" reads the script it runs from a pipe, which planwarden cannot read", "", true)
	}
}

// scriptArg walks a shell script given by name: sourced (in this shell)
// or run (in a copy of it).
func (sh *shell) scriptArg(w word, sourced bool) {
	if !w.known {
		sh.unplaced(w, "it runs or sources a script planwarden cannot place")
		return
	}
	switch p, where := sh.place(w.s); where {
	case inRepo:
		sh.r.use(p, sh.via())
		sh.followScript(p, w.line, sourced)
	case cwdLost:
		sh.fail(w.line, w.text, whyLostCwd, "", true)
	}
}

// runFile walks a repository file run as a command: a shell script is
// read in turn (by its #! line, else its name), anything else only used.
func (sh *shell) runFile(p string, line int, sourced bool) {
	sh.r.use(p, sh.via())
	sh.followScript(p, line, sourced)
}

// followScript reads a shell script the step runs and walks it; other
// files (a Python script, a binary) are used only.
func (sh *shell) followScript(p string, line int, sourced bool) {
	if sh.depth >= maxScriptDepth {
		sh.fail(line, p, "scripts run scripts deeper than planwarden follows", dirOf(p), false)
		return
	}
	data, found, ok := sh.r.read(p)
	switch {
	case !ok:
		sh.r.budget(sh.at)
		return
	case !found:
		return
	case len(data) > maxScriptBytes:
		sh.fail(line, p, "the script is larger than planwarden reads", dirOf(p), false)
		return
	case !isShellScript(p, data):
		return
	}
	next := sh
	if !sourced {
		next = sh.clone()
	}
	savedScript, savedChain, savedMarks := next.script, next.chain, next.marks
	next.depth++
	next.chain = "run by " + p + ", " + strings.TrimPrefix(sh.via(), "run by ")
	next.script, next.marks = p, nil
	next.walkSource(string(data), p, 0)
	next.depth--
	next.script, next.chain, next.marks = savedScript, savedChain, savedMarks
}

func dirOf(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}

// isShellScript reads a file's #! line (or, without one, its name).
func isShellScript(p string, data []byte) bool {
	if bytes.IndexByte(data[:min(len(data), 512)], 0) >= 0 {
		return false // a binary
	}
	if bytes.HasPrefix(data, []byte("#!")) {
		first, _, _ := bytes.Cut(data, []byte("\n"))
		f := strings.Fields(string(first[2:]))
		if len(f) == 0 {
			return true
		}
		interp := path.Base(f[0])
		if interp == "env" && len(f) > 1 {
			interp = f[len(f)-1]
			if strings.HasPrefix(f[1], "-") && len(f) > 2 {
				interp = f[2]
			}
		}
		return shells[path.Base(interp)]
	}
	ext := path.Ext(p)
	return ext == "" || ext == ".sh" || ext == ".bash"
}
