// Package repocheck holds tests about what the repository tracks: no build
// outputs (binaries, coverage, profiles) may be committed.
package repocheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// binaryMagic are the first bytes of the executable formats Go builds.
var binaryMagic = map[string][]byte{
	"ELF":             {0x7f, 'E', 'L', 'F'},
	"PE (exe)":        {'M', 'Z'},
	"Mach-O":          {0xcf, 0xfa, 0xed, 0xfe},
	"Mach-O (32-bit)": {0xce, 0xfa, 0xed, 0xfe},
}

// buildOutputs are file names that are never source.
var buildOutputs = []string{"*.test", "*.prof", "*.pprof", "coverage.out", "*.coverprofile", "bootstrap"}

// trackedFiles lists `git ls-files -s`: mode and path of every tracked file.
func trackedFiles(t *testing.T) map[string]string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-s")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("not a git checkout (git ls-files: %v); nothing to check", err)
	}
	files := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		meta, path, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		files[path] = strings.Fields(meta)[0]
	}
	return files
}

// problem says why path may not be tracked, or "".
func problem(path, mode string, head []byte) string {
	for kind, magic := range binaryMagic {
		if bytes.HasPrefix(head, magic) {
			return "is a " + kind + " executable"
		}
	}
	for _, pattern := range buildOutputs {
		if ok, _ := filepath.Match(pattern, filepath.Base(path)); ok {
			return "is a build output (" + pattern + ")"
		}
	}
	if mode == "100755" && !bytes.HasPrefix(head, []byte("#!")) {
		return "is executable but not a script (no #! line)"
	}
	return ""
}

func TestNoBuildOutputsTracked(t *testing.T) {
	for path, mode := range trackedFiles(t) {
		f, err := os.Open(filepath.Join("../..", path))
		if err != nil {
			continue // deleted in the work tree, not yet committed
		}
		head := make([]byte, 4)
		n, _ := f.Read(head)
		f.Close()
		if why := problem(path, mode, head[:n]); why != "" {
			t.Errorf("%s %s: remove it with git rm --cached %s (and build it instead)", path, why, path)
		}
	}
}

func TestProblemNamesEachKind(t *testing.T) {
	cases := map[string]struct {
		path, mode string
		head       []byte
		want       string
	}{
		"linux binary":     {"planwarden", "100755", []byte{0x7f, 'E', 'L', 'F'}, "ELF"},
		"windows binary":   {"planwarden.exe", "100644", []byte("MZ\x90\x00"), "PE"},
		"mac binary":       {"pw", "100755", []byte{0xcf, 0xfa, 0xed, 0xfe}, "Mach-O"},
		"test binary":      {"app/app.test", "100644", []byte("abcd"), "*.test"},
		"profile":          {"cpu.prof", "100644", []byte("abcd"), "*.prof"},
		"coverage":         {"coverage.out", "100644", []byte("mode"), "coverage.out"},
		"lambda bootstrap": {"dist/lambda/bootstrap", "100644", []byte("abcd"), "bootstrap"},
		"executable no #!": {"tool", "100755", []byte("abcd"), "not a script"},
		"script":           {"scripts/test.sh", "100755", []byte("#!/u"), ""},
		"source":           {"main.go", "100644", []byte("pack"), ""},
	}
	for name, tc := range cases {
		got := problem(tc.path, tc.mode, tc.head)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: problem(%q) = %q, want one naming %q", name, tc.path, got, tc.want)
		}
	}
}
