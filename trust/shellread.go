package trust

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The shell reader: a run: block, or a script a step runs, parsed with
// mvdan.cc/sh and walked statement by statement, keeping track of the
// directory (cd, pushd) and of the variables whose values are known.

// shell is the state of one shell walking one source.
type shell struct {
	r  *reader
	at step
	// script is the file being walked ("" for the run: block), chain how
	// the step reaches it ("" for the run: block).
	script, chain string
	depth         int
	src           string
	marks         []string
	// cwd is the directory: "" the repository root, a/b a repository
	// directory, /x outside the checkout; cwdLost when a cd went where
	// planwarden cannot follow.
	cwd        string
	cwdLost    bool
	changedDir bool     // a cd ran (in a command substitution)
	dirs       []string // pushd's stack
	vars       map[string]string
	unknown    map[string]bool
}

func (r *reader) newShell(s step) *shell {
	return &shell{r: r, at: s, vars: map[string]string{}, unknown: map[string]bool{}}
}

// clone is a copy for a subshell, a command substitution or a script run
// as a program: what it changes stays in it.
func (sh *shell) clone() *shell {
	c := *sh
	c.vars = make(map[string]string, len(sh.vars))
	for k, v := range sh.vars {
		c.vars[k] = v
	}
	c.unknown = make(map[string]bool, len(sh.unknown))
	for k, v := range sh.unknown {
		c.unknown[k] = v
	}
	c.dirs = append([]string(nil), sh.dirs...)
	return &c
}

func (sh *shell) setVar(k, v string, known bool) {
	if known && !strings.Contains(v, exprMark) {
		sh.vars[k] = v
		delete(sh.unknown, k)
		return
	}
	delete(sh.vars, k)
	sh.unknown[k] = true
}

// via says how the plan workflow reaches what this shell runs.
func (sh *shell) via() string {
	if sh.chain == "" {
		return sh.at.via()
	}
	return sh.chain
}

// fail records an Unreadable at this shell's place.
func (sh *shell) fail(line int, word, why, in string, anywhere bool) {
	sh.r.unreadable(sh.at, sh.script, line, unmark(word, sh.marks), why, in, anywhere)
}

// walkSource parses src (the run: block when script is "") and walks
// it in this shell.
func (sh *shell) walkSource(src, script string, line int) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), script)
	if err != nil {
		in, anywhere := path.Dir(script), script == ""
		if in == "." {
			in = ""
		}
		sh.fail(line, firstLine(src), "planwarden's shell parser cannot read it", in, anywhere)
		return
	}
	saved := sh.src
	sh.src = src
	sh.walkStmts(f.Stmts)
	sh.src = saved
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func (sh *shell) walkStmts(stmts []*syntax.Stmt) {
	for _, st := range stmts {
		sh.walkStmt(st, false)
	}
}

// stdin is where a command's standard input comes from.
type stdin struct {
	file     *word  // < file
	heredoc  string // <<EOF body, <<< word
	hasHdoc  bool
	piped    bool
	hdocLine int
}

// systemPath is PATH before a step changes it: the runner's directories.
const systemPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// ghFile is a file of the runner's that a command writes to: GITHUB_PATH
// (directories put on PATH) or GITHUB_ENV (variables of later steps).
const (
	ghPathFile = wsRoot + "/.planwarden/GITHUB_PATH"
	ghEnvFile  = wsRoot + "/.planwarden/GITHUB_ENV"
)

