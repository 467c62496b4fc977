package app_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app"
	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/app/run"
)

// manyLongValues is a plan of n updated instances, each with k attributes
// before and after holding a string of l bytes made of a few repeated
// 64-byte chunks: many values and long strings that compress about 160
// times.
func manyLongValues(n, k, l int) []byte {
	r := rand.New(rand.NewPCG(20, 497))
	chunks := make([]string, 4)
	for i := range chunks {
		b := make([]byte, 64)
		for j := range b {
			b[j] = "abcdefghijklmnopqrstuvwxyz0123456789"[r.IntN(36)]
		}
		chunks[i] = string(b)
	}
	var plan bytes.Buffer
	value := func(i, j int) {
		fmt.Fprintf(&plan, `,"a%d":"v%d-%d-`, j, i, j)
		c := chunks[r.IntN(len(chunks))]
		for end := plan.Len() + l; plan.Len() < end; {
			if r.IntN(32) == 0 {
				c = chunks[r.IntN(len(chunks))]
			}
			plan.WriteString(c)
		}
		plan.WriteByte('"')
	}
	plan.WriteString(`{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[`)
	for i := range n {
		if i > 0 {
			plan.WriteByte(',')
		}
		fmt.Fprintf(&plan, `{"address":"aws_instance.w[%d]","mode":"managed","type":"aws_instance","name":"w","index":%d,"provider_name":"registry.terraform.io/hashicorp/aws",`+
			`"change":{"actions":["update"],"before":{"instance_type":"g5.2xlarge","tags":{"cost-center":"ml"}`, i, i)
		for j := range k {
			value(i, j)
		}
		plan.WriteString(`},"after":{"instance_type":"g5.4xlarge","tags":{"cost-center":"ml"}`)
		for j := range k {
			value(i, k+j)
		}
		plan.WriteString(`}}}`)
	}
	plan.WriteString(`]}`)
	return plan.Bytes()
}

// listOfLongStrings is a zip of one plan whose instance holds a list of
// n strings of 64 KiB: about 1,000 to 1 in the zip. The deflate stream is
// made once per part and repeated (the window is the same before each
// repeat), so the test never compresses the whole.
func listOfLongStrings(t testing.TB, n int) (zipData []byte, planBytes int64) {
	t.Helper()
	prefix := []byte(`{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{"address":"aws_instance.w","mode":"managed","type":"aws_instance","name":"w",` +
		`"provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["create"],"before":null,"after":{"instance_type":"g5.2xlarge","user_data":[`)
	item := append(append([]byte(`"`), bytes.Repeat([]byte("a"), 64<<10)...), `",`...)
	suffix := []byte(`"end"]}}}]}`)
	var comp bytes.Buffer
	fw, err := flate.NewWriter(&comp, flate.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	part := func(data []byte) []byte {
		comp.Reset()
		fw.Write(data)
		fw.Flush()
		return bytes.Clone(comp.Bytes())
	}
	first := part(append(bytes.Clone(prefix), item...))
	// Two items after the first: the compressor's state then repeats.
	part(item)
	repeat := part(item)
	comp.Reset()
	fw.Write(suffix)
	fw.Close()
	last := comp.Bytes()

	crc := crc32.ChecksumIEEE(prefix)
	stream := bytes.NewBuffer(append([]byte(nil), first...))
	for range n - 1 {
		crc = crc32.Update(crc, crc32.IEEETable, item)
		stream.Write(repeat)
	}
	crc = crc32.Update(crc32.Update(crc, crc32.IEEETable, item), crc32.IEEETable, suffix)
	stream.Write(last)
	planBytes = int64(len(prefix) + n*len(item) + len(suffix))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "plan.json", Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(stream.Len()), UncompressedSize64: uint64(planBytes)})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(stream.Bytes())
	zw.Close()
	return buf.Bytes(), planBytes
}

