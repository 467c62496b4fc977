package trust

import (
	"path"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// What a step's uses: runs from the repository: a local action (its
// action.yml, and what that runs), or the files actions/github-script
// requires.

// uses walks a step's uses: a local action, or actions/github-script.
func (r *reader) uses(s step, st *yaml.Node, u string) {
	if local, ok := localPath(u); ok {
		if p, ok := s.toRepo(local); ok {
			r.action(p, s)
		}
		return
	}
	name, _, _ := strings.Cut(u, "@")
	if !strings.EqualFold(name, "actions/github-script") {
		return
	}
	script := scalarAt(st, "with", "script")
	x := expander{actionDir: s.actionDir, root: s.root}
	src, marks := x.script(script)
	for _, m := range requireCall().FindAllStringSubmatch(src, -1) {
		arg := m[1]
		lit, ok := jsStringLiteral(arg)
		if !ok || strings.Contains(lit, exprMark) {
			r.unreadable(s, "", 0, unmark(arg, marks), "actions/github-script requires a module whose name is built at run time", "", true)
			continue
		}
		lit = strings.Replace(lit, "${process.env.GITHUB_WORKSPACE}", ".", 1)
		if !strings.HasPrefix(lit, "./") && !strings.HasPrefix(lit, "../") && !strings.HasPrefix(lit, ".") {
			continue // a package: from node_modules or Node itself
		}
		p, ok := s.toRepo(path.Clean(lit))
		if !ok || p == ".." || strings.HasPrefix(p, "../") {
			continue
		}
		r.use(p, "required by the actions/github-script "+s.via()[len("run by "):])
		if path.Ext(p) == "" {
			r.use(p+".js", "required by the actions/github-script "+s.via()[len("run by "):])
		}
	}
}

// requireCall finds require(...) and import(...) calls in JavaScript.
var requireCall = sync1(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\brequire|\bimport)\s*\(\s*([^)]*?)\s*\)`)
})

// jsStringLiteral reads a JavaScript string literal without
// interpolation: '...', "..." or `...` with only ${process.env.GITHUB_WORKSPACE}.
func jsStringLiteral(s string) (string, bool) {
	if len(s) < 2 {
		return "", false
	}
	q := s[0]
	if q != '\'' && q != '"' && q != '`' || s[len(s)-1] != q {
		return "", false
	}
	body := s[1 : len(s)-1]
	if strings.ContainsAny(body, "'\"`\\") {
		return "", false
	}
	if q == '`' && strings.Contains(strings.ReplaceAll(body, "${process.env.GITHUB_WORKSPACE}", ""), "${") {
		return "", false
	}
	return body, true
}

// action walks a local action used by step s.
func (r *reader) action(dir string, s step) {
	via := "a local action used by " + strings.TrimPrefix(s.via(), "run by ")
	if dir != "" {
		r.use(dir, via)
	}
	var file string
	var data []byte
	names := []string{"action.yml", "action.yaml"}
	for _, name := range names {
		r.use(path.Join(dir, name), via) // GitHub reads the first there is
	}
	for _, name := range names {
		f := path.Join(dir, name)
		if r.seen[f] {
			return
		}
		d, found, ok := r.read(f)
		if !ok {
			r.budget(s)
			return
		}
		if found {
			file, data = f, d
			break
		}
	}
	if file == "" {
		return // a pull request adding it changes a used path
	}
	r.seen[file] = true
	as := step{file: file, index: -1, inAction: true, actionDir: dir, root: s.root}
	doc, err := parseYAML(data)
	if err != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		r.unreadable(as, "", 0, file, "it is not a YAML mapping", dir, false)
		return
	}
	runs := valueAt(flatten(doc.Content[0]), "runs")
	using := strings.ToLower(scalarAt(runs, "using"))
	switch {
	case using == "composite":
		steps := valueAt(runs, "steps")
		if steps == nil || steps.Kind != yaml.SequenceNode {
			return
		}
		for i, st := range steps.Content {
			as.index, as.name = i, scalarAt(st, "name")
			r.step(as, st, runDefaults{}, nil, matrixValues{})
		}
	case strings.HasPrefix(using, "node"):
		for _, k := range []string{"pre", "main", "post"} {
			if f := scalarAt(runs, k); f != "" {
				r.actionFile(as, dir, f, via)
			}
		}
	case using == "docker":
		img := scalarAt(runs, "image")
		switch {
		case strings.HasPrefix(img, "docker://"):
		case dir == "":
			r.unreadable(as, "", 0, img, "a Docker action at the repository root builds its image from the whole repository", "", true)
		default:
			r.actionFile(as, dir, img, via)
		}
	default:
		r.unreadable(as, "", 0, using, "planwarden does not know how this action runs", dir, false)
	}
}

// actionFile records a file an action's runs: names, relative to its
// directory.
func (r *reader) actionFile(as step, dir, f, via string) {
	p := path.Join(dir, f)
	if strings.Contains(f, "${{") || p == ".." || strings.HasPrefix(p, "../") {
		r.unreadable(as, "", 0, f, "the action runs a file planwarden cannot place", dir, false)
		return
	}
	r.use(p, via)
}
