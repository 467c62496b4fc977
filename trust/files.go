package trust

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"

	"github.com/planwarden/planwarden/rules"
)

// Changes are the files a pull request changes, as GitHub lists them (a
// renamed file under both names).
type Changes struct {
	Files []string
	// Complete is false when GitHub listed fewer files than the pull
	// request changes (it lists at most 3,000): nothing may then be
	// concluded from a file's absence.
	Complete bool
	// SHAs are the git blob SHAs of the files at the pull request's head,
	// as GitHub lists them (pulls/N/files: sha), by path; a removed file
	// may have none.
	SHAs map[string]string
}

// incompleteAddress is the address of the finding about a list of
// changed files GitHub cut short.
const incompleteAddress = "(changed files)"

// removedBlob stands for the content of a file a pull request removes
// (GitHub lists no blob SHA at its head).
const removedBlob = "(removed)"

// blobOf is the head blob SHA of a changed file, for a finding's BlobSHAs.
func (ch Changes) blobOf(file string) []string {
	if sha := ch.SHAs[file]; sha != "" {
		return []string{sha}
	}
	return []string{removedBlob}
}

// Touched returns the declared projects whose paths (ProjectPaths) match a
// changed file, in config order. With no projects declared, or with an
// incomplete list, every project counts as touched and any reports true.
func Touched(cfg *rules.Config, ch Changes) (projects []string, any bool) {
	return TouchedWith(cfg, ch, nil)
}

// TouchedWith is Touched with each project's paths widened by the
// directories of the local modules its root module calls (ModuleDirs of
// its trusted plans, which the app keeps with the pull request's state),
// by project name: a pull request changing only a called module touches
// the project.
func TouchedWith(cfg *rules.Config, ch Changes, modules map[string][]string) (projects []string, any bool) {
	if len(cfg.Projects) == 0 || !ch.Complete {
		for _, p := range cfg.Projects {
			projects = append(projects, p.Name)
		}
		return projects, true
	}
	for _, p := range cfg.Projects {
		globs := WidenPaths(p.ProjectPaths(), modules[p.Name])
		if slices.ContainsFunc(ch.Files, func(f string) bool { return matchAny(globs, f) }) {
			projects = append(projects, p.Name)
		}
	}
	return projects, len(projects) > 0
}

func matchAny(globs []string, file string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, file); ok {
			return true
		}
	}
	return false
}

// Used is a repository file a plan workflow runs, and how it is used.
type Used struct {
	// Path is a file, or a local action's directory (its action.yml and
	// everything under it count).
	Path string
	// Via says how the plan workflow reaches it, as "used by X".
	Via string
}

// parseYAML reads a workflow or action file's first document.
func parseYAML(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("not YAML: %v", err)
	}
	return &doc, nil
}

// localUses returns the repository paths a workflow or composite action
// file uses (`uses: ./path`, in jobs and in steps), cleaned and relative to
// the repository root, without duplicates, in file order. Remote actions
// (owner/repo@ref) and docker:// images are not returned: the pull request
// cannot change them.
func localUses(doc *yaml.Node) []string {
	var out []string
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || depth > 50 {
			return
		}
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Value == "uses" && v.Kind == yaml.ScalarNode && strings.HasPrefix(v.Value, "./") {
					p := strings.TrimPrefix(path.Clean(v.Value), "./")
					if p, _, _ = strings.Cut(p, "@"); !slices.Contains(out, p) && p != "." {
						out = append(out, p)
					}
				}
			}
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(doc, 0)
	return out
}

// WorkflowUses returns what a workflow or composite action file uses from
// the repository: its local actions and reusable workflows (localUses) and
// the files its run: steps execute (runFiles).
func WorkflowUses(data []byte) (uses, runs []string, err error) {
	doc, err := parseYAML(data)
	if err != nil {
		return nil, nil, err
	}
	return localUses(doc), runFiles(doc), nil
}

// runFiles returns the repository files a workflow or composite action
// file's `run:` steps execute, relative to the repository root, without
// duplicates, in file order: a command or sourced file given as a path
// (./plan.sh, scripts/plan, . ./env.sh), any argument that names a script
// (python tools/check.py, bash -e x.bash), and for make the makefile it
// reads (-f FILE, or Makefile, makefile and GNUmakefile in -C DIR or the
// step's directory). Paths are read against the step's working-directory
// (or the job's or workflow's defaults.run.working-directory). A word
// holding an expression, a variable or a glob is not a path planwarden can
// know and is left out; so are absolute paths and paths leaving the
// repository. plan_workflow_inputs names whatever this does not find.
func runFiles(doc *yaml.Node) []string {
	var out []string
	add := func(dir, p string) {
		if !known(dir) {
			return
		}
		p = path.Join(dir, p)
		if p == "." || p == ".." || strings.HasPrefix(p, "../") || slices.Contains(out, p) {
			return
		}
		out = append(out, p)
	}
	var walk func(n *yaml.Node, dir string, depth int)
	walk = func(n *yaml.Node, dir string, depth int) {
		if n == nil || depth > 50 {
			return
		}
		if n.Kind == yaml.MappingNode {
			if d := scalarAt(n, "defaults", "run", "working-directory"); d != "" {
				dir = d
			}
			if run := scalarAt(n, "run"); run != "" {
				stepDir := dir
				if d := scalarAt(n, "working-directory"); d != "" {
					stepDir = d
				}
				for _, f := range shellFiles(run) {
					add(stepDir, f)
				}
			}
		}
		for _, c := range n.Content {
			walk(c, dir, depth+1)
		}
	}
	walk(doc, "", 0)
	return out
}

