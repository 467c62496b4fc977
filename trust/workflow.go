package trust

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/planwarden/planwarden/rules"
)

// The plan workflow reader: what the plan workflows run from the
// repository (so that a pull request changing it gets
// plan-workflow-changed), and every step it cannot place (so that it gets
// plan-workflow-unreadable instead of a pass). It reads the base branch's
// tree through an fs.FS the app hands in; it does no I/O of its own.

// Reading is what the plan workflows run from the repository, as the
// base branch has it.
type Reading struct {
	// Used are the files (and directories: a local action's, a Go
	// package's) the plan workflows run or read as code, in the order
	// found, without duplicates.
	Used []Used
	// Unreadable are the places planwarden could not follow, in the order
	// found.
	Unreadable []Unreadable
}

// Unreadable is a step of a plan workflow (or of a local composite action
// it uses) holding a word planwarden cannot place: a command in a
// variable, a script path built at run time, a shell it does not read.
type Unreadable struct {
	// File is the workflow or action file, Job the job's id ("" in an
	// action), Step the step's index in its steps and Name its name (""
	// when it has none).
	File, Job string
	Step      int
	Name      string
	// Script and Line are where the word is when it is in a file the step
	// runs (a script, a Makefile, package.json), else "" and the line in
	// the run: block.
	Script string
	Line   int
	// Word is the word as written (at most 80 characters), Why what makes
	// it unplaceable.
	Word, Why string
	// In is the repository directory under which the word's files must
	// lie ("" for the repository root); Anywhere says no directory bounds
	// them. plan_workflow_inputs covers the step when a glob covers every
	// file under In (Anywhere: a glob covering every file).
	In       string
	Anywhere bool
}

// Limits of one reading: files read, and scripts nested in scripts.
const (
	maxReadFiles   = 64
	maxScriptDepth = 6
	maxScriptBytes = 256 << 10
	maxMatrixRuns  = 64
	maxWordText    = 80
)

// ReadPlanWorkflows reads cfg's plan workflows from fsys (the base
// branch's tree, paths from the repository root) and everything they run
// from the repository: reusable workflows and local actions (`uses:
// ./x`, and what their action.yml runs: a composite action's steps, a
// JavaScript action's files, a Docker action's directory), the scripts
// their run: steps execute (as commands, through wrappers such as sudo,
// env, timeout, nice and time, through bash -c and sh -c, sourced, and in
// turn the scripts those source and run), interpreters' module forms
// (python -m, go run ./pkg, node x.js), package-manager scripts (npm,
// yarn, pnpm run, read from package.json) and makefiles (make, and the
// recipes of the targets it makes), directories a step puts on PATH, and
// repository files actions/github-script requires. A run: step's
// working-directory holding ${{ matrix.x }} is read once per value of the
// job's strategy.matrix; an actions/checkout of repo (the base
// repository, owner/name) at a path moves the repository there. A file
// fsys lacks is still used (a pull request
// adding it changes what runs). Whatever cannot be placed is Unreadable;
// nothing is dropped. An error is fsys failing other than with
// fs.ErrNotExist (the app retries); what was read until then is returned.
func ReadPlanWorkflows(cfg *rules.Config, repo string, fsys fs.FS) (Reading, error) {
	r := &reader{fsys: fsys, repo: repo, seen: map[string]bool{}, usedAt: map[string]bool{}}
	for _, wf := range cfg.PlanWorkflowPaths() {
		r.workflow(wf, "")
	}
	return r.out, r.err
}

// reader holds one reading.
type reader struct {
	fsys   fs.FS
	repo   string
	out    Reading
	err    error
	reads  int
	seen   map[string]bool // workflow and action files walked
	usedAt map[string]bool
	// over is set once maxReadFiles is reached (reported once).
	over bool
}

// use records a used file or directory.
func (r *reader) use(p, via string) {
	p = strings.TrimSuffix(p, "/")
	if p == "" || p == "." || r.usedAt[p] {
		return
	}
	r.usedAt[p] = true
	r.out.Used = append(r.out.Used, Used{Path: p, Via: via})
}

