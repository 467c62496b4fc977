package run

import (
	"runtime"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
)

// allocated is the heap bytes f allocates (the test runs alone: it is
// not parallel).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A plan is read from its zip entry into one buffer of the size the entry
// declares, and the parser keeps slices of that buffer: extracting costs
// the plan's size once, and parsing a plan made mostly of one long value
// allocates a small part of it (a copy of the plan, or of the value, would
// cost its size again).
func TestAPlanIsReadIntoOneBufferAndParsedWithoutACopy(t *testing.T) {
	const size = 8 << 20
	long := strings.Repeat("x", size)
	plan := []byte(`{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a",` +
		`"provider_name":"registry.terraform.io/hashicorp/aws","change":{"actions":["update"],"before":{"user_data":"` + long + `"},"after":{"user_data":"y"}}}]}`)
	data := zipPlan(t, plan)
	var err error

	var files []planFile
	extract := allocated(func() {
		files, err = extractPlans("planwarden-a", data, Limits{}.withDefaults(), &budget{left: 1 << 30})
	})
	if err != nil || len(files) != 1 || len(files[0].Data) != len(plan) {
		t.Fatalf("extractPlans: %d files, %v", len(files), err)
	}
	t.Logf("plan %d bytes: extracting allocated %d bytes", len(plan), extract)
	if extract > uint64(len(plan))+1<<20 {
		t.Errorf("extracting a %d-byte plan allocated %d bytes; want one buffer of its size (+ at most 1 MiB of zip reader)", len(plan), extract)
	}
	var p *planparse.Plan
	parse := allocated(func() { p, err = planparse.Parse(files[0].Name, files[0].Data) })
	if err != nil || len(p.Changes) != 1 {
		t.Fatalf("Parse: %v", err)
	}
	t.Logf("parsing allocated %d bytes", parse)
	if parse > uint64(len(plan))/4 {
		t.Errorf("parsing a %d-byte plan allocated %d bytes; want a small part of it (the parser keeps slices of the buffer)", len(plan), parse)
	}
	runtime.KeepAlive(p)
}
