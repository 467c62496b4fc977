package trust

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
)

// A project's paths include the local modules its root module calls: a
// pull request that changes only modules/gpu-pool/main.tf touches the
// project whose plan called it, and needs its plan.
func TestModuleDirsWidenPaths(t *testing.T) {
	t.Parallel()
	calls := []planparse.ModuleCall{
		{Address: "module.net", Source: ""}, // a registry module
		{Address: "module.net.module.sub", Caller: "module.net", Source: "./modules/sub"},
		{Address: "module.pool", Source: "../../modules/gpu-pool"},
		{Address: "module.pool.module.taint", Caller: "module.pool", Source: "../taint"},
		{Address: "module.self", Source: "./"},
		{Address: "module.away", Source: "../../../../outside"},
		{Address: "module.again", Source: "../../modules/gpu-pool/"},
	}
	dirs := ModuleDirs("envs/prod", calls)
	if diff := cmp.Diff([]string{"modules/gpu-pool", "modules/taint"}, dirs); diff != "" {
		t.Errorf("ModuleDirs (-want +got):\n%s", diff)
	}
	cfg := config(t, "version: 1\nprojects:\n  - {name: gpu, directory: envs/prod}\n  - {name: web, directory: envs/web}\n")
	ch := Changes{Complete: true, Files: []string{"modules/gpu-pool/main.tf"}}
	if _, any := Touched(cfg, ch); any {
		t.Fatalf("the project's declared paths already hold the module: the test shows nothing")
	}
	widened := WidenPaths(cfg.Projects[0].ProjectPaths(), dirs)
	if diff := cmp.Diff([]string{"envs/prod/**", "modules/gpu-pool/**", "modules/taint/**"}, widened); diff != "" {
		t.Errorf("WidenPaths (-want +got):\n%s", diff)
	}
	if got, any := TouchedWith(cfg, ch, map[string][]string{"gpu": dirs}); !any || !cmp.Equal(got, []string{"gpu"}) {
		t.Errorf("TouchedWith the plan's modules = %v, %v; want [gpu]", got, any)
	}
	if got, any := TouchedWith(cfg, ch, map[string][]string{"web": {"modules/other"}}); any {
		t.Errorf("twin: modules of another project: TouchedWith = %v, want none", got)
	}
	tests := map[string]struct {
		globs, dirs, want []string
	}{
		"a directory the globs cover is not added":  {[]string{"modules/**"}, []string{"modules/gpu-pool"}, []string{"modules/**"}},
		"a glob of some files does not cover a dir": {[]string{"modules/gpu-pool/*.tf"}, []string{"modules/gpu-pool"}, []string{"modules/gpu-pool/*.tf", "modules/gpu-pool/**"}},
		"the repository root":                       {[]string{"envs/**"}, []string{""}, []string{"envs/**", "**"}},
		"nothing called":                            {[]string{"envs/**"}, nil, []string{"envs/**"}},
	}
	for name, tc := range tests {
		if diff := cmp.Diff(tc.want, WidenPaths(tc.globs, tc.dirs)); diff != "" {
			t.Errorf("%s: WidenPaths (-want +got):\n%s", name, diff)
		}
	}
}

// planwarden validate warns when a declared directory calls a local
// module outside the project's paths: read from the Terraform code with
// hcl/v2, native syntax and JSON, following local modules.
func TestModulesOutsidePaths(t *testing.T) {
	t.Parallel()
	repo := fstest.MapFS{
		"envs/prod/main.tf": {Data: []byte(`
module "pool" {
  source = "../../modules/gpu-pool"
  sku    = var.sku
}
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.0.0"
}
module "dynamic" {
  source = "${path.module}/x"
}
`)},
		"envs/prod/extra.tf.json":  {Data: []byte(`{"module": {"tags": {"source": "../../modules/tags"}}}`)},
		"envs/prod/README.md":      {Data: []byte("module \"x\" { source = \"./not-code\" }")},
		"modules/gpu-pool/main.tf": {Data: []byte("module \"taint\" {\n  source = \"../taint\"\n}\n")},
		"modules/taint/main.tf":    {Data: []byte("variable \"x\" {}\n")},
		"modules/tags/main.tf":     {Data: []byte("")},
		"envs/web/main.tf":         {Data: []byte("module \"site\" {\n  source = \"./site\"\n}\n")},
		"envs/web/site/main.tf":    {Data: []byte("")},
		"envs/broken/main.tf":      {Data: []byte("module \"x\" {\n")},
	}
	cfg := config(t, `version: 1
projects:
  - {name: gpu, directory: envs/prod, paths: ["envs/prod/**", "modules/tags/**"]}
  - {name: web, directory: envs/web}
`)
	got, err := ModulesOutsidePaths(cfg, repo)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]LocalModule{"gpu": {
		{File: "envs/prod/main.tf", Name: "pool", Source: "../../modules/gpu-pool", Dir: "modules/gpu-pool"},
		{File: "modules/gpu-pool/main.tf", Name: "taint", Source: "../taint", Dir: "modules/taint"},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ModulesOutsidePaths (-want +got):\n%s", diff)
	}
	broken := config(t, "version: 1\nprojects:\n  - {name: b, directory: envs/broken}\n")
	if _, err := ModulesOutsidePaths(broken, repo); err == nil || !containsAll(err.Error(), "project b", "parse envs/broken/main.tf") {
		t.Errorf("a file that does not parse: err = %v, want one naming the project and the file", err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
