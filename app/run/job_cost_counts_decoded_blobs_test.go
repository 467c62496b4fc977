package run

import (
	"testing"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/planparse"
)

// What planparse may decode while it reads a plan (base64 and gzip blobs,
// bounded by planparse.DecodeBound whatever the plan holds) is part of
// every job's charge, before and after the zips are read: a worker whose
// budget admits a job has room for the blobs of its plans.
func TestAJobIsChargedForTheBlobsItsPlansMayDecode(t *testing.T) {
	t.Parallel()
	arts := []port.Artifact{{ID: 1, Name: "planwarden-small", SizeInBytes: 1 << 10}}
	if got := upfrontCost(arts, 512<<20); got < 16<<20+planparse.DecodeBound {
		t.Errorf("a small artifact is charged %d MiB up front; want at least the fixed 16 MiB and the %d MiB of decoded blobs", got>>20, planparse.DecodeBound>>20)
	}
	if got := planCost(nil); got < 16<<20+planparse.DecodeBound {
		t.Errorf("a run's exact charge is %d MiB without plans; want at least the fixed 16 MiB and the %d MiB of decoded blobs", got>>20, planparse.DecodeBound>>20)
	}
}
