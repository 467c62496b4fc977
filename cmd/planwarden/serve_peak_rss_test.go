//go:build linux

package main

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
)

// hostileInput is a run of hostile artifacts for serve.
type hostileInput struct {
	name string
	arts func(t *testing.T) [][]byte
}

var hostileInputs = []hostileInput{
	{"six ~95 MiB zips in one run", func(t *testing.T) [][]byte {
		z := storedZip(t, map[string][]byte{"plan.json": []byte(`{"format_version":"1.2"}`), "cache.bin": randomBytes(t, 95<<20)})
		return [][]byte{z, z, z, z, z, z}
	}},
	{"a zip of 1,000,000 entries", func(t *testing.T) [][]byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i := range 1_000_000 {
			// Names of 4 characters: the zip stays under the 100 MiB limit.
			if _, err := zw.CreateHeader(&zip.FileHeader{Name: strconv.FormatInt(int64(i), 36), Method: zip.Store}); err != nil {
				t.Fatal(err)
			}
		}
		zw.Close()
		return [][]byte{buf.Bytes()}
	}},
	{"a 64 MB base64 value in a plan", func(t *testing.T) [][]byte {
		value := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("#!/bin/bash\necho train\n"), 48_000_000/24))
		plan := `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{"address":"aws_instance.gpu","mode":"managed","type":"aws_instance","name":"gpu","provider_name":"registry.terraform.io/hashicorp/aws",` +
			`"change":{"actions":["create"],"before":null,"after":{"instance_type":"p4d.24xlarge","user_data_base64":"` + value + `"},"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}]}`
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.Create("plan.json")
		w.Write([]byte(plan))
		zw.Close()
		return [][]byte{buf.Bytes()}
	}},
}

func randomBytes(t *testing.T, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

func storedZip(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

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
	for _, in := range hostileInputs {
		if only := os.Getenv("PLANWARDEN_RSS_INPUT"); only != "" && !strings.Contains(in.name, only) {
			continue
		}
		arts := in.arts(t)
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
			eventually(t, in.name+": the check is completed", func() bool { return checkOf(gh, sha).Status == "completed" })
			peak := vmHWM(t, p.cmd.Process.Pid) >> 10
			c := checkOf(gh, sha)
			p.kill(t)
			if os.Getenv("PLANWARDEN_RSS_LOGS") != "" {
				t.Logf("%s, %s: serve's log:\n%s", in.name, name, p.logs.String())
			}
			ok := "yes"
			if peak > budgetMB*125/100 {
				ok = "**no**"
			}
			summary, _, _ := strings.Cut(c.Summary, ".")
			fmt.Fprintf(&table, "| %s | %s | %d | %s | %s: %s (%.70s) |\n", in.name, name, peak, ok, c.Conclusion, c.Title, summary)
		}
	}
	t.Logf("\n%s", table.String())
}
