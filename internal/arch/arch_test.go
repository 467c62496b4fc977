// Package arch holds the test that keeps the package graph of
// docs/architecture.md: a pure core that does no network I/O, runs no
// programs and imports no cloud or GitHub SDK; go-github in app/github
// only, the AWS SDK in app/aws only, Lambda types in cmd/lambda only; a
// receiver side that links no review pipeline. Each failure names the
// package, the import (with the chain that brings it in) and the rule.
package arch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/planwarden/planwarden"

type pkg struct {
	ImportPath   string
	Standard     bool
	Imports      []string
	Deps         []string
	TestImports  []string
	XTestImports []string
}

// watchSources stats every Go file and go.mod of the module, so that
// `go test` caches this test's result only while none of them changes
// (what `go list` reads in its own process is not tracked).
func watchSources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".go") || d.Name() == "go.mod") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// goList runs `go list -json` with args in the module root; its stderr is
// part of the failure, so a broken build says why.
func goList(t *testing.T, args ...string) []pkg {
	t.Helper()
	watchSources(t)
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var notFound *exec.Error
	if errors.As(err, &notFound) {
		t.Skipf("go command not available: %v", err)
	}
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// graph is every package the module builds with, by import path.
type graph map[string]pkg

func newGraph(t *testing.T, args ...string) graph {
	g := graph{}
	for _, p := range goList(t, append([]string{"-deps"}, args...)...) {
		g[p.ImportPath] = p
	}
	return g
}

// chain is the import path from one package to a dependency, shortest
// first: "a -> b -> c".
func (g graph) chain(from, to string) string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == to {
			var path []string
			for ; p != ""; p = prev[p] {
				path = append(path, rel(p))
			}
			slices.Reverse(path)
			return strings.Join(path, " -> ")
		}
		for _, imp := range g[p].Imports {
			if _, seen := prev[imp]; !seen {
				prev[imp] = p
				queue = append(queue, imp)
			}
		}
	}
	return rel(from) + " -> ... -> " + to
}

func rel(path string) string {
	if path == module {
		return "."
	}
	return strings.TrimPrefix(path, module+"/")
}

