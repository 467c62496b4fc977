package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFormatVersion(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		info debug.BuildInfo
		want string
	}{
		"release with commit": {
			info: debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			want: "planwarden v1.2.3 (commit 0123456789ab, 2026-12-01T10:00:00Z) go1.26.8",
		},
		"source build with local changes": {
			info: debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}},
			want: "planwarden (devel) (commit abc, modified) go1.26.8",
		},
		"no vcs information": {
			info: debug.BuildInfo{GoVersion: "go1.26.8"},
			want: "planwarden (devel) go1.26.8",
		},
	}
	for name, tc := range cases {
		if got := formatVersion(&tc.info); got != tc.want {
			t.Errorf("%s: got %q, want %q", name, got, tc.want)
		}
	}
}

func TestVersionAndHelpGoToStdout(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"--version", "version"} {
		code, out, stderr := runCLI(t, "", arg)
		if code != exitOK || !strings.HasPrefix(out, "planwarden ") || stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", arg, code, out, stderr)
		}
	}
	code, out, stderr := runCLI(t, "", "--help")
	if code != exitOK || !strings.Contains(out, "review") || stderr != "" {
		t.Errorf("--help: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "")
	if code != exitUsage || out != "" || !strings.Contains(stderr, "usage: planwarden") {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

func TestReviewOutWritesTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "review.md")
	code, out, stderr := runCLI(t, "", "review", "--out", path, "--project", "gpu", "--environment", "prod", example)
	if code != exitFail || out != "" {
		t.Fatalf("exit %d (want 1: the typo fails), stdout %q, stderr %s", code, out, stderr)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := runCLI(t, "", "review", "--project", "gpu", "--environment", "prod", example)
	if string(got) != want {
		t.Errorf("--out file differs from standard output")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("--out left %d files in the directory, want 1 (no temporary files)", len(entries))
	}

	missing := filepath.Join(dir, "no-such-dir", "review.md")
	code, _, stderr = runCLI(t, "", "review", "--out", missing, example)
	if code != exitUsage || !strings.Contains(stderr, missing) {
		t.Errorf("--out into a missing directory: exit %d, stderr %q (want 2 and the path)", code, stderr)
	}
}

func TestReviewTextFormat(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "", "review", "--format", "text", "--project", "gpu", "--environment", "prod", example)
	if code != exitFail {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"gpu-sku-loss on azurerm_kubernetes_cluster_node_pool.gpu", "$5.81", "Standard_NC6s_v3 → Standard_D16s_v5"} {
		if !strings.Contains(out, want) {
			t.Errorf("text review lacks %q", want)
		}
	}
	for _, markup := range []string{"\\$", "<details", "|---", "**"} {
		if strings.Contains(out, markup) {
			t.Errorf("text review has markdown %q", markup)
		}
	}
	code, _, stderr = runCLI(t, "", "review", "--format", "html", example)
	if code != exitUsage || !strings.Contains(stderr, "markdown, json or text") {
		t.Errorf("--format html: exit %d, %q", code, stderr)
	}
}

func TestReleaseVersionWins(t *testing.T) {
	old := version
	version = "v2.0.0"
	defer func() { version = old }()
	info := debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}
	if got, want := formatVersion(&info), "planwarden v2.0.0 go1.26.8"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
