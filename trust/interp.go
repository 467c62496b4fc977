package trust

import (
	"regexp"
	"strings"
)

// Interpreters: the script, module or inline program python, node and
// the like are given.

// interp walks an interpreter's command line: an inline program (-c,
// -e) runs nothing from the repository planwarden can see; a module
// (python -m) uses its package; a script file is used; none reads its
// standard input.
func (sh *shell) interp(args []word, in stdin, valueOpts map[string]bool, inline, module string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known {
			sh.unplaced(a, "it runs a script planwarden cannot place")
			return
		}
		s := a.s
		switch {
		case s == "-":
			sh.stdinScript(in, "the interpreter")
			return
		case inline != "" && (s == inline || s == "--eval" || s == "-p" || s == "--print"):
			if i+1 < len(args) {
				sh.inlineCode(args[i+1], module != "")
			}
			return
		case module != "" && (s == module || strings.HasPrefix(s, module) && len(s) > len(module)):
			mod := strings.TrimPrefix(s, module)
			if mod == "" {
				i++
				if i >= len(args) {
					return
				}
				if !args[i].known {
					sh.unplaced(args[i], "it runs a module planwarden cannot place")
					return
				}
				mod = args[i].s
			}
			sh.pythonModule(mod, args[i].line)
			return
		case valueOpts[s]:
			i++
			if i < len(args) && args[i].known && (strings.HasPrefix(args[i].s, ".") || strings.Contains(args[i].s, "/")) {
				if p, where := sh.place(args[i].s); where == inRepo {
					sh.r.use(p, sh.via()) // node -r ./x.js, ruby -I lib
				}
			}
		case strings.HasPrefix(s, "-"):
		default:
			switch p, where := sh.place(s); where {
			case inRepo:
				sh.r.use(p, sh.via())
			case cwdLost:
				sh.fail(a.line, a.text, whyLostCwd, "", true)
			}
			return
		}
	}
	sh.stdinScript(in, "the interpreter")
}

// pythonModule uses what python -m MOD may run from the directory: the
// top package (all of it: it may import any of its modules) or module.
// A module of the standard library or a site package counts too: a file
// of that name in the directory would run instead.
func (sh *shell) pythonModule(mod string, line int) {
	top, _, _ := strings.Cut(mod, ".")
	if top == "" {
		return
	}
	for _, cand := range []string{top, top + ".py"} {
		switch p, where := sh.place(cand); where {
		case inRepo:
			sh.r.use(p, sh.via())
		case cwdLost:
			sh.fail(line, "-m "+mod, whyLostCwd, "", true)
			return
		}
	}
}

var (
	pythonImport = sync1(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:from|import)\s+([A-Za-z_][\w.]*)`) })
	scriptString = sync1(func() *regexp.Regexp {
		return regexp.MustCompile(`['"\x60]([^'"\x60\s]+\.(?:sh|bash|py|js|mjs|cjs|ts|rb|pl))['"\x60]`)
	})
)

// inlineCode reads a program given on the command line (python -c, node
// -e): the modules a Python program imports count like python -m's, the
// repository files a JavaScript program requires and any script a string
// names are used; a program planwarden cannot read is unplaced.
func (sh *shell) inlineCode(code word, python bool) {
	if !code.known {
		sh.unplaced(code, "it runs a program planwarden cannot read")
		return
	}
	if python {
		for _, m := range pythonImport().FindAllStringSubmatch(code.s, -1) {
			sh.pythonModule(m[1], code.line)
		}
	} else {
		for _, m := range requireCall().FindAllStringSubmatch(code.s, -1) {
			lit, ok := jsStringLiteral(m[1])
			switch {
			case !ok:
				sh.fail(code.line, m[0], "it requires a module whose name is built at run time", "", true)
			case strings.HasPrefix(lit, "."):
				if p, where := sh.place(lit); where == inRepo {
					sh.r.use(p, sh.via())
				}
			}
		}
	}
	for _, m := range scriptString().FindAllStringSubmatch(code.s, -1) {
		if p, where := sh.place(m[1]); where == inRepo {
			sh.r.use(p, sh.via())
		}
	}
}