// matches reports whether an import path is one of the prefixes: an exact
// path, or a path ending in "/" for everything below it.
func matches(path string, prefixes []string) bool {
	for _, p := range prefixes {
		if path == p || strings.HasSuffix(p, "/") && strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// Pure packages and the module packages each may import (tests included).
var pureAllowed = map[string][]string{
	"prose":     {},
	"par":       {},
	"jsontext":  {},
	"record":    {},
	"planparse": {"prose", "par", "jsontext"},
	"infra":     {"planparse", "prose", "par"},
	"rules":     {"infra", "planparse", "prose", "par"},
	"review":    {"rules", "infra", "planparse", "prose", "par", "jsontext"},
	"comment":   {"review", "rules", "infra", "planparse", "prose", "par", "record"},
	"trust":     {"rules", "infra", "planparse", "prose", "par", "record"},
}

// What no pure package may depend on, directly or not.
var forbiddenInPure = []string{
	"net", "net/http", "log", "os/exec",
	"github.com/aws/", "github.com/google/go-github/", "github.com/bradleyfalzon/",
	"github.com/hashicorp/go-retryablehttp", "github.com/hashicorp/go-cleanhttp",
}

// Who alone may import an SDK (its tests and test helpers included).
var sdkHome = []struct {
	sdk, home []string
	why       string
}{
	{[]string{"github.com/google/go-github/"}, []string{"app/github"}, "go-github belongs in the GitHub adapter, app/github"},
	{[]string{"github.com/bradleyfalzon/ghinstallation/", "github.com/golang-jwt/"}, []string{"app/github"}, "App auth belongs in the GitHub adapter, app/github"},
	{[]string{"github.com/aws/aws-sdk-go-v2", "github.com/aws/aws-sdk-go-v2/", "github.com/aws/smithy-go", "github.com/aws/smithy-go/"}, []string{"app/aws", "app/aws/"}, "the AWS SDK belongs in app/aws (and its test helpers)"},
	{[]string{"github.com/aws/aws-lambda-go/"}, []string{"cmd/lambda", "cmd/lambda/"}, "Lambda types stay in cmd/lambda"},
	{[]string{"modernc.org/", "database/sql"}, []string{"app/sqlite"}, "the SQLite driver and database/sql belong in app/sqlite"},
}

// The receiver's side links no review pipeline and no CEL.
var (
	light = []string{"app/job", "app/port", "app/github", "app/receiver", "app/aws", "prose", "record"}
	heavy = []string{module + "/app", module + "/review", module + "/rules", module + "/comment", module + "/trust", "cel.dev/", "github.com/google/cel-go/"}
)

func TestPackageGraph(t *testing.T) {
	t.Parallel()
	g := newGraph(t, module+"/...")
	for _, p := range goList(t, module+"/...") {
		r := rel(p.ImportPath)
		all := slices.Concat(p.Imports, p.TestImports, p.XTestImports)
		for _, imp := range all {
			for _, s := range sdkHome {
				if matches(imp, s.sdk) && !matches(r, s.home) {
					t.Errorf("%s imports %s: %s", r, imp, s.why)
				}
			}
		}
		if matches(r, light) {
			if bad := slices.DeleteFunc(slices.Clone(p.Deps), func(d string) bool { return !matches(d, heavy) }); len(bad) > 0 {
				t.Errorf("%s depends on %s (%s)%s: the receiver's side links no review pipeline and no CEL", r, bad[0], g.chain(p.ImportPath, bad[0]), more(bad))
			}
		}
		top := strings.Split(r, "/")[0]
		allowed, pure := pureAllowed[top]
		if !pure {
			continue
		}
		for _, imp := range all {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			if dep := strings.Split(rel(imp), "/")[0]; dep != top && !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s: the pure core depends one way; %s may import only %v", r, imp, top, allowed)
			}
		}
		if bad := slices.DeleteFunc(slices.Clone(p.Deps), func(d string) bool { return !matches(d, forbiddenInPure) }); len(bad) > 0 {
			t.Errorf("pure package %s depends on %s (%s)%s: no network, programs, SDKs or global logger in the pure core", r, bad[0], g.chain(p.ImportPath, bad[0]), more(bad))
		}
		for _, imp := range slices.Concat(p.TestImports, p.XTestImports) {
			if matches(imp, forbiddenInPure) {
				t.Errorf("a test of pure package %s imports %s: its tests stay pure too", r, imp)
			}
		}
	}
}

// more says how many other packages a rule found besides the first.
func more(bad []string) string {
	if len(bad) < 2 {
		return ""
	}
	return fmt.Sprintf(" and %d more", len(bad)-1)
}

// The receiver binary (cmd/lambda -tags receiver) links the receiver's
// side only.
func TestReceiverBinaryIsLight(t *testing.T) {
	t.Parallel()
	const main = module + "/cmd/lambda"
	g := newGraph(t, "-tags", "lambda.norpc,receiver", main)
	var bad []string
	for path := range g {
		if matches(path, heavy) {
			bad = append(bad, path)
		}
	}
	if slices.Sort(bad); len(bad) > 0 {
		t.Errorf("the receiver binary links %s (%s)%s: it must not carry the worker", rel(bad[0]), g.chain(main, bad[0]), more(bad))
	}
	if _, ok := g[module+"/app/receiver"]; !ok {
		t.Errorf("the receiver binary does not link app/receiver")
	}
	w := newGraph(t, "-tags", "lambda.norpc,worker", main)
	if _, ok := w[module+"/app/receiver"]; ok {
		t.Errorf("the worker binary links app/receiver (%s)", w.chain(main, module+"/app/receiver"))
	}
}

// The rules above must catch what they guard against: a made-up graph
// with one break of each.
func TestChainNamesTheWay(t *testing.T) {
	t.Parallel()
	g := graph{
		module + "/rules":          {Imports: []string{module + "/infra"}},
		module + "/infra":          {Imports: []string{"net/http"}},
		"net/http":                 {},
		module + "/app/receiver":   {Imports: []string{module + "/app/port"}},
		module + "/app/port":       {},
		module + "/cmd/planwarden": {Imports: []string{module + "/rules"}},
	}
	if got, want := g.chain(module+"/cmd/planwarden", "net/http"), "cmd/planwarden -> rules -> infra -> net/http"; got != want {
		t.Errorf("chain = %q, want %q", got, want)
	}
	if !matches("github.com/aws/aws-sdk-go-v2/service/sqs", sdkHome[2].sdk) || matches("github.com/aws/aws-lambda-go/events", sdkHome[2].sdk) {
		t.Errorf("the AWS SDK rule does not tell the SDK from aws-lambda-go")
	}
	if !matches("os/exec", forbiddenInPure) || matches("net/url", forbiddenInPure) || !matches(module+"/review", heavy) || matches(module+"/app/receiver", heavy) {
		t.Errorf("the prefix rules match the wrong packages")
	}
}