// scalarAt is the scalar value at the path of keys below the mapping n, or "".
func scalarAt(n *yaml.Node, keys ...string) string {
	for _, k := range keys {
		if n.Kind != yaml.MappingNode {
			return ""
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
				break
			}
		}
		if next == nil {
			return ""
		}
		n = next
	}
	if n.Kind != yaml.ScalarNode {
		return ""
	}
	return strings.TrimSpace(n.Value)
}

// commandPrefixes are the words before a command word that run it.
var commandPrefixes = []string{"sudo", "exec", "env", "time", "nohup", "command", "then", "do", "else", "!"}

// scriptExts are the file endings that make an argument a script a step runs.
var scriptExts = []string{".sh", ".bash", ".zsh", ".py", ".ps1", ".rb", ".pl", ".js", ".mjs", ".cjs", ".ts"}

// shellFiles returns the files a shell script runs, relative to its own
// directory (see runFiles). It reads commands split at newlines, ;, &, |
// and parentheses, and words split at blanks, quotes dropped: enough for
// the steps of a workflow, not a shell.
func shellFiles(script string) []string {
	var out []string
	cwd := "" // the directory cd moved to, relative to the step's
	emit := func(p string) {
		if known(cwd) && known(p) {
			out = append(out, path.Join(cwd, p))
		}
	}
	script = strings.ReplaceAll(script, "\\\n", " ") // a line continued
	commands := strings.FieldsFunc(script, func(r rune) bool { return strings.ContainsRune("\n;&|()", r) })
	for _, c := range commands {
		words := strings.Fields(strings.NewReplacer(`"`, " ", `'`, " ").Replace(c))
		// Skip variable assignments and command prefixes to the command word.
		i := 0
		for i < len(words) && (strings.Contains(words[i], "=") && !strings.HasPrefix(words[i], "-") ||
			slices.Contains(commandPrefixes, words[i])) {
			i++
		}
		if i == len(words) {
			continue
		}
		cmd, args := words[i], words[i+1:]
		switch {
		case cmd == "cd" || cmd == "pushd":
			if len(args) == 0 || !known(args[0]) {
				cwd = "$" // somewhere planwarden cannot follow
			} else {
				cwd = path.Join(cwd, args[0])
			}
		case cmd == "make" || cmd == "gmake":
			for _, f := range makefiles(args) {
				emit(f)
			}
		case cmd == "." || cmd == "source":
			if len(args) > 0 {
				emit(args[0])
			}
		case strings.Contains(cmd, "/"):
			emit(cmd)
		}
		for _, a := range args {
			if !strings.HasPrefix(a, "-") && slices.ContainsFunc(scriptExts, func(ext string) bool { return strings.HasSuffix(a, ext) }) {
				emit(a)
			}
		}
	}
	return out
}

// known reports whether p is a relative path planwarden can follow: no
// expression, variable, glob or home directory, not absolute.
func known(p string) bool {
	return !strings.ContainsAny(p, "$`*?[{~") && !strings.HasPrefix(p, "/")
}

// makefiles returns the makefiles a make command with args reads.
func makefiles(args []string) []string {
	dir, files := "", []string(nil)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-C" || a == "--directory" || a == "-f" || a == "--file" || a == "--makefile") && i+1 < len(args):
			i++
			if a == "-C" || a == "--directory" {
				dir = args[i]
			} else {
				files = append(files, args[i])
			}
		case strings.HasPrefix(a, "--directory="):
			dir = strings.TrimPrefix(a, "--directory=")
		case strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--makefile="):
			_, f, _ := strings.Cut(a, "=")
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		files = []string{"GNUmakefile", "makefile", "Makefile"}
	}
	for i, f := range files {
		files[i] = path.Join(dir, f)
	}
	return files
}

// WorkflowChanges returns a plan-workflow-changed finding for each file of
// the pull request that is a plan workflow of cfg or something one of them
// uses (a local action's directory, a reusable workflow, a script a step
// runs: see ReadPlanWorkflows). project is the project the findings are
// filed under. Each finding carries the file's blob SHA at the head
// (ch.SHAs), so an override given after reading one content of the file
// does not cover another. An incomplete list of changes gives one
// finding: it cannot be shown that no plan workflow changed.
func WorkflowChanges(cfg *rules.Config, ch Changes, used []Used, project string) []rules.Finding {
	var out []rules.Finding
	add := func(addr, msg string) {
		f := rules.Finding{
			Rule: rules.RulePlanWorkflowChanged, Severity: rules.SeverityBlock, Project: project, Address: addr, Message: msg,
			Remedy: "Review the workflow change itself; merge it on its own first (the next pull requests then run it from the base branch), or have someone the config allows override this finding. The pull request's author cannot.",
		}
		if addr != incompleteAddress {
			f.BlobSHAs = ch.blobOf(addr)
		}
		out = append(out, f)
	}
	if !ch.Complete {
		add(incompleteAddress, "GitHub listed only part of the files this pull request changes, so planwarden cannot show that no plan workflow changed; the plan artifact cannot be trusted.")
	}
	for _, f := range ch.Files {
		if cfg.IsPlanWorkflow(f) {
			add(f, fmt.Sprintf("this pull request changes the plan workflow %s, and its plan was made by the pull request's own version of it, so the plan artifact cannot be trusted.", f))
			continue
		}
		if matchAny(cfg.PlanWorkflowInputs, f) {
			add(f, fmt.Sprintf("this pull request changes %s, which the config's plan_workflow_inputs says the plan workflows run, and the plan was made with the pull request's own version of it, so the plan artifact cannot be trusted.", f))
			continue
		}
		for _, u := range used {
			if f == u.Path || strings.HasPrefix(f, u.Path+"/") {
				add(f, fmt.Sprintf("this pull request changes %s, %s, and the plan was made with the pull request's own version of it, so the plan artifact cannot be trusted.", f, u.Via))
				break
			}
		}
	}
	return out
}