// The hostile artifacts of issue 20, each run through the worker with its
// default memory budget (1 GiB) and artifact limits, in a process whose
// memory limit is that budget (as on a 1 GiB Lambda), with the heap
// sampled: each ends in a clear check, and the heap it took stays within
// its bound: 3 x the plan + 50 MB for a plan reviewed, 50 MB for one
// refused before it is read whole.
//
//	go test -run HostileArtifacts -v ./app/
func TestHostileArtifactsEndInAClearCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and reads artifacts of tens of megabytes")
	}
	nested := []byte(`{"format_version":"1.2","resource_changes":[{"address":"a.b","change":{"actions":["create"],"after":` +
		strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}]}`)
	type artifact struct {
		zip  []byte
		plan int64
	}
	tests := map[string]struct {
		make       func(t *testing.T) artifact
		conclusion string
		title      string
		summary    string
		refused    bool // refused before the plan is inflated or read whole
	}{
		// About 497 KiB of zip, 79 MiB of plan: it fits the budget, so
		// it is reviewed (its 254 updates together cost over the project
		// threshold of cost-increase, so the check fails on the finding).
		"a 497 KiB zip of many long values": {make: func(t *testing.T) artifact {
			plan := manyLongValues(254, 10, 16<<10)
			return artifact{zipOf(t, entry{"plan.json", plan}), int64(len(plan))}
		}, conclusion: "failure", summary: "254 to update in place"},
		// About 497 KiB of zip, 356 MiB of plan: three times that is past
		// the budget, known from the zip's header before a byte is
		// inflated.
		"a 497 KiB zip of a list of long strings": {make: func(t *testing.T) artifact {
			z, n := listOfLongStrings(t, 5700)
			return artifact{z, n}
		}, conclusion: "failure", title: "Plan too large for the worker", summary: "more than this worker's budget of 1024 MiB", refused: true},
		// 2 KB of nesting: refused by the reader at 256 levels.
		"2 KB of nested JSON": {make: func(t *testing.T) artifact {
			return artifact{zipOf(t, entry{"plan.json", nested}), int64(len(nested))}
		}, conclusion: "failure", title: "Unreadable plan", summary: "nested deeper than 256 levels", refused: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			art := tc.make(t)
			h := newHarness(t, func(c *app.Config) { c.Limits = run.Limits{}; c.MemoryBudget = 0 })
			const sha, pr, runID = "4977777777777777777777777777777777777777", 49, 4970
			h.gh.AddPR(githubtest.PR{Owner: owner, Repo: repo, Number: pr, HeadSHA: sha})
			h.gh.AddRun(githubtest.Run{Owner: owner, Repo: repo, ID: runID, Name: "planwarden plan", Path: planWorkflow, HeadSHA: sha, Conclusion: "success", PRs: []int{pr}})
			h.gh.AddArtifact(owner, repo, runID, "planwarden-hostile", art.zip)
			body := mustJSON(t, workflowRunEvent(runID, pr, sha, runOpt{}))
			base, peak := heapPeak(app.DefaultMemoryBudget, func() {
				h.post("workflow_run", "hostile-1", body, sign(body))
				h.wait()
			})
			c := h.planwardenCheck(sha)
			used := int64(peak) - int64(base)
			bound := 3*art.plan + 50<<20
			if tc.refused {
				bound = 50 << 20
			}
			t.Logf("%s: zip %.1f KiB, plan %.2f MiB: check %q; heap peak %.1f MiB above the %.1f MiB before (%.2f × the plan; bound %.1f MiB)",
				name, float64(len(art.zip))/1024, float64(art.plan)/(1<<20), c.Title, float64(used)/(1<<20), float64(base)/(1<<20),
				float64(used)/float64(art.plan), float64(bound)/(1<<20))
			if used > bound {
				t.Errorf("the worker's heap grew %.1f MiB for this artifact, over its bound of %.1f MiB", float64(used)/(1<<20), float64(bound)/(1<<20))
			}
			if c.Status != "completed" || c.Conclusion != tc.conclusion || !strings.HasPrefix(c.Title, tc.title) || !strings.Contains(c.Summary, tc.summary) {
				t.Errorf("check %s/%s %q: %.500q; want completed as %s, titled %q, saying %q", c.Status, c.Conclusion, c.Title, c.Summary, tc.conclusion, tc.title, tc.summary)
			}
		})
	}
}
