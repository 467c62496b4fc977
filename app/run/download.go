package run

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/app/artifactzip"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/trust"
)

// Fetching the plans of a review's runs: each run's artifacts downloaded
// within the worker's memory budget (admit.go), every byte held charged
// before it is allocated, and each base given the plans of the runs it
// trusts (collected.takeRun).

// fetch reads the plans of the pull request's runs (trust.Record's: the
// newest run of each plan workflow and the older runs that may hold a
// project's newest plan), bounded and within the worker's memory budget
// (adm), and gives each base the plans of the runs it trusts: the other
// bases' runs are some of the pull request's. What the pull request's base
// cannot take ends the review; what another base cannot take is its
// outcome.
func (r *Review) fetch(ctx context.Context, adm *admission) error {
	budget := &budget{left: r.x.limits.MaxTotal}
	for _, run := range r.bases[0].runs {
		f := fetchedRun{run: run}
		if run.Conclusion == "success" {
			arts, err := r.gh.ListRunArtifacts(ctx, r.repo, run.ID)
			if err != nil {
				return fmt.Errorf("list the artifacts of %s (run %d): %w", run.Path, run.ID, err)
			}
			arts = planArtifacts(arts)
			f.arts = len(arts)
			if len(arts) > r.x.limits.MaxArtifacts {
				return &publish.Final{Why: comment.TooManyArtifacts{Path: run.Path, ID: run.ID, N: len(arts), Limit: r.x.limits.MaxArtifacts}}
			}
			if len(arts) > 0 {
				files, err := r.x.downloadWithin(ctx, r.gh, r.repo, arts, budget, adm)
				if ar := artifactRefusal(err); ar != nil && trust.Superseded(r.bases[0].runs, run) {
					r.log.Info("refused artifact of an older run skipped", "run", run.ID, "artifact", ar.Artifact)
					f.refused, err = ar, nil
				}
				if err != nil {
					return err
				}
				for _, pf := range files {
					f.files = append(f.files, &fetchedFile{planFile: pf})
				}
			}
		}
		r.fetched = append(r.fetched, f)
		for i, b := range r.bases {
			if b.out != nil || b.fin != nil || !slices.Contains(b.runs, run) {
				continue
			}
			err := b.plans.takeRun(r.log, f, b.runs)
			if i == 0 && err != nil {
				return err
			}
			errors.As(err, &b.fin)
		}
	}
	return nil
}

// openedZip is an artifact's zip in hand: its bytes, and its directory,
// parsed once (within the limits its end record was checked against).
type openedZip struct {
	art  port.Artifact
	data []byte
	zr   *zip.Reader
}

// dirEntryCost is what archive/zip holds for one entry of a directory
// beyond the entry's bytes in it: its zip.File.
const dirEntryCost = 256

// dirCost is what parsing a directory of the end record's declared size
// and entries holds (artifactzip.Open reads no more than Check allows).
func dirCost(e artifactzip.End) int64 {
	return int64(e.DirSize) + int64(e.Entries)*dirEntryCost
}