// read returns a file of the repository: nil and false when fsys lacks it
// (or it is a directory), and when the reading's budget is spent (ok
// false, over set: the caller reports it).
func (r *reader) read(p string) (data []byte, found, ok bool) {
	if r.reads >= maxReadFiles {
		return nil, false, false
	}
	r.reads++
	data, err := fs.ReadFile(r.fsys, p)
	switch {
	case err == nil:
		return data, true, true
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) || isDirErr(err):
		return nil, false, true
	}
	if r.err == nil {
		r.err = fmt.Errorf("read %s: %w", p, err)
	}
	return nil, false, true
}

func isDirErr(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "directory")
}

// step is where a word was found, for an Unreadable.
type step struct {
	file, job string
	index     int
	name      string
	// actionDir is the local action's directory for a composite action's
	// steps (github.action_path), else "".
	actionDir string
	inAction  bool
	// root is where the job checks the repository out in the workspace
	// (actions/checkout's path), "" for the workspace itself.
	root string
}

// repoAbs is the repository's checkout as an absolute path.
func (s step) repoAbs() string { return path.Join(wsRoot, s.root) }

// toRepo turns a workspace path of a local uses: into a repository
// path; false when it is outside the repository's checkout.
func (s step) toRepo(p string) (string, bool) {
	switch {
	case s.root == "":
		return p, true
	case p == s.root:
		return "", true
	case strings.HasPrefix(p, s.root+"/"):
		return strings.TrimPrefix(p, s.root+"/"), true
	}
	return "", false
}

func (s step) label() string {
	if s.name != "" {
		return fmt.Sprintf("%q", s.name)
	}
	return "#" + strconv.Itoa(s.index+1)
}

// via says how the plan workflow reaches something a step runs.
func (s step) via() string {
	if s.inAction {
		return fmt.Sprintf("run by step %s of the local action %s", s.label(), s.file)
	}
	return fmt.Sprintf("run by step %s of job %s in %s", s.label(), s.job, s.file)
}

// unreadable records an Unreadable at a step.
func (r *reader) unreadable(s step, script string, line int, word, why, in string, anywhere bool) {
	word = strings.Join(strings.Fields(word), " ")
	if len(word) > maxWordText {
		word = word[:maxWordText-1] + "…"
	}
	u := Unreadable{File: s.file, Job: s.job, Step: s.index, Name: s.name, Script: script, Line: line, Word: word, Why: why, In: in, Anywhere: anywhere}
	if !slices.Contains(r.out.Unreadable, u) {
		r.out.Unreadable = append(r.out.Unreadable, u)
	}
}

// workflow walks a workflow file (a plan workflow, or a reusable
// workflow one calls).
func (r *reader) workflow(p, via string) {
	if r.seen[p] {
		return
	}
	r.seen[p] = true
	if via != "" {
		r.use(p, via)
	}
	data, found, ok := r.read(p)
	top := step{file: p, job: "(workflow)", index: -1}
	switch {
	case !ok:
		r.budget(top)
		return
	case !found:
		return // a pull request adding it changes it: WorkflowChanges sees the path
	}
	doc, err := parseYAML(data)
	if err != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		r.unreadable(top, "", 0, p, "it is not a YAML mapping", path.Dir(p), false)
		return
	}
	root := flatten(doc.Content[0])
	wfDefaults := defaultsOf(root)
	wfEnv := stepEnv(root)
	jobs := valueAt(root, "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(jobs.Content); i += 2 {
		id, job := jobs.Content[i].Value, jobs.Content[i+1]
		if job.Kind != yaml.MappingNode {
			continue
		}
		js := step{file: p, job: id, index: -1}
		if u := scalarAt(job, "uses"); u != "" {
			if local, ok := localPath(u); ok {
				r.workflow(local, "a reusable workflow called by job "+id+" of "+p)
			}
			continue
		}
		d := wfDefaults.over(defaultsOf(job))
		env := mergeEnv(wfEnv, stepEnv(job))
		matrix := matrixOf(job)
		d.windows = mayRunOnWindows(job, matrix)
		steps := valueAt(job, "steps")
		if steps == nil || steps.Kind != yaml.SequenceNode {
			continue
		}
		root, at, ok := checkoutRoot(steps, r.repo)
		if !ok {
			js.index, js.name = at, scalarAt(steps.Content[at], "name")
			r.unreadable(js, "", 0, scalarAt(steps.Content[at], "with", "path"), "it checks the repository out where planwarden cannot tell", "", true)
			continue
		}
		js.root = root
		for si, st := range steps.Content {
			js.index, js.name = si, scalarAt(st, "name")
			r.step(js, st, d, env, matrix)
		}
	}
}

