package trust

import (
	"path"
	"regexp"
	"strconv"
	"strings"
)

// A makefile read far enough to know what make runs: variables set with
// =, :=, ::=, ?= and += (every branch of a conditional, the last value
// winning), define blocks, include lines, explicit rules and their
// recipes. Pattern rules, functions and automatic variables are not
// evaluated: a recipe's word that depends on them is unknown.

// makefile is what makeRecipes reads of one makefile and its includes.
type makefile struct {
	vars  map[string]string
	rules map[string]*makeRule
	first string // the default goal
}

type makeRule struct {
	prereqs []string
	recipe  []recipeLine
}

type recipeLine struct {
	text string
	line int
	file string
}

var (
	makeAssign = regexp.MustCompile(`^(?:export\s+|override\s+)*([A-Za-z0-9_.-]+)\s*(::=|:=|\?=|\+=|!=|=)\s*(.*)$`)
	makeRuleRe = regexp.MustCompile(`^([^:=#\t][^:=#]*?)\s*(::?)\s*([^=]*)$`)
	makeRef    = regexp.MustCompile(`\$(\$|\(([^()]*)\)|\{([^{}]*)\}|.)`)
)

// maxMakeRules bounds the rules made from one make command.
const maxMakeRules = 50

// makeRecipes walks the recipes make runs for goals (the default goal
// when none) in the makefile p, run from the shell's directory with the
// command line's variables.
func (sh *shell) makeRecipes(p, src string, goals []word, cmdVars map[string]string) {
	mf := &makefile{vars: map[string]string{}, rules: map[string]*makeRule{}}
	sh.parseMakefile(mf, p, src, 0)
	for k, v := range cmdVars {
		mf.vars[k] = v
	}
	var todo []string
	for _, g := range goals {
		todo = append(todo, g.s)
	}
	if len(todo) == 0 && mf.first != "" {
		todo = []string{mf.first}
	}
	done := map[string]bool{}
	for len(todo) > 0 && len(done) < maxMakeRules {
		t := todo[0]
		todo = todo[1:]
		if done[t] {
			continue
		}
		done[t] = true
		r, ok := mf.rules[t]
		if !ok {
			continue // a file, or a pattern rule's target
		}
		todo = append(todo, r.prereqs...)
		for _, l := range r.recipe {
			text, marks := mf.expand(l.text, t, sh.abs())
			text = strings.TrimLeft(text, "@-+ \t")
			run := sh.clone()
			run.chain = "run by the " + t + " recipe of " + p + ", " + strings.TrimPrefix(sh.via(), "run by ")
			run.script, run.marks = l.file, marks
			run.walkSource(text, l.file, l.line)
		}
	}
}

// parseMakefile reads one makefile (and what it includes) into mf.
func (sh *shell) parseMakefile(mf *makefile, p, src string, depth int) {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var cur []*makeRule
	var define string
	var defBody []string
	for i := 0; i < len(lines); i++ {
		l, n := lines[i], i+1
		for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, "\\") + " " + strings.TrimSpace(lines[i])
		}
		if define != "" {
			if strings.TrimSpace(l) == "endef" {
				mf.vars[define], define = strings.Join(defBody, "\n"), ""
				continue
			}
			defBody = append(defBody, l)
			continue
		}
		if strings.HasPrefix(l, "\t") {
			for _, r := range cur {
				r.recipe = append(r.recipe, recipeLine{text: strings.TrimPrefix(l, "\t"), line: n, file: p})
			}
			continue
		}
		t := strings.TrimSpace(l)
		if i := strings.IndexByte(t, '#'); i >= 0 {
			t = strings.TrimSpace(t[:i])
		}
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "define "):
			define, defBody = strings.TrimSuffix(strings.Fields(t)[1], "="), nil
			continue
		case strings.HasPrefix(t, "ifeq") || strings.HasPrefix(t, "ifneq") || strings.HasPrefix(t, "ifdef") ||
			strings.HasPrefix(t, "ifndef") || t == "else" || strings.HasPrefix(t, "else ") || t == "endif":
			continue // every branch is read
		case strings.HasPrefix(t, "include ") || strings.HasPrefix(t, "-include ") || strings.HasPrefix(t, "sinclude "):
			for _, f := range strings.Fields(t)[1:] {
				sh.makeInclude(mf, path.Dir(p), f, depth)
			}
			continue
		}
		if m := makeAssign.FindStringSubmatch(t); m != nil {
			name, op, val := m[1], m[2], m[3]
			switch op {
			case "?=":
				if _, set := mf.vars[name]; !set {
					mf.vars[name] = val
				}
			case "+=":
				mf.vars[name] = strings.TrimSpace(mf.vars[name] + " " + val)
			case "!=":
				mf.vars[name] = exprMark + "make__" // a shell command's output
			default:
				mf.vars[name] = val
			}
			cur = nil
			continue
		}
		m := makeRuleRe.FindStringSubmatch(t)
		if m == nil {
			cur = nil
			continue
		}
		prereqs, inline, _ := strings.Cut(m[3], ";")
		cur = nil
		for _, target := range strings.Fields(m[1]) {
			r := mf.rules[target]
			if r == nil || m[2] == "::" {
				r = &makeRule{}
				mf.rules[target] = r
			}
			r.prereqs = append(r.prereqs, strings.Fields(prereqs)...)
			if strings.TrimSpace(inline) != "" {
				r.recipe = append(r.recipe, recipeLine{text: strings.TrimSpace(inline), line: n, file: p})
			}
			cur = append(cur, r)
			if mf.first == "" && !strings.HasPrefix(target, ".") && !strings.Contains(target, "%") {
				mf.first = target
			}
		}
	}
}

// makeInclude reads an included makefile (a path relative to the
// including makefile's directory, make's own for a plain name).
func (sh *shell) makeInclude(mf *makefile, dir, f string, depth int) {
	if strings.ContainsAny(f, "$*?[") || depth >= maxScriptDepth {
		sh.fail(0, "include "+f, "the makefile includes a file planwarden cannot place", dir, false)
		return
	}
	p := path.Join(dir, f)
	if p == ".." || strings.HasPrefix(p, "../") {
		return
	}
	sh.r.use(p, sh.via())
	data, found, ok := sh.r.read(p)
	if !ok {
		sh.r.budget(sh.at)
		return
	}
	if found {
		sh.parseMakefile(mf, p, string(data), depth+1)
	}
}

// expand expands a recipe line's make references: variables (defined,
// else the shell's known environment), $$, $@, $(MAKE) and $(CURDIR);
// anything else (a function, $<, $^) becomes an unknown marker. It
// returns the text and the references its markers stand for.
func (mf *makefile) expand(text, target, curdir string) (string, []string) {
	var marks []string
	var exp func(s string, depth int) string
	exp = func(s string, depth int) string {
		return makeRef.ReplaceAllStringFunc(s, func(ref string) string {
			m := makeRef.FindStringSubmatch(ref)
			name := m[2] + m[3]
			if m[1] == "$" {
				return "$"
			}
			if len(m[1]) == 1 {
				name = m[1]
			}
			switch {
			case name == "@":
				return target
			case name == "CURDIR":
				return curdir
			case depth < 10 && !strings.ContainsAny(name, " ,:"):
				if v, ok := mf.vars[name]; ok {
					return exp(v, depth+1)
				}
				if name == "MAKE" {
					return "make"
				}
			}
			marks = append(marks, ref)
			return exprMark + strconv.Itoa(len(marks)-1) + "__"
		})
	}
	return exp(text, 0), marks
}