func (sh *shell) walkStmt(st *syntax.Stmt, piped bool) {
	in := stdin{piped: piped}
	var writes string
	for _, rd := range st.Redirs {
		switch rd.Op {
		case syntax.RdrIn:
			w := sh.word(rd.Word)
			in.file = &w
		case syntax.Hdoc, syntax.DashHdoc:
			if rd.Hdoc != nil {
				w := sh.word(rd.Hdoc)
				in.heredoc, in.hasHdoc, in.hdocLine = w.s, true, int(rd.Hdoc.Pos().Line())
				if !w.known {
					in.heredoc = ""
					in.hasHdoc = false
				}
			}
		case syntax.WordHdoc:
			w := sh.word(rd.Word)
			in.heredoc, in.hasHdoc = w.s, w.known
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
			if w := sh.word(rd.Word); w.known && (w.s == ghPathFile || w.s == ghEnvFile) {
				writes = w.s
			}
		}
	}
	switch c := st.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		sh.call(c, in, writes)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			sh.walkStmt(c.X, piped)
			sh.walkStmt(c.Y, true)
			return
		}
		sh.walkStmt(c.X, piped)
		sh.walkStmt(c.Y, piped)
	case *syntax.Subshell:
		sh.clone().walkStmts(c.Stmts)
	case *syntax.Block:
		sh.walkStmts(c.Stmts)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			sh.walkStmts(ic.Cond)
			sh.walkStmts(ic.Then)
		}
	case *syntax.WhileClause:
		sh.walkStmts(c.Cond)
		sh.walkStmts(c.Do)
	case *syntax.ForClause:
		if wi, ok := c.Loop.(*syntax.WordIter); ok {
			for _, w := range wi.Items {
				sh.word(w)
			}
			sh.setVar(wi.Name.Value, "", false)
		} else {
			sh.substsIn(c.Loop)
		}
		sh.walkStmts(c.Do)
	case *syntax.CaseClause:
		sh.word(c.Word)
		for _, it := range c.Items {
			sh.walkStmts(it.Stmts)
		}
	case *syntax.FuncDecl:
		sh.clone().walkStmt(c.Body, false)
	case *syntax.DeclClause:
		for _, a := range c.Args {
			sh.assign(a, true)
		}
	case *syntax.TimeClause:
		if c.Stmt != nil {
			sh.walkStmt(c.Stmt, piped)
		}
	case *syntax.CoprocClause:
		sh.walkStmt(c.Stmt, false)
	case *syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause:
		sh.substsIn(c)
	default:
		sh.fail(int(st.Pos().Line()), sh.text(st), "a shell construct planwarden does not read", "", true)
	}
}

// substsIn walks the command substitutions inside a node.
func (sh *shell) substsIn(n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch s := n.(type) {
		case *syntax.CmdSubst:
			sh.clone().walkStmts(s.Stmts)
			return false
		case *syntax.ProcSubst:
			sh.clone().walkStmts(s.Stmts)
			return false
		}
		return true
	})
}

// text is a node's source, expressions put back.
func (sh *shell) text(n syntax.Node) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(sh.src) || a > b {
		return ""
	}
	return unmark(sh.src[a:b], sh.marks)
}

// assign applies an assignment (a = v; export a=v) to the shell.
func (sh *shell) assign(a *syntax.Assign, persist bool) {
	if a.Name == nil {
		if a.Value != nil {
			sh.word(a.Value)
		}
		return
	}
	name := a.Name.Value
	if a.Array != nil || a.Index != nil || a.Append {
		sh.substsIn(a)
		sh.setVar(name, "", false)
		return
	}
	v := word{known: true}
	if a.Value != nil {
		v = sh.word(a.Value)
	} else if a.Naked {
		return // export NAME: no new value
	}
	if name == "PATH" || dangerousEnv[name] {
		sh.checkEnvVar(name, word{s: v.s, known: v.known, line: int(a.Pos().Line()), text: sh.text(a)})
	}
	if persist {
		sh.setVar(name, v.s, v.known)
	}
}

// word is a shell word's value, when it is known.
type word struct {
	s     string
	known bool
	// prefix is the known text before the first unknown part, text the
	// word as written, line its line.
	prefix, text string
	line         int
}

