package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// validate warns when a declared directory calls a local module outside
// its project's paths (a pull request changing only that module would not
// count as changing the project), and stays quiet when paths cover it.
func TestValidateWarnsOfModulesOutsidePaths(t *testing.T) {
	files := map[string]string{
		"envs/prod/main.tf":        "module \"pool\" {\n  source = \"../../modules/gpu-pool\"\n}\n",
		"modules/gpu-pool/main.tf": "",
	}
	tests := map[string]struct {
		config, stderr string
	}{
		"a module outside the paths": {
			config: "version: 1\nprojects:\n  - {name: gpu, directory: envs/prod, environment: prod}\n",
			stderr: `planwarden validate: warning: project gpu: directory envs/prod calls local module modules/gpu-pool (module "pool" in envs/prod/main.tf), outside its paths; add "modules/gpu-pool/**" to its paths so a pull request that changes only the module needs its plan` + "\n",
		},
		"twin: paths that hold the module": {
			config: "version: 1\nprojects:\n  - {name: gpu, directory: envs/prod, environment: prod, paths: [\"envs/prod/**\", \"modules/**\"]}\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			fs := map[string]string{".github/planwarden.yml": tc.config}
			for k, v := range files {
				fs[k] = v
			}
			writeFiles(t, dir, fs)
			t.Chdir(dir)
			var stdout, stderr bytes.Buffer
			if code := run([]string{"validate"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
				t.Errorf("exit %d, want %d (a warning keeps the config valid)", code, exitOK)
			}
			if want := ".github/planwarden.yml: ok (version 1, 1 project, 2 environments, 0 custom rules, protected: prod)\n"; stdout.String() != want {
				t.Errorf("stdout = %q, want %q", stdout.String(), want)
			}
			if diff := cmp.Diff(tc.stderr, stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}
