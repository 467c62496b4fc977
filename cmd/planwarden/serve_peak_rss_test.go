//go:build linux

package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
)

// vmHWM is the peak resident memory of process pid (its VmHWM), in KiB:
// read from /proc while it runs, it counts the process's own image only
// (not the test that started it, as its rusage would).
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// The peak resident memory of serve on each hostile input, under a 256 MB
// budget (PLANWARDEN_MEMORY_BUDGET_MB=256), for each binary named in
// PLANWARDEN_RSS_BINARIES (name=path,...): a measurement for
// docs/operations.md, not run by default (PLANWARDEN_RSS_INPUT, when set,
// keeps the inputs whose name holds it; PLANWARDEN_RSS_ENV adds
// variables to serve's environment, e.g. GOMEMLIMIT=320MiB;
// PLANWARDEN_RSS_LOGS=1 prints serve's log, e.g. with GODEBUG=gctrace=1).
//
//	go build -o /tmp/pw ./cmd/planwarden
//	PLANWARDEN_RSS_BINARIES=before=/work/helpers/pw-base,after=/tmp/pw \
//	  go test ./cmd/planwarden -run TestServePeakRSSOnHostileInputs -v -count=1
func TestServePeakRSSOnHostileInputs(t *testing.T) {
	spec := os.Getenv("PLANWARDEN_RSS_BINARIES")
	if spec == "" {
		t.Skip("set PLANWARDEN_RSS_BINARIES=name=path,... to measure")
	}
	const budgetMB = 256
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	key := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}))
	var table strings.Builder
	fmt.Fprintf(&table, "| input | binary | peak RSS (MiB) | within %d MB + 25%% | check |\n|---|---|---:|---|---|\n", budgetMB)
	for _, in := range githubtest.HostileRuns {
		if only := os.Getenv("PLANWARDEN_RSS_INPUT"); only != "" && !strings.Contains(in.Name, only) {
			continue
		}
		arts := in.Artifacts(t)
		for _, b := range strings.Split(spec, ",") {
			name, bin, _ := strings.Cut(b, "=")
			gh := githubtest.New(t)
			env := []string{
				"PLANWARDEN_APP_ID=" + strconv.FormatInt(githubtest.AppID, 10),
				"PLANWARDEN_PRIVATE_KEY=" + key,
				"PLANWARDEN_WEBHOOK_SECRET=" + rSecret,
				"PLANWARDEN_GITHUB_API_URL=" + gh.APIURL,
				"PLANWARDEN_ADDR=127.0.0.1:0",
				"PLANWARDEN_DATA_DIR=" + t.TempDir(),
				"PLANWARDEN_MEMORY_BUDGET_MB=" + strconv.Itoa(budgetMB),
			}
			if extra := os.Getenv("PLANWARDEN_RSS_ENV"); extra != "" {
				env = append(env, strings.Fields(extra)...)
			}
			const sha = "7777777777777777777777777777777777777777"
			gh.AddPR(githubtest.PR{Owner: rOwner, Repo: rRepo, Number: 7, HeadSHA: sha})
			gh.AddRun(githubtest.Run{Owner: rOwner, Repo: rRepo, ID: 701, Name: "planwarden plan", Path: ".github/workflows/planwarden-plan.yml",
				HeadSHA: sha, Conclusion: "success", PRs: []int{7}})
			for i, a := range arts {
				gh.AddArtifact(rOwner, rRepo, 701, fmt.Sprintf("planwarden-p%d", i), a)
			}
			p := startServeBinary(t, bin, env)
			if code := p.post(t, "workflow_run", "run-701", runEvent(701, 7, sha)); code != http.StatusAccepted {
				t.Fatalf("%s: workflow_run: %d", name, code)
			}
			eventually(t, in.Name+": the check is completed", func() bool { return checkOf(gh, sha).Status == "completed" })
			peak := vmHWM(t, p.cmd.Process.Pid) >> 10
			c := checkOf(gh, sha)
			p.kill(t)
			if os.Getenv("PLANWARDEN_RSS_LOGS") != "" {
				t.Logf("%s, %s: serve's log:\n%s", in.Name, name, p.logs.String())
			}
			ok := "yes"
			if peak > budgetMB*125/100 {
				ok = "**no**"
			}
			summary, _, _ := strings.Cut(c.Summary, ".")
			fmt.Fprintf(&table, "| %s | %s | %d | %s | %s: %s (%.70s) |\n", in.Name, name, peak, ok, c.Conclusion, c.Title, summary)
		}
	}
	t.Logf("\n%s", table.String())
}
