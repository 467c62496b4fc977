package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVolumeOwnedByUser: the service's state volume must be writable by the
// user it runs as; the repo's own Dockerfile is the honest twin.
func TestVolumeOwnedByUser(t *testing.T) {
	const build = "FROM golang:1.26.8-bookworm AS build\nRUN mkdir -p /out/data\n"
	const final = "FROM gcr.io/distroless/static-debian12:nonroot\n"
	tests := map[string]struct {
		dockerfile string
		want       string // a finding containing this; "" means none of the rule
	}{
		"root-owned volume": {build + final + "VOLUME [\"/data\"]\nUSER nonroot:nonroot\nENTRYPOINT [\"/p\"]\n",
			`VolumeOwnedByUser: VOLUME /data is not owned by the final stage's USER "nonroot:nonroot"`},
		"chowned to the user by name": {build + final + "COPY --from=build --chown=nonroot:nonroot /out/data /data\nVOLUME [\"/data\"]\nUSER nonroot:nonroot\nENTRYPOINT [\"/p\"]\n", ""},
		"chowned to the user by uid":  {build + final + "COPY --from=build --chown=65532:65532 /out/data /data\nVOLUME [\"/data\"]\nUSER nonroot\nENTRYPOINT [\"/p\"]\n", ""},
		"chowned to another user": {build + final + "COPY --from=build --chown=1000:1000 /out/data /data\nVOLUME [\"/data\"]\nUSER nonroot\nENTRYPOINT [\"/p\"]\n",
			"VolumeOwnedByUser"},
		"chowned after VOLUME": {build + final + "VOLUME [\"/data\"]\nCOPY --from=build --chown=nonroot /out/data /data\nUSER nonroot\nENTRYPOINT [\"/p\"]\n",
			"VolumeOwnedByUser"},
		"another directory chowned": {build + final + "COPY --from=build --chown=nonroot /out/data /state\nVOLUME [\"/data\"]\nUSER nonroot\nENTRYPOINT [\"/p\"]\n",
			"VolumeOwnedByUser"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "Dockerfile")
			if err := os.WriteFile(f, []byte(tc.dockerfile), 0o644); err != nil {
				t.Fatal(err)
			}
			findings, err := lint(f)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(findings, "\n")
			if tc.want == "" && strings.Contains(got, "VolumeOwnedByUser") {
				t.Errorf("findings:\n%s\nwant no VolumeOwnedByUser", got)
			}
			if tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("findings:\n%s\nwant one containing %q", got, tc.want)
			}
		})
	}
}

// TestRepoDockerfileIsClean: the image planwarden ships passes every rule.
func TestRepoDockerfileIsClean(t *testing.T) {
	findings, err := lint("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if len(findings) > 0 {
		t.Errorf("Dockerfile findings:\n%s", strings.Join(findings, "\n"))
	}
}