// downloadWithin fetches and opens every plan artifact of a run, within
// the limits (b is shared by the runs of one review) and the worker's
// memory budget (adm, held until the caller releases it). The memory is
// taken before anything is downloaded, from the sizes GitHub lists
// (upfrontCost); while a zip is read, what it holds beyond its listed size
// is charged before it is allocated, and so is its directory, counted
// from its end record before it is parsed. Once the zips are opened their
// headers and their plans' count of changes give the cost (planCost,
// changesCost): what was charged too much is
// given back, and what is missing is taken at once or, when it does not
// fit now, waited for without the zips, which are fetched again after the
// wait. More than the budget ends the review as too large. What the PR
// must fix is a *publish.Final.
func (x *Runner) downloadWithin(ctx context.Context, gh port.PRReader, repo port.Repo, arts []port.Artifact, b *budget, adm *admission) ([]planFile, error) {
	lim := x.limits
	for _, art := range arts {
		if art.Expired {
			return nil, refused(comment.ArtifactRefusal{Artifact: art.Name, Fault: comment.ArtifactExpired})
		}
		if art.SizeInBytes > lim.MaxZipBytes {
			return nil, refused(comment.ArtifactRefusal{Artifact: art.Name, Fault: comment.ArtifactOverLimit, N: art.SizeInBytes >> 20, Limit: lim.MaxZipBytes >> 20})
		}
	}
	start := adm.held
	if err := adm.grow(ctx, min(upfrontCost(arts, lim.MaxTotal), x.memory.budget-start)); err != nil {
		return nil, adm.notAdmitted(ctx, err)
	}
	// m.room is the part of the charge beyond the fixed part: the zips
	// and their directories take from it as they are read (what is left is
	// the plans' estimate, corrected once the zips are open); beyond it,
	// what reading them takes.
	m := &meter{adm: adm, budget: x.memory.budget, room: max(adm.held-start-jobOverhead, 0)}
	var zips []openedZip
	for range 3 {
		var err error
		m.free = m.room
		zips, err = x.downloadAll(ctx, gh, repo, arts, m)
		var short *shortOfMemory
		if errors.As(err, &short) {
			// Waiting with the zips in hand would hold them uncounted.
			zips = nil
			worklog.From(ctx).Info("artifacts need more memory than charged; waiting without the zips", "more_mib", short.n>>20, "held_mib", adm.held>>20)
			if err := adm.grow(ctx, short.n); err != nil {
				return nil, adm.notAdmitted(ctx, err)
			}
			m.room += short.n
			continue
		}
		if err != nil {
			return nil, err
		}
		need, charged := planCost(zips)+changesCost(zips, lim.MaxTotal), adm.held-start
		if need <= charged {
			adm.shrink(charged - need)
			break
		}
		if adm.tryGrow(need - charged) {
			break
		}
		zips = nil
		worklog.From(ctx).Info("plans need more memory than charged; waiting without the zips", "need_mib", need>>20, "charged_mib", charged>>20)
		if err := adm.grow(ctx, need-charged); err != nil {
			return nil, adm.notAdmitted(ctx, err)
		}
		m.room += need - charged
	}
	if zips == nil {
		return nil, errors.New("the artifacts' plans grew between downloads; trying again")
	}
	var files []planFile
	for i, z := range zips {
		got, err := extractFrom(z.art.Name, z.zr, lim, b)
		adm.shrink(int64(cap(z.data))) // done with the zip: its plans are read
		zips[i] = openedZip{}
		if err != nil {
			return nil, err
		}
		files = append(files, got...)
	}
	return files, nil
}

// downloadAll fetches and opens the artifacts' zips, each within the zip
// limit, charging m for each buffer and each directory before it is held.
func (x *Runner) downloadAll(ctx context.Context, gh port.PRReader, repo port.Repo, arts []port.Artifact, m *meter) ([]openedZip, error) {
	limit := x.limits.MaxZipBytes
	zips := make([]openedZip, 0, len(arts))
	for _, art := range arts {
		data, err := gh.DownloadArtifact(ctx, repo, art.ID, limit, m.charge)
		if errors.Is(err, port.ErrTooLarge) {
			return nil, refused(comment.ArtifactRefusal{Artifact: art.Name, Fault: comment.ArtifactTooLarge, Limit: limit >> 20})
		}
		if memoryError(err) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("download the artifact %s: %w", art.Name, err)
		}
		zr, err := openZip(art.Name, data, x.limits, m.charge)
		if err != nil {
			return nil, err
		}
		zips = append(zips, openedZip{art: art, data: data, zr: zr})
	}
	return zips, nil
}

// memoryError is an error of the meter: the download ended because its
// bytes do not fit.
func memoryError(err error) bool {
	var short *shortOfMemory
	return errors.As(err, &short) || publish.FinalOf(err) != nil
}

// openZip checks an artifact's end record against the limits, charges its
// directory (charge may be nil: nothing to charge), and parses it once.
func openZip(artifact string, data []byte, lim Limits, charge func(int64) error) (*zip.Reader, error) {
	r := bytes.NewReader(data)
	zl := artifactzip.Limits{MaxEntries: lim.MaxEntries}
	e, err := artifactzip.ReadEnd(r, int64(len(data)))
	if err == nil {
		err = artifactzip.Check(e, zl)
	}
	if err == nil && charge != nil {
		if err := charge(dirCost(e)); err != nil {
			return nil, err
		}
	}
	var zr *zip.Reader
	if err == nil {
		zr, err = artifactzip.Open(r, int64(len(data)), zl)
	}
	switch {
	case errors.Is(err, artifactzip.ErrTooManyEntries):
		return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.ArtifactTooManyEntries, N: int64(e.Entries), Limit: int64(lim.MaxEntries)})
	case err != nil:
		return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.ArtifactNotZip, Err: err})
	}
	return zr, nil
}

