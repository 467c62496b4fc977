package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeDeployIsGuidedOnlyTheFirstTime runs `make deploy` with a stand-in
// sam that records its arguments: without samconfig.toml the deploy asks
// for the stack's parameters (--guided); with it, it reuses them.
func TestMakeDeployIsGuidedOnlyTheFirstTime(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		samconfig bool
		want      string
	}{
		"first deploy asks":      {samconfig: false, want: "build\ndeploy --guided\n"},
		"later deploys reuse it": {samconfig: true, want: "build\ndeploy\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			bin := filepath.Join(dir, "bin")
			log := filepath.Join(dir, "sam.log")
			if err := os.Mkdir(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			sam := "#!/bin/sh\necho \"$*\" >> " + log + "\n"
			if err := os.WriteFile(filepath.Join(bin, "sam"), []byte(sam), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "Makefile"), makefile, 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.samconfig {
				if err := os.WriteFile(filepath.Join(dir, "samconfig.toml"), []byte("version = 0.1\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("make", "--no-print-directory", "deploy")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("make deploy: %v\n%s", err, out)
			}
			got, _ := os.ReadFile(log)
			if string(got) != tc.want {
				t.Errorf("sam was run as:\n%s\nwant:\n%s", got, tc.want)
			}
			if strings.Contains(string(got), "--guided") != !tc.samconfig {
				t.Errorf("guided = %v with samconfig.toml present = %v", !tc.samconfig, tc.samconfig)
			}
		})
	}
}
