package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/comment/plaintext"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
	"github.com/planwarden/planwarden/rules"
)

func init() {
	commands["review"] = command{summary: "review plan JSON files (terraform show -json) and print the PR comment or the JSON report", run: runReview}
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

const reviewUsage = `usage: planwarden review [--config FILE] [--environment ENV] [--project NAME] [--format markdown|json|text] [--out FILE]
                         [--digests] [--lockfile-base FILE [--lockfile FILE]] PLAN.json...

Reviews each PLAN.json (the output of terraform show -json, or an ARM what-if
result of az deployment group|sub what-if --result-format FullResourcePayloads
--no-pretty-print --output json for Bicep and ARM templates, or of az
stack-whatif for Deployment Stacks, or pulumi preview --json; - reads standard
input) as one project. A file of terragrunt run --all -- show -json output is
one project per unit, named by its directory (else file#n); a directory
(terragrunt --json-out-dir) is one project per plan file under it, named by its
path: plans and what-if files may be mixed in one review. --project and --environment may be repeated: the Nth
applies to the Nth plan; a single --environment applies to all. A project
without --project is named after its file.

--environment must name an environment of the repo config (or the built-in
prod or staging), exactly as written there: prd or Prod is refused, with a
did-you-mean, never reviewed as a new, unprotected environment. For a project the config
declares with an environment, the config's environment wins and
--environment is ignored (saying so on stderr); it applies to projects the
config does not declare. A project nobody gives an environment is reviewed
in default, where rules that block in protected environments block too.

--format markdown (the default) prints the PR comment, json the JSON report,
text the comment laid out for a terminal. --out FILE writes it to FILE
instead of standard output.

--digests adds to the JSON report the keyed digests of every change and of
each project's change set, which planwarden verify --reviewed compares (they
cost a decode of the attributes a change's two sides differ in: about 0.17 s
of CPU on a 20,000-change plan).

--lockfile-base FILE is the base branch's .terraform.lock.hcl: the providers
the change moves (against --lockfile FILE, else the .terraform.lock.hcl
beside the plan file) are named on every replacement, which can come from the
upgrade rather than from the code. Both may be repeated, one per plan.

Exit status: 0 pass or warn, 1 fail (a blocking finding), 2 bad usage or
unreadable input.
`

func runReview(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var projects, envs listFlag
	configPath := fs.String("config", "", "repo config file (default: .github/planwarden.yml or .planwarden.yml if present)")
	format := fs.String("format", "markdown", "markdown, json or text")
	outPath := fs.String("out", "", "write the review to FILE instead of standard output")
	region := fs.String("default-region", "", "region for resources whose plan names none")
	fs.Var(&projects, "project", "project name (repeatable)")
	fs.Var(&envs, "environment", "environment (repeatable)")
	digests := fs.Bool("digests", false, "with --format json: the keyed digests planwarden verify compares")
	var locks lockFlags
	fs.Var(&locks.base, "lockfile-base", "the base branch's .terraform.lock.hcl (repeatable)")
	fs.Var(&locks.head, "lockfile", "the change's .terraform.lock.hcl (repeatable; default: beside the plan)")
	files, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, reviewUsage)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "planwarden review: %v\n%s", err, reviewUsage)
		return exitUsage
	}
	if *format != "markdown" && *format != "json" && *format != "text" {
		fmt.Fprintf(stderr, "planwarden review: --format must be markdown, json or text, not %q\n", *format)
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "planwarden review: no plan file given\n%s", reviewUsage)
		return exitUsage
	}
	if len(projects) > len(files) {
		fmt.Fprintf(stderr, "planwarden review: %d --project names for %d plan files\n", len(projects), len(files))
		return exitUsage
	}
	if len(envs) > 1 && len(envs) != len(files) {
		fmt.Fprintf(stderr, "planwarden review: give one --environment for all plans or one per plan (%d plans, %d environments)\n", len(files), len(envs))
		return exitUsage
	}
	if *digests && *format != "json" {
		fmt.Fprintln(stderr, "planwarden review: --digests goes with --format json (the digests are part of the JSON report)")
		return exitUsage
	}
	if err := locks.check(len(files)); err != nil {
		fmt.Fprintf(stderr, "planwarden review: %v\n", err)
		return exitUsage
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		fmt.Fprintf(stderr, "planwarden review: %v\n", err)
		return exitUsage
	}
	if err := checkEnvironments(cfg, envs); err != nil {
		fmt.Fprintf(stderr, "planwarden review: %v\n", err)
		return exitUsage
	}
	prepareHeap(planBytes(files))
	inputs := make([]review.Input, 0, len(files))
	mapped := make([][]byte, 0, len(files)) // each input's mapping, nil when read
	seen := map[string]bool{}
	stdinUsed := false
	toRead, err := expandArgs(files) // units.go: --json-out-dir trees
	if err != nil {
		fmt.Fprintf(stderr, "planwarden review: %v\n", err)
		return exitUsage
	}
	for _, a := range toRead {
		i, f := a.arg, a.path
		if f == "-" {
			if stdinUsed {
				fmt.Fprintln(stderr, "planwarden review: - (standard input) given more than once")
				return exitUsage
			}
			stdinUsed = true
		}
		data, isMapped, err := readPlanMapped(f, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "planwarden review: read %s: %v\n", f, errors.Unwrap(err))
			return exitUsage
		}
		base := projectName(f, i)
		if i < len(projects) {
			base = projects[i]
		}
		if a.name != "" {
			base = a.name
		}
		plans, err := parsePlans(displayName(f), base, data) // units.go: a plan per Terragrunt unit
		if err != nil {
			fmt.Fprintf(stderr, "planwarden review: %v\n", err)
			return exitUsage
		}
		if !isMapped || len(plans) > 1 {
			data = nil // a unit's ranges are not the file's
		}
		for _, np := range plans {
			plan := np.plan
			// prior_state and planned_values are read again only for infra's
			// few lookups: their pages go back to the system until then, and
			// again as infra goes and once it is done (releaseWhileReviewing).
			releasePages(data, plan.SparseRanges())
			mapped = append(mapped, data)
			in := review.Input{Name: base, Plan: plan}
			if np.name != "" {
				in.Name = np.name
			}
			if seen[in.Name] {
				fmt.Fprintf(stderr, "planwarden review: two plans are named %q; name them with --project\n", in.Name)
				return exitUsage
			}
			seen[in.Name] = true
			given := ""
			switch {
			case len(envs) == 1:
				given = envs[0]
			case len(envs) > 1:
				given = envs[i]
			}
			in.Environment = projectEnvironment(cfg, in.Name, given, stderr)
			if in.ProviderUpgrades, err = locks.upgrades(i, f); err != nil {
				fmt.Fprintf(stderr, "planwarden review: %v\n", err)
				return exitUsage
			}
			inputs = append(inputs, in)
		}
	}
	stop := releaseWhileReviewing(mapped, inputs, releaseEvery)
	report := review.Build(inputs, review.Options{Config: cfg, DefaultRegion: *region, Digests: *digests})
	stop()
	if err := writeOutput(*outPath, stdout, func(w io.Writer) error {
		switch *format {
		case "json":
			return reportjson.Write(w, report)
		case "text":
			_, err := io.WriteString(w, plaintext.Render(comment.Render(report, comment.Options{NoConfig: cfg.File() == ""})))
			return err
		}
		_, err := io.WriteString(w, comment.Render(report, comment.Options{NoConfig: cfg.File() == ""}))
		return err
	}); err != nil {
		fmt.Fprintf(stderr, "planwarden review: %v\n", err)
		return exitUsage
	}
	if report.Verdict == rules.VerdictFail {
		return exitFail
	}
	return exitOK
}