// planCost is the memory a run's plans take while they are reviewed, from
// the zips' headers: the zips' buffers and parsed directories, each plan
// entry's bytes (as its header declares: extractFrom reads each into one
// buffer of that size and refuses an entry that lies) times planOverhead,
// and the fixed part.
func planCost(zips []openedZip) int64 {
	cost := int64(jobOverhead)
	for _, z := range zips {
		cost += int64(cap(z.data))
		for _, f := range z.zr.File {
			cost += dirEntryCost + int64(len(f.Name)+len(f.Extra)+len(f.Comment))
			if path.Base(f.Name) == MetadataFile || strings.HasSuffix(strings.ToLower(f.Name), ".json") {
				cost += planOverhead * int64(min(f.UncompressedSize64, 1<<40))
			}
		}
	}
	return cost
}

// addressCost is what one "address" member of a plan costs reviewed
// beyond the plan's bytes (planOverhead): the change model, infra's
// analysis, the rules' findings and the change digests of the change it
// names. A plan of many small changes holds more than its bytes times
// planOverhead: one of 125,000 one-instance changes (58 MiB) held a live
// heap of 350 MiB, 125 MiB (1 KiB a change) over its charge by bytes.
// Half as much again leaves the collector room: at 1 KiB, the largest
// such plan a 256 MiB budget admitted took serve to 324 MiB.
const addressCost = 1536

// changesCost is addressCost for each "address" member of the zips' plan
// entries, counted by streaming each entry (up to maxBytes of them in
// all) before any is extracted: a plan's changes are charged before they
// are parsed. A string value "address" counts too (a charge too high by
// a KiB).
func changesCost(zips []openedZip, maxBytes int64) int64 {
	var n int64
	buf := make([]byte, 64<<10)
	left := maxBytes
	for _, z := range zips {
		for _, f := range z.zr.File {
			if left <= 0 || !strings.HasSuffix(strings.ToLower(f.Name), ".json") {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				continue // extractFrom refuses it
			}
			r := io.LimitReader(rc, min(left, int64(min(f.UncompressedSize64, 1<<40))))
			c, read := countAddresses(r, buf)
			rc.Close()
			n += c
			left -= read
		}
	}
	return n * addressCost
}

// countAddresses counts the "address" members r holds, reading it into
// buf, and returns how many bytes it read.
func countAddresses(r io.Reader, buf []byte) (n, read int64) {
	pat := []byte(`"address"`)
	keep, have := len(pat)-1, 0
	for {
		k, err := r.Read(buf[have:])
		read += int64(k)
		have += k
		n += int64(bytes.Count(buf[:have], pat))
		if err != nil {
			return n, read
		}
		// The last len(pat)-1 bytes hold no whole match: kept, a match
		// across two reads is counted once, in the next.
		if have > keep {
			have = copy(buf, buf[have-keep:have])
		}
	}
}

// meter charges what a run's downloads hold to the job's admission:
// first from room (what the job was charged beyond its fixed part), then beyond it,
// at once when it fits; when it does not fit now, the download ends with a
// *shortOfMemory (the job waits for it without the zips); past the budget,
// the review ends as too large. A negative charge gives a buffer back to
// room.
type meter struct {
	adm    *admission
	budget int64
	room   int64 // charged for the zips and their directories
	free   int64 // of room, not yet held by this attempt
}

func (m *meter) charge(n int64) error {
	if n < 0 { // a buffer let go
		m.free = min(m.free-n, m.room)
		return nil
	}
	if n <= m.free {
		m.free -= n
		return nil
	}
	more := n - m.free
	if m.adm.tryGrow(more) {
		m.room += more
		m.free = 0
		return nil
	}
	if m.adm.held+more > m.budget {
		return &publish.Final{Why: comment.PlanTooLarge{NeedMiB: (m.adm.held + more) >> 20, BudgetMiB: m.budget >> 20}}
	}
	return &shortOfMemory{n: more}
}

// shortOfMemory ends a download whose next buffer does not fit beside the
// other jobs now: n more bytes are needed.
type shortOfMemory struct{ n int64 }

func (s *shortOfMemory) Error() string {
	return fmt.Sprintf("%d MiB more of the worker's memory needed", s.n>>20)
}