// runDefaults are a workflow's or job's defaults.run, and whether the
// job may run on Windows (where a step's default shell is PowerShell).
type runDefaults struct {
	shell, dir string
	windows    bool
}

func defaultsOf(n *yaml.Node) runDefaults {
	return runDefaults{shell: scalarAt(n, "defaults", "run", "shell"), dir: scalarAt(n, "defaults", "run", "working-directory")}
}

func (d runDefaults) over(o runDefaults) runDefaults {
	if o.shell != "" {
		d.shell = o.shell
	}
	if o.dir != "" {
		d.dir = o.dir
	}
	return d
}

// stepEnv reads an env: mapping's scalar values.
func stepEnv(n *yaml.Node) map[string]string {
	e := valueAt(n, "env")
	if e == nil || e.Kind != yaml.MappingNode {
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(e.Content); i += 2 {
		if e.Content[i+1].Kind == yaml.ScalarNode {
			out[e.Content[i].Value] = e.Content[i+1].Value
		}
	}
	return out
}

func mergeEnv(a, b map[string]string) map[string]string {
	out := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// localPath reads a `uses:` value that names a path of this repository
// (./x, ./), cleaned and relative to the root ("" for the root itself).
func localPath(uses string) (string, bool) {
	if uses != "./" && !strings.HasPrefix(uses, "./") {
		return "", false
	}
	p, _, _ := strings.Cut(uses, "@")
	p = strings.TrimPrefix(path.Clean(p), "./")
	if p == "." {
		p = ""
	}
	return p, !strings.HasPrefix(p, "../") && p != ".."
}

// step walks one step of a job or of a composite action.
func (r *reader) step(s step, st *yaml.Node, d runDefaults, env map[string]string, matrix matrixValues) {
	if st.Kind != yaml.MappingNode {
		return
	}
	if u := scalarAt(st, "uses"); u != "" {
		r.uses(s, st, u)
		return
	}
	run := scalarAt(st, "run")
	if run == "" {
		return
	}
	shell := d.shell
	if sh := scalarAt(st, "shell"); sh != "" {
		shell = sh
	}
	if shell == "" && d.windows {
		r.unreadable(s, "", 0, "runs-on", "the job may run on Windows, where a step's default shell is PowerShell, which planwarden does not read; give the step shell: bash", "", true)
		return
	}
	if !bashLike(shell) {
		r.unreadable(s, "", 0, shell, "planwarden reads bash and sh steps only", "", true)
		return
	}
	dir := d.dir
	if wd := scalarAt(st, "working-directory"); wd != "" {
		dir = wd
	}
	env = mergeEnv(env, stepEnv(st))
	keys := matrixKeys(dir+"\n"+run, env)
	runs, why := matrix.combos(keys)
	if why != "" {
		r.unreadable(s, "", 0, "${{ matrix."+keys[0]+" }}", why, "", true)
		return
	}
	for _, combo := range runs {
		x := expander{matrix: combo, actionDir: s.actionDir, root: s.root, env: env}
		wd, known := x.path(dir)
		if !known {
			r.unreadable(s, "", 0, dir, "its working-directory holds an expression planwarden cannot expand", "", true)
			return
		}
		sh := r.newShell(s)
		sh.cwd = wd
		for _, k := range sortedKeys(env) {
			v := env[k]
			val, ok := x.value(v)
			sh.setVar(k, val, ok)
			if k == "PATH" || dangerousEnv[k] {
				sh.checkEnvVar(k, word{s: val, known: ok, text: k + ": " + v})
			}
		}
		src, marks := x.script(run)
		sh.marks = marks
		sh.walkSource(src, "", 0)
	}
}

// bashLike reports whether a step's shell is one planwarden reads: the
// default, bash or sh, with or without options.
func bashLike(shell string) bool {
	if shell == "" {
		return true
	}
	f := strings.Fields(shell)
	if f[0] != "bash" && f[0] != "sh" {
		return false
	}
	for _, o := range f[1:] {
		if o != "{0}" && !shellOption.MatchString(o) {
			return false // --rcfile x, a file to source: not a shell planwarden reads
		}
	}
	return true
}

// shellOption is a bash or sh option that names no file.
var shellOption = regexp.MustCompile(`^(-[a-zA-Z]+|\+[a-zA-Z]+|--(noprofile|norc|login|posix|noediting)|pipefail|errexit|nounset|xtrace)$`)

// budget reports once that the reading's file budget is spent.
func (r *reader) budget(s step) {
	if r.over {
		return
	}
	r.over = true
	r.unreadable(s, "", 0, "(more files)", fmt.Sprintf("the plan workflows run more than %d files, more than planwarden follows", maxReadFiles), "", true)
}

// sortedKeys returns m's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mayRunOnWindows reports whether a job's runs-on may name a Windows
// runner: a label with windows in it, or one planwarden cannot read (an
// expression other than a matrix value it can).
func mayRunOnWindows(job *yaml.Node, matrix matrixValues) bool {
	n := valueAt(job, "runs-on")
	if n == nil {
		return false
	}
	var labels []string
	switch n.Kind {
	case yaml.ScalarNode:
		labels = []string{n.Value}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			labels = append(labels, c.Value)
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			if c := n.Content[i]; c.Kind == yaml.SequenceNode {
				for _, l := range c.Content {
					labels = append(labels, l.Value)
				}
			} else {
				labels = append(labels, c.Value)
			}
		}
	}
	for _, l := range labels {
		if keys := matrixKeys(l, nil); len(keys) > 0 && !strings.Contains(matrixRef().ReplaceAllString(l, ""), "${{") {
			combos, why := matrix.combos(keys)
			if why != "" {
				return true
			}
			for _, c := range combos {
				if v, _ := (expander{matrix: c}).value(l); strings.Contains(strings.ToLower(v), "windows") {
					return true
				}
			}
			continue
		}
		if strings.Contains(l, "${{") || strings.Contains(strings.ToLower(l), "windows") {
			return true
		}
	}
	return false
}

// checkoutRoot is where a job's steps check this repository out in the
// workspace (actions/checkout's path; "" for the workspace itself): a
// checkout of repo, or of a repository named by an expression (it may be
// this one). ok is
// false, with the step's index, when a checkout's path holds an
// expression or two checkouts of the repository disagree.
func checkoutRoot(steps *yaml.Node, repo string) (root string, at int, ok bool) {
	found := false
	for i, st := range steps.Content {
		name, _, _ := strings.Cut(scalarAt(st, "uses"), "@")
		if !strings.EqualFold(name, "actions/checkout") {
			continue
		}
		if other := scalarAt(st, "with", "repository"); other != "" && !strings.Contains(other, "${{") && !strings.EqualFold(other, repo) {
			continue // another repository's code, by name: not the pull request's
		}
		p := scalarAt(st, "with", "path")
		if strings.Contains(p, "${{") {
			return "", i, false
		}
		p = strings.Trim(path.Clean("/"+p), "/")
		if found && p != root {
			return "", i, false
		}
		root, found = p, true
	}
	return root, 0, true
}