// word evaluates a shell word: literals, quotes, variables whose values
// are known, $0 and BASH_SOURCE in a script, the common command
// substitutions ($(dirname ...), $(pwd), $(cd ... && pwd)); a glob, an
// unknown variable or an expression planwarden cannot expand makes it
// unknown. Command substitutions are walked as commands too.
func (sh *shell) word(w *syntax.Word) word {
	out := word{known: true, text: sh.text(w), line: int(w.Pos().Line())}
	var b strings.Builder
	unknown := func() {
		if out.known {
			out.prefix = b.String()
		}
		out.known = false
	}
	var parts func(ps []syntax.WordPart, quoted bool)
	parts = func(ps []syntax.WordPart, quoted bool) {
		for i, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				v := p.Value
				if !quoted && i == 0 && b.Len() == 0 && (v == "~" || strings.HasPrefix(v, "~/")) {
					v = "/home/runner" + v[1:]
				}
				if !quoted && isGlob(v) {
					b.WriteString(v)
					unknown()
					continue
				}
				b.WriteString(v)
			case *syntax.SglQuoted:
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				parts(p.Parts, true)
			case *syntax.ParamExp:
				v, ok := sh.param(p)
				if !ok {
					unknown()
				}
				b.WriteString(v)
			case *syntax.CmdSubst:
				sh.clone().walkStmts(p.Stmts)
				v, ok := sh.cmdSubst(p)
				if !ok {
					unknown()
				}
				b.WriteString(v)
			case *syntax.ProcSubst:
				sh.clone().walkStmts(p.Stmts)
				unknown()
			default:
				sh.substsIn(p)
				unknown()
			}
		}
	}
	parts(w.Parts, false)
	out.s = b.String()
	if strings.Contains(out.s, exprMark) {
		if out.known {
			out.prefix = out.s[:strings.Index(out.s, exprMark)]
		}
		out.known = false
	}
	return out
}

// param is a parameter expansion's value.
func (sh *shell) param(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Width || p.IsSet {
		return "", false
	}
	v, ok := sh.lookup(p.Param.Value, p.Index)
	if p.Exp == nil {
		return v, ok
	}
	switch p.Exp.Op {
	case syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		if ok && p.Exp.Word != nil && sh.text(p.Exp.Word) == "/*" {
			return path.Dir(v), true
		}
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
		if ok {
			return v, true
		}
	}
	return "", false
}

// lookup is a variable's value when it is known.
func (sh *shell) lookup(name string, index syntax.ArithmExpr) (string, bool) {
	script := ""
	if sh.script != "" {
		script = path.Join(sh.at.repoAbs(), sh.script)
	}
	switch name {
	case "0", "BASH_SOURCE":
		if index != nil && !(name == "BASH_SOURCE" && isZero(index)) {
			return "", false
		}
		return script, script != ""
	case "PWD":
		return sh.abs(), !sh.cwdLost
	case "GITHUB_WORKSPACE":
		return wsRoot, true
	case "GITHUB_ACTION_PATH":
		if sh.at.inAction {
			return path.Join(sh.at.repoAbs(), sh.at.actionDir), true
		}
	case "HOME":
		return "/home/runner", true
	case "RUNNER_TEMP":
		return "/home/runner/work/_temp", true
	case "PATH":
		if v, ok := sh.vars["PATH"]; ok || sh.unknown["PATH"] {
			return v, ok
		}
		return systemPath, true // the runner's own directories
	case "GITHUB_PATH":
		return ghPathFile, true
	case "GITHUB_ENV":
		return ghEnvFile, true
	}
	if index != nil {
		return "", false
	}
	v, ok := sh.vars[name]
	return v, ok
}

func isZero(e syntax.ArithmExpr) bool {
	w, ok := e.(*syntax.Word)
	return ok && len(w.Parts) == 1 && litValue(w.Parts[0]) == "0"
}

func litValue(p syntax.WordPart) string {
	if l, ok := p.(*syntax.Lit); ok {
		return l.Value
	}
	return ""
}

// abs is the directory as an absolute path.
func (sh *shell) abs() string {
	if strings.HasPrefix(sh.cwd, "/") {
		return sh.cwd
	}
	return path.Join(wsRoot, sh.cwd)
}