// writeOutput runs write on stdout, or on the file path names when it is
// set; a file is written whole to a temporary name beside it and renamed, so
// a failed write never leaves half a review where a whole one was.
func writeOutput(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" {
		if err := write(stdout); err != nil {
			return fmt.Errorf("write review: %w", err)
		}
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("--out %s: %v (check that the directory exists and is writable)", path, errors.Unwrap(err))
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("--out %s: %v", path, errors.Unwrap(err))
	}
	return nil
}

// parseInterleaved lets flags and plan files come in any order.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return files, nil
		}
		if args[0] == "--" {
			return append(files, args[1:]...), nil
		}
		files = append(files, args[0])
		args = args[1:]
	}
}

// readPlanFile reads the file f names, or standard input for "-". A
// regular file is mapped into memory (read-only) where the system allows,
// else read; the plan must not be truncated while planwarden runs.
func readPlanFile(f string, stdin io.Reader) ([]byte, error) {
	data, _, err := readPlanMapped(f, stdin)
	return data, err
}

// readPlanMapped is readPlanFile saying whether the bytes are a mapping of
// the file (mapFile), whose pages releasePages may give back; read bytes
// are the program's own memory and must never be released.
func readPlanMapped(f string, stdin io.Reader) ([]byte, bool, error) {
	if f == "-" {
		data, err := io.ReadAll(stdin)
		return data, false, err
	}
	if fh, err := os.Open(f); err == nil {
		defer fh.Close()
		if st, err := fh.Stat(); err == nil && st.Mode().IsRegular() {
			if data, ok := mapFile(fh, st.Size()); ok {
				return data, true, nil
			}
		}
	}
	data, err := os.ReadFile(f)
	return data, false, err
}

// planBytes is the size of the plan files that are regular files (not
// standard input); one that cannot be read counts nothing here, its read
// reports it.
func planBytes(files []string) int64 {
	var n int64
	for _, f := range files {
		if f == "-" {
			continue
		}
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			n += st.Size()
		}
	}
	return n
}

func displayName(f string) string {
	if f == "-" {
		return "<stdin>"
	}
	return f
}

// projectName names a project after its file: plans/gpu.json -> gpu,
// and the directory for the usual plan.json / tfplan.json.
func projectName(f string, i int) string {
	if f == "-" {
		return "stdin"
	}
	base := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
	switch base {
	case "plan", "tfplan", "terraform", "tfplan.json":
		if dir := filepath.Base(filepath.Dir(f)); dir != "." && dir != "/" {
			return dir
		}
	}
	if base == "" {
		return fmt.Sprintf("project-%d", i+1)
	}
	return base
}

// loadConfig reads --config, else the repo config in the working
// directory if there is one, else the defaults.
func loadConfig(path string) (*rules.Config, error) {
	if path == "" {
		for _, p := range rules.ConfigPaths {
			if _, err := os.Stat(p); err == nil {
				path = p
				break
			}
		}
	}
	if path == "" {
		return rules.DefaultConfig(), nil
	}
	return rules.LoadConfig(path)
}
