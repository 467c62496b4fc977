package trust

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
)

// Programs that run code a repository file names: go (a local package),
// npm, yarn, pnpm and bun (package.json scripts), make (a makefile's
// recipes).

// goCmd walks go run, build, install, test, generate and tool.
func (sh *shell) goCmd(args []word, c word) {
	target := sh
	for len(args) >= 2 && args[0].s == "-C" {
		target = sh.clone()
		target.cd(args[1:2])
		args = args[2:]
	}
	if len(args) == 0 || !args[0].known {
		return
	}
	sub, rest := args[0].s, args[1:]
	switch sub {
	case "run", "build", "install", "test", "vet":
	case "generate":
		target.fail(c.line, c.text+" generate", "it runs the commands the //go:generate lines of the package's files name, which planwarden does not read", target.dirOrRoot(), false)
		return
	case "tool":
		target.useGoMod()
		return
	default:
		return
	}
	valueFlags := []string{"-o", "-p", "-tags", "-ldflags", "-gcflags", "-asmflags", "-mod", "-modfile", "-overlay", "-pkgdir",
		"-toolexec", "-exec", "-C", "-covermode", "-coverpkg", "-run", "-bench", "-count", "-timeout", "-cpu", "-parallel", "-benchtime"}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if !a.known {
			target.unplaced(a, "it gives go a word planwarden cannot place")
			return
		}
		s := a.s
		flag, _, hasVal := strings.Cut(strings.TrimPrefix(s, "-"), "=")
		switch {
		case s == "--":
			continue
		case strings.HasPrefix(s, "-"):
			if f := "-" + flag; f == "-toolexec" || f == "-exec" {
				target.fail(a.line, a.text, "go runs every compiled program through a command it names", "", true)
				return
			}
			if !hasVal && slices.Contains(valueFlags, s) {
				i++
			}
			continue
		}
		target.goPackage(a)
		if sub == "run" && !strings.HasSuffix(s, ".go") {
			return // the rest are the program's arguments
		}
	}
}

// goPackage uses the repository code a package argument of go names: a
// local package's directory (./x/... its whole tree), a .go file's
// directory, or for an import path without a version the module's go.mod
// and go.sum (and the package, when the module is this repository's).
func (sh *shell) goPackage(a word) {
	s := a.s
	local := s == "." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasSuffix(s, ".go")
	if !local {
		if !strings.Contains(s, "@") {
			sh.useGoMod()
			if mod, dir, ok := sh.goModule(); ok && (s == mod || strings.HasPrefix(s, mod+"/")) {
				if p, where := sh.place(path.Join(dir, strings.TrimPrefix(strings.TrimPrefix(s, mod), "/"))); where == inRepo {
					sh.r.use(p, sh.via())
				}
			}
		}
		return
	}
	dir := s
	if strings.HasSuffix(s, ".go") {
		dir = path.Dir(s)
	}
	dir = strings.TrimSuffix(strings.TrimSuffix(dir, "..."), "/")
	if dir == "" {
		dir = "."
	}
	switch p, where := sh.place(dir); where {
	case inRepo:
		if p == "" {
			sh.fail(a.line, a.text, "it compiles the whole repository as Go code", "", true)
			return
		}
		sh.r.use(p, sh.via())
		sh.useGoMod()
	case cwdLost:
		sh.fail(a.line, a.text, whyLostCwd, "", true)
	}
}

// useGoMod uses the go.mod and go.sum of the directory and of the root.
func (sh *shell) useGoMod() {
	root := sh.at.repoAbs()
	for _, f := range []string{"go.mod", "go.sum", root + "/go.mod", root + "/go.sum"} {
		if p, where := sh.place(f); where == inRepo {
			sh.r.use(p, sh.via())
		}
	}
}

// goModule reads the module path of the go.mod in the directory, else at
// the root, and that go.mod's directory (relative to the shell's).
func (sh *shell) goModule() (mod, dir string, ok bool) {
	for _, f := range []string{"go.mod", sh.at.repoAbs() + "/go.mod"} {
		p, where := sh.place(f)
		if where != inRepo {
			continue
		}
		data, found, _ := sh.r.read(p)
		if !found {
			continue
		}
		for _, l := range strings.Split(string(data), "\n") {
			if m, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
				return strings.Trim(strings.TrimSpace(m), `"`), path.Dir(f), true
			}
		}
	}
	return "", "", false
}

// lifecycle are the scripts an install runs from package.json.
var lifecycle = []string{"preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"}

