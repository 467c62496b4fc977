// Package arch holds the test that keeps the package graph of
// ARCHITECTURE.md: a pure core that does no network I/O and imports no
// cloud or GitHub SDK, GitHub in app, AWS in app/aws only.
package arch

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/planwarden/planwarden"

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "-deps=false", module+"/...")
	cmd.Dir = "../.."
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("go command not available: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(out)
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("go list: %v", err)
	}
	return pkgs
}

func TestPackageGraph(t *testing.T) {
	pure := map[string]bool{"planparse": true, "infra": true, "rules": true, "comment": true, "review": true, "trust": true, "prose": true}
	// What each pure package may import from this module.
	allowed := map[string][]string{
		"prose":     {},
		"planparse": {"prose"},
		"infra":     {"planparse", "prose"},
		"rules":     {"infra", "planparse", "prose"},
		"review":    {"rules", "infra", "planparse", "prose"},
		"comment":   {"review", "rules", "infra", "planparse", "prose"},
		"trust":     {"rules", "infra", "planparse", "prose"},
	}
	// The receiver's side of app never links the review pipeline or CEL.
	light := []string{"app/job", "app/port", "app/github", "app/receiver", "app/aws"}
	heavy := []string{module + "/review", module + "/rules", module + "/comment", module + "/app", "cel.dev/"}
	forbiddenInPure := []string{"net", "net/http", "log", "github.com/aws/", "github.com/google/go-github/", "github.com/bradleyfalzon/", "github.com/hashicorp/go-retryablehttp"}
	for _, p := range listPackages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, "github.com/aws/aws-sdk-go-v2") && rel != "app/aws" && !strings.HasPrefix(rel, "app/aws/") {
				t.Errorf("%s imports %s: the AWS SDK belongs in app/aws (and its test helpers) only", rel, imp)
			}
			if strings.HasPrefix(imp, "github.com/google/go-github/") && rel != "app/github" {
				t.Errorf("%s imports %s: go-github belongs in the GitHub adapter, app/github", rel, imp)
			}
			if strings.HasPrefix(imp, "github.com/aws/aws-lambda-go") && !strings.HasPrefix(rel, "cmd/lambda") {
				t.Errorf("%s imports %s: Lambda types stay in cmd/lambda", rel, imp)
			}
		}
		if contains(light, rel) {
			for _, d := range p.Deps {
				for _, h := range heavy {
					if d == h || strings.HasSuffix(h, "/") && strings.HasPrefix(d, h) {
						t.Errorf("%s depends on %s: the receiver's side stays light (no review pipeline, no CEL)", rel, d)
					}
				}
			}
		}
		top := strings.Split(rel, "/")[0]
		if !pure[top] {
			continue
		}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module+"/") {
				dep := strings.Split(strings.TrimPrefix(imp, module+"/"), "/")[0]
				if dep != top && !contains(allowed[top], dep) {
					t.Errorf("%s imports %s: the pure core depends one way (see ARCHITECTURE.md)", rel, imp)
				}
			}
		}
		for _, d := range p.Deps {
			for _, f := range forbiddenInPure {
				if d == f || strings.HasSuffix(f, "/") && strings.HasPrefix(d, f) {
					t.Errorf("pure package %s depends on %s", rel, d)
				}
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
