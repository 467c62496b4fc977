package githubtest

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// HostileRun is a workflow run's artifacts made to exhaust a worker's
// memory: the inputs of the peak-memory measurements of serve
// (cmd/planwarden) and of the Lambda worker (cmd/lambda).
type HostileRun struct {
	Name      string
	Artifacts func(t testing.TB) [][]byte
}

// HostileRuns are the hostile runs, each alone within a 256 MB budget's
// admission or refused by it.
var HostileRuns = []HostileRun{
	{"six ~95 MiB zips in one run", func(t testing.TB) [][]byte {
		z := storedZip(t, map[string][]byte{"plan.json": []byte(`{"format_version":"1.2"}`), "cache.bin": randomBytes(t, 95<<20)})
		return [][]byte{z, z, z, z, z, z}
	}},
	{"a zip of 1,000,000 entries", func(t testing.TB) [][]byte {
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
	{"a 64 MB base64 value in a plan", func(t testing.TB) [][]byte {
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
	{"a 20 MB value marked sensitive, repeated twice unmarked", func(t testing.TB) [][]byte {
		// The secret set knows it by its digest (secretblob.go); the
		// unmarked copies are found whole and inside a longer value.
		// Three times 20 MB: a plan the 256 MB budget admits.
		value := strings.Repeat("apt-get install -y cuda-toolkit-12-4 ; ", 20_000_000/39)
		return [][]byte{hostilePlanZip(t, `"user_data":"`+value+`","script":"`+value+`","wrapped":"echo `+value+` done"`, `{"user_data":true}`)}
	}},
	{"a 64 MB value under a plain name", func(t testing.TB) [][]byte {
		value := strings.Repeat("gpu-node-pool-a100-", 64_000_000/19)
		return [][]byte{hostilePlanZip(t, `"description":"`+value+`"`, `{}`)}
	}},
	{"a gzip bomb in a base64 value (1 GB inflated)", func(t testing.TB) [][]byte {
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		line := bytes.Repeat([]byte("export A=1\n"), 1<<16)
		for range 1 << 30 / len(line) {
			zw.Write(line)
		}
		zw.Close()
		return [][]byte{hostilePlanZip(t, `"user_data":"`+base64.StdEncoding.EncodeToString(gz.Bytes())+`"`, `{}`)}
	}},
	{"a 34 MB plan of 70,000 resource changes (admitted)", func(t testing.TB) [][]byte {
		// About the largest plan of small changes a 256 MB budget admits
		// (3 × its bytes, 1.5 KiB a change, the job's fixed part).
		return [][]byte{ManyChanges(t, 70_000)}
	}},
	{"a 60 MB plan of 125,000 resource changes", func(t testing.TB) [][]byte {
		return [][]byte{ManyChanges(t, 125_000)}
	}},
}

// ManyChanges is an artifact of one plan (plan.json) creating n GPU
// instances, about 485 bytes of JSON each.
func ManyChanges(t testing.TB, n int) []byte {
	var b strings.Builder
	b.WriteString(`{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"address":"aws_instance.gpu[%d]","mode":"managed","type":"aws_instance","name":"gpu","index":%d,"provider_name":"registry.terraform.io/hashicorp/aws",`+
			`"change":{"actions":["create"],"before":null,"after":{"instance_type":"p4d.24xlarge","ami":"ami-0abcdef1234567890","tags":{"team":"ml-platform","pool":"a100-%d","cost_center":"research-4411"},"user_data":"#!/bin/bash\necho train %d\n"},"after_unknown":{"id":true,"arn":true},"before_sensitive":false,"after_sensitive":{}}}`, i, i, i, i)
	}
	b.WriteString(`]}`)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("plan.json")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(b.String()))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// hostilePlanZip is an artifact of one plan creating one GPU instance whose
// after holds the members given (JSON, without braces), with after_sensitive.
func hostilePlanZip(t testing.TB, members, sensitive string) []byte {
	plan := `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{"address":"aws_instance.gpu","mode":"managed","type":"aws_instance","name":"gpu","provider_name":"registry.terraform.io/hashicorp/aws",` +
		`"change":{"actions":["create"],"before":null,"after":{"instance_type":"p4d.24xlarge",` + members + `},"after_unknown":{},"before_sensitive":false,"after_sensitive":` + sensitive + `}}]}`
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("plan.json")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(plan))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func randomBytes(t testing.TB, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

func storedZip(t testing.TB, files map[string][]byte) []byte {
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