// pkgCmd walks npm, npx, yarn, pnpm and bun: the package.json scripts
// they run (run X, test, start; the install lifecycle), with the lock
// files that decide the dependencies whose programs those scripts call.
func (sh *shell) pkgCmd(mgr string, args []word, c word) {
	dir := word{s: ".", known: true}
	var ops []word
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known {
			sh.unplaced(a, "it gives "+mgr+" a word planwarden cannot place")
			return
		}
		s := a.s
		opt, val, hasVal := strings.Cut(s, "=")
		switch {
		case opt == "--prefix" || opt == "--cwd" || opt == "--dir" || opt == "-C":
			if hasVal {
				dir = word{s: val, known: true}
			} else if i+1 < len(args) {
				i++
				dir = args[i]
			}
		case opt == "--workspace" || opt == "-w" || opt == "--filter" || opt == "-F" || opt == "--recursive" || opt == "-r" || opt == "--workspaces" || opt == "-ws":
			sh.fail(a.line, c.text+" "+a.text, "it runs scripts of other packages of a workspace, which planwarden does not read", sh.dirOrRoot(), false)
			return
		case strings.HasPrefix(s, "-"):
		default:
			ops = append(ops, a)
		}
	}
	target := sh.clone()
	target.cd([]word{dir})
	if target.cwdLost {
		sh.fail(c.line, c.text, whyLostCwd, "", true)
		return
	}
	sub := ""
	if len(ops) > 0 {
		sub = ops[0].s
	}
	var scripts []string
	switch {
	case mgr == "npx" || sub == "exec" || sub == "x" || sub == "dlx" || mgr == "bun" && sub == "x":
		target.useLocks() // the package's bins come from the lock file
		if len(ops) > 0 && mgr == "npx" && strings.Contains(ops[0].s, "/") {
			target.command(ops, stdin{})
		}
		return
	case sub == "run" || sub == "run-script" || sub == "rum" || sub == "urn":
		if len(ops) < 2 {
			return
		}
		if mgr == "bun" && (strings.Contains(ops[1].s, "/") || path.Ext(ops[1].s) != "") {
			target.interp(ops[1:], stdin{}, nil, "", "")
			return
		}
		scripts = []string{"pre" + ops[1].s, ops[1].s, "post" + ops[1].s}
	case slices.Contains([]string{"test", "t", "tst", "start", "stop", "restart"}, sub):
		if sub == "t" || sub == "tst" {
			sub = "test"
		}
		scripts = []string{"pre" + sub, sub, "post" + sub}
	case sub == "" && mgr == "yarn", slices.Contains([]string{"ci", "install", "i", "add", "install-ci-test", "it"}, sub):
		scripts = lifecycle
	case mgr == "npm" || sub == "":
		return // another npm command: it runs no script
	case mgr == "bun" && (strings.Contains(sub, "/") || path.Ext(sub) != ""):
		target.interp(ops, stdin{}, nil, "", "")
		return
	default:
		// yarn X, pnpm X and bun X run the script X when package.json has one.
		scripts = []string{"pre" + sub, sub, "post" + sub}
	}
	target.useLocks()
	target.packageScripts(scripts, c)
}

// useLocks uses the directory's package.json and lock files.
func (sh *shell) useLocks() {
	for _, f := range []string{"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock", ".npmrc", ".yarnrc.yml"} {
		if p, where := sh.place(f); where == inRepo {
			sh.r.use(p, sh.via())
		}
	}
}

// packageScripts walks the named scripts of the directory's package.json.
func (sh *shell) packageScripts(names []string, c word) {
	p, where := sh.place("package.json")
	if where != inRepo {
		return
	}
	data, found, ok := sh.r.read(p)
	switch {
	case !ok:
		sh.r.budget(sh.at)
		return
	case !found:
		return
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		sh.fail(c.line, p, "its package.json is not JSON planwarden can read", sh.dirOrRoot(), false)
		return
	}
	for _, n := range names {
		script, ok := pkg.Scripts[n]
		if !ok {
			continue
		}
		run := sh.clone()
		run.depth++
		run.chain = "run by the " + n + " script of " + p + ", " + strings.TrimPrefix(sh.via(), "run by ")
		run.script, run.marks = p, nil
		if run.depth > maxScriptDepth {
			sh.fail(c.line, n, "scripts run scripts deeper than planwarden follows", sh.dirOrRoot(), false)
			return
		}
		run.walkSource(script, p, 0)
	}
}

// makeCmd walks make: the makefile it reads and the recipes of the
// targets it makes.
func (sh *shell) makeCmd(args []word) {
	target := sh.clone()
	var files, goals []word
	vars := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := a.s
		opt, val, hasVal := strings.Cut(s, "=")
		switch {
		case !a.known:
			sh.unplaced(a, "it gives make a word planwarden cannot place")
			return
		case s == "-C" || s == "--directory" || s == "-f" || s == "--file" || s == "--makefile" || s == "-o" || s == "-W" || s == "-I" || s == "--include-dir":
			if i+1 >= len(args) {
				return
			}
			i++
			switch s {
			case "-C", "--directory":
				target.cd(args[i : i+1])
			case "-f", "--file", "--makefile":
				files = append(files, args[i])
			}
		case strings.HasPrefix(s, "-C") && len(s) > 2:
			target.cd([]word{{s: s[2:], known: true}})
		case opt == "--directory":
			target.cd([]word{{s: val, known: true}})
		case (opt == "--file" || opt == "--makefile") && hasVal:
			files = append(files, word{s: val, known: true, line: a.line, text: a.text})
		case strings.HasPrefix(s, "-f") && len(s) > 2:
			files = append(files, word{s: s[2:], known: true, line: a.line, text: a.text})
		case strings.HasPrefix(s, "-"):
		case hasVal && !strings.ContainsAny(opt, "/ "):
			vars[strings.TrimSpace(strings.TrimSuffix(opt, ":"))] = val
		default:
			goals = append(goals, a)
		}
	}
	if target.cwdLost {
		sh.fail(0, "make", whyLostCwd, "", true)
		return
	}
	names := []string{"GNUmakefile", "makefile", "Makefile"}
	if len(files) > 0 {
		names = nil
		for _, f := range files {
			names = append(names, f.s)
		}
	}
	var read string
	for _, n := range names {
		p, where := target.place(n)
		if where != inRepo {
			continue
		}
		target.r.use(p, sh.via())
		if read != "" && len(files) == 0 {
			continue // make reads the first of its default names
		}
		data, found, ok := target.r.read(p)
		if !ok {
			target.r.budget(sh.at)
			return
		}
		if found {
			read = p
			target.makeRecipes(p, string(data), goals, vars)
		}
	}
}