// cmdSubst is the value of the command substitutions planwarden knows:
// $(dirname X), $(pwd), $(realpath X), $(cd X && pwd), $(git rev-parse
// --show-toplevel).
func (sh *shell) cmdSubst(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	c := sh.clone()
	var run func(st *syntax.Stmt) (string, bool)
	run = func(st *syntax.Stmt) (string, bool) {
		switch cmd := st.Cmd.(type) {
		case *syntax.BinaryCmd:
			if cmd.Op != syntax.AndStmt {
				return "", false
			}
			if _, ok := run(cmd.X); !ok && !c.changedDir {
				return "", false
			}
			return run(cmd.Y)
		case *syntax.CallExpr:
			var args []word
			for _, a := range cmd.Args {
				args = append(args, c.word(a))
			}
			if len(args) == 0 || !args[0].known {
				return "", false
			}
			switch args[0].s {
			case "pwd":
				return c.abs(), !c.cwdLost
			case "dirname":
				if len(args) == 2 && args[1].known {
					return path.Dir(c.absOf(args[1].s)), true
				}
			case "realpath", "readlink":
				last := args[len(args)-1]
				if len(args) >= 2 && last.known {
					return c.absOf(last.s), !c.cwdLost || path.IsAbs(last.s)
				}
			case "cd":
				c.cd(args[1:])
				c.changedDir = true
				return "", false
			case "git":
				if len(args) == 3 && args[1].s == "rev-parse" && args[2].s == "--show-toplevel" {
					return c.at.repoAbs(), true
				}
			case "go":
				if len(args) == 3 && args[1].s == "env" && args[2].s == "GOPATH" {
					return "/home/runner/go", true // go install puts remote tools there; a local one is used by go install itself
				}
			}
		}
		return "", false
	}
	return run(cs.Stmts[0])
}

// absOf is p made absolute against the directory.
func (sh *shell) absOf(p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(sh.abs(), p)
}

// Where a path is.
const (
	inRepo = iota
	outside
	cwdLost
)

// place says where a known path is: a repository path (relative to the
// root), outside the checkout, or relative to a directory planwarden lost.
func (sh *shell) place(p string) (string, int) {
	if !path.IsAbs(p) {
		if sh.cwdLost {
			return "", cwdLost
		}
		p = path.Join(sh.abs(), p)
	}
	p = path.Clean(p)
	root := sh.at.repoAbs()
	switch {
	case p == root:
		return "", inRepo
	case strings.HasPrefix(p, root+"/"):
		return strings.TrimPrefix(p, root+"/"), inRepo
	case !strings.HasPrefix(p, wsRoot+"/") && p != wsRoot && isRunnerCheckout(p):
		return "", cwdLost // the checkout by its runner path: where in it, planwarden cannot tell
	}
	return "", outside
}

// isRunnerCheckout reports whether an absolute path may be the checkout
// as a runner names it (/home/runner/work/repo/repo, /__w/repo/repo in a
// container) rather than as github.workspace does.
func isRunnerCheckout(p string) bool {
	if strings.HasPrefix(p, "/home/runner/work/_temp/") || p == "/home/runner/work/_temp" {
		return false
	}
	return strings.HasPrefix(p, "/home/runner/work/") || strings.HasPrefix(p, "/__w/") || strings.HasPrefix(p, "/Users/runner/work/")
}

// cd changes the directory; a directory planwarden cannot place loses it.
func (sh *shell) cd(args []word) {
	for len(args) > 0 && (args[0].s == "-P" || args[0].s == "-L" || args[0].s == "--") {
		args = args[1:]
	}
	if len(args) == 0 {
		sh.cwd, sh.cwdLost = "/home/runner", false
		return
	}
	if !args[0].known || args[0].s == "-" {
		sh.cwdLost = true
		return
	}
	if p, where := sh.place(args[0].s); where == inRepo {
		sh.cwd = p
	} else if where == outside {
		sh.cwd = sh.absOf(args[0].s)
	}
}

// isGlob reports whether an unquoted literal is a pattern the shell
// expands: *, ?, or a [...] bracket expression.
func isGlob(v string) bool {
	if strings.ContainsAny(v, "*?") {
		return true
	}
	i := strings.IndexByte(v, '[')
	return i >= 0 && strings.IndexByte(v[i+1:], ']') >= 0
}
