package run

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/trust"
)

// ArtifactPrefix starts the name of every artifact planwarden reads.
const ArtifactPrefix = "planwarden"

// MetadataFile is the optional file in a plan artifact that names each
// plan's project and environment (docs/github-app.md):
//
//	{"project": "aks-gpu", "environment": "prod",
//	 "plans": {"sagemaker.json": {"project": "sagemaker", "environment": "staging"}}}
//
// Top-level project and environment apply to every plan; "plans" entries,
// keyed by the plan's path in the zip, override them.
const MetadataFile = "planwarden-metadata.json"

// maxMetadataBytes bounds a MetadataFile.
const maxMetadataBytes = 64 << 10

// Limits bound what the bot reads from untrusted artifacts.
type Limits struct {
	MaxArtifacts int   // plan artifacts per run; default 20
	MaxZipBytes  int64 // one artifact's zip; default 100 MiB
	MaxTotal     int64 // uncompressed bytes over every entry of a run; default 512 MiB
	MaxEntries   int   // entries in one zip; default 500
}

func (l Limits) withDefaults() Limits {
	if l.MaxArtifacts <= 0 {
		l.MaxArtifacts = 20
	}
	if l.MaxZipBytes <= 0 {
		l.MaxZipBytes = 100 << 20
	}
	if l.MaxTotal <= 0 {
		l.MaxTotal = 512 << 20
	}
	if l.MaxEntries <= 0 {
		l.MaxEntries = 500
	}
	return l
}

// Metadata is the decoded MetadataFile.
type Metadata struct {
	Project     string                  `json:"project,omitempty"`
	Environment string                  `json:"environment,omitempty"`
	Plans       map[string]PlanMetadata `json:"plans,omitempty"`
}

// PlanMetadata names one plan's project and environment.
type PlanMetadata struct {
	Project     string `json:"project,omitempty"`
	Environment string `json:"environment,omitempty"`
}

// planFile is one plan read from an artifact.
type planFile struct {
	Name     string // artifact/path, for messages
	Artifact string
	// Single is true when the artifact holds this one plan only.
	Single bool
	// Project and Environment are what the artifact claims (metadata, or
	// names); package trust decides what of it counts.
	Project     string
	Environment string
	Data        []byte
}

// refused is an artifact the bot refuses: a *publish.Final that says why.
func refused(why comment.ArtifactRefusal) error {
	return &publish.Final{Why: why}
}

// budget is the uncompressed bytes still allowed for a run.
type budget struct{ left int64 }

// extractPlans reads the *.json plans and the metadata of one artifact zip.
func extractPlans(artifact string, data []byte, lim Limits, b *budget) ([]planFile, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.ArtifactNotZip, Err: err})
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.ArtifactTooManyEntries, N: int64(len(zr.File)), Limit: int64(lim.MaxEntries)})
	}
	var (
		plans []planFile
		meta  *Metadata
	)
	for _, f := range zr.File {
		name := f.Name
		if !safeEntry(name) {
			return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.EntryEscapes, Entry: name})
		}
		if f.FileInfo().IsDir() {
			continue
		}
		isMeta := path.Base(name) == MetadataFile
		if !isMeta && !strings.HasSuffix(strings.ToLower(name), ".json") {
			continue
		}
		if f.UncompressedSize64 > uint64(b.left) {
			return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.EntryOverTotal, Entry: name, Limit: lim.MaxTotal >> 20})
		}
		if isMeta && f.UncompressedSize64 > maxMetadataBytes {
			return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.MetadataTooLarge, Entry: name, Limit: maxMetadataBytes >> 10})
		}
		rc, err := f.Open()
		if err != nil {
			return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.EntryUnopened, Entry: name, Err: err})
		}
		// One buffer per entry, of the size its header declares (within
		// the budget above, and admitted by the worker's memory budget);
		// an entry whose data is longer or shorter than that, or fails its
		// checksum, is refused.
		content := make([]byte, f.UncompressedSize64)
		_, err = io.ReadFull(rc, content)
		if err == nil {
			var extra [1]byte
			if n, rerr := rc.Read(extra[:]); n > 0 || !errors.Is(rerr, io.EOF) {
				err = zip.ErrFormat
				if rerr != nil && n == 0 {
					err = rerr
				}
			}
		}
		rc.Close()
		if errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrChecksum) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.EntryDamaged, Entry: name})
		}
		if err != nil {
			return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.EntryUnread, Entry: name, Err: err})
		}
		b.left -= int64(len(content))
		if isMeta {
			if meta, err = decodeMetadata(content); err != nil {
				return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.BadMetadata, Entry: name, Err: err})
			}
			continue
		}
		plans = append(plans, planFile{Name: artifact + "/" + name, Artifact: artifact, Data: content})
	}
	if len(plans) == 0 {
		return nil, refused(comment.ArtifactRefusal{Artifact: artifact, Fault: comment.NoPlanFile})
	}
	nameProjects(artifact, plans, meta)
	plans = terragruntUnits(artifact, plans, meta) // units.go
	for i := range plans {
		plans[i].Single = len(plans) == 1
	}
	return plans, nil
}

// safeEntry refuses names that would escape a directory they were
// extracted into: absolute, drive letters, backslashes, "..".
func safeEntry(name string) bool {
	if name == "" || strings.ContainsRune(name, '\\') || strings.ContainsRune(name, 0) {
		return false
	}
	return filepath.IsLocal(filepath.FromSlash(strings.TrimSuffix(name, "/"))) && !strings.HasPrefix(name, "/")
}

// decodeMetadata decodes a MetadataFile (its size within
// maxMetadataBytes, which extractPlans checks from the entry's header).
func decodeMetadata(data []byte) (*Metadata, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Metadata
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return &m, nil
}

// nameProjects applies the metadata; without it, a plan's project is the
// artifact's name after "planwarden-" when the artifact holds one plan,
// else the plan file's base name.
func nameProjects(artifact string, plans []planFile, meta *Metadata) {
	for i := range plans {
		p := &plans[i]
		entry := strings.TrimPrefix(p.Name, artifact+"/")
		switch {
		case len(plans) == 1 && strings.HasPrefix(artifact, ArtifactPrefix+"-"):
			p.Project = strings.TrimPrefix(artifact, ArtifactPrefix+"-")
		default:
			p.Project = strings.TrimSuffix(path.Base(entry), path.Ext(entry))
		}
		if meta == nil {
			continue
		}
		if meta.Project != "" {
			p.Project = meta.Project
		}
		p.Environment = meta.Environment
		if pm, ok := meta.Plans[entry]; ok {
			if pm.Project != "" {
				p.Project = pm.Project
			}
			if pm.Environment != "" {
				p.Environment = pm.Environment
			}
		}
	}
}

// downloadWithin fetches and opens every plan artifact of a run, within
// the limits (b is shared by the runs of one review) and the worker's
// memory budget (adm, held until the caller releases it). The memory is
// taken before anything is downloaded, from the sizes GitHub lists
// (upfrontCost), so no zip is ever held uncounted while the job waits;
// once the zips are in hand their headers give the exact cost (planCost):
// what was charged too much is given back, and what is missing is taken
// at once or, when it does not fit now, waited for without the zips,
// which are fetched again after the wait. What the PR must fix is a
// *publish.Final.
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
	charged := min(upfrontCost(arts, lim.MaxTotal), x.memory.budget-adm.held)
	if err := adm.grow(ctx, charged); err != nil {
		return nil, x.notAdmitted(ctx, adm, err)
	}
	var zips [][]byte
	for range 2 {
		var err error
		if zips, err = x.downloadAll(ctx, gh, repo, arts); err != nil {
			return nil, err
		}
		need := planCost(zips)
		if need <= charged {
			adm.shrink(charged - need)
			charged = need
			break
		}
		if adm.tryGrow(need - charged) {
			charged = need
			break
		}
		// Waiting with the zips in hand would hold them uncounted.
		zips = nil
		worklog.From(ctx).Info("plans need more memory than charged; waiting without the zips", "need_mib", need>>20, "charged_mib", charged>>20)
		if err := adm.grow(ctx, need-charged); err != nil {
			return nil, x.notAdmitted(ctx, adm, err)
		}
		charged = need
	}
	if zips == nil {
		return nil, errors.New("the artifacts' plans grew between two downloads; trying again")
	}
	var files []planFile
	for i, art := range arts {
		got, err := extractPlans(art.Name, zips[i], lim, b)
		adm.shrink(int64(len(zips[i]))) // done with the zip: its plans are read
		zips[i] = nil
		if err != nil {
			return nil, err
		}
		files = append(files, got...)
	}
	return files, nil
}

// downloadAll fetches the artifacts' zips, each within the zip limit.
func (x *Runner) downloadAll(ctx context.Context, gh port.PRReader, repo port.Repo, arts []port.Artifact) ([][]byte, error) {
	limit := x.limits.MaxZipBytes
	zips := make([][]byte, 0, len(arts))
	for _, art := range arts {
		data, err := gh.DownloadArtifact(ctx, repo, art.ID, limit)
		if errors.Is(err, port.ErrTooLarge) {
			return nil, refused(comment.ArtifactRefusal{Artifact: art.Name, Fault: comment.ArtifactTooLarge, Limit: limit >> 20})
		}
		if err != nil {
			return nil, fmt.Errorf("download the artifact %s: %w", art.Name, err)
		}
		zips = append(zips, data)
	}
	return zips, nil
}

func (x *Runner) notAdmitted(ctx context.Context, adm *admission, err error) error {
	worklog.From(ctx).Warn("plans not admitted", "need_mib", adm.want>>20, "budget_mib", x.memory.budget>>20, "err", err)
	return err
}

// planArtifacts keeps the artifacts planwarden reads.
func planArtifacts(arts []port.Artifact) []port.Artifact {
	var plans []port.Artifact
	for _, art := range arts {
		if strings.HasPrefix(art.Name, ArtifactPrefix) {
			plans = append(plans, art)
		}
	}
	return plans
}

// fetchedRun is what one run's plan artifacts hold, read once for every
// base: how many there are, and each plan file read (and, once a base took
// it, parsed).
type fetchedRun struct {
	run   record.Run
	arts  int
	files []*fetchedFile
}

// fetchedFile is a plan file of an artifact, and once parsed, its plan or
// why it cannot be read.
type fetchedFile struct {
	planFile
	parsed bool
	plan   *planparse.Plan
	err    error
}

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

// takeRun takes the plans of one run of runs into col. An older run of a
// workflow that uploaded no plan, or an unreadable one, adds nothing (the
// newest run of its workflow speaks for it); the newest run's fail the
// check.
func (col *collected) takeRun(log *slog.Logger, f fetchedRun, runs []record.Run) error {
	run := f.run
	older := trust.Superseded(runs, run)
	if col.parsed == nil {
		col.parsed = map[string]*planparse.Plan{}
	}
	switch {
	case run.Conclusion != "success":
		return &publish.Final{Why: comment.PlanWorkflowFailed{Path: run.Path, ID: run.ID, Conclusion: run.Conclusion}}
	case f.arts == 0 && older:
		return nil
	case f.arts == 0:
		return &publish.Final{Why: comment.NoPlanArtifact{Path: run.Path, ID: run.ID, Prefix: ArtifactPrefix}}
	}
	for _, ff := range f.files {
		col.planBytes = append(col.planBytes, int64(len(ff.Data)))
		if !ff.parsed {
			ff.plan, ff.err = planparse.Parse(ff.Name, ff.Data)
			ff.parsed = true
		}
		if ff.err != nil && older {
			log.Info("unreadable plan of an older run skipped", "run", run.ID, "file", ff.Name)
			col.notes = append(col.notes, comment.SkippedPlanNote(ff.Name, run.Path, run.ID))
			continue
		}
		if ff.err != nil {
			return &publish.Final{Why: comment.UnreadablePlan{Path: run.Path, ID: run.ID, Err: ff.err}, Err: ff.err}
		}
		if t, err := time.Parse(time.RFC3339, ff.plan.Timestamp); err == nil && t.After(col.planTime) {
			col.planTime = t
		}
		col.parsed[fmt.Sprintf("%d/%s", run.ID, ff.Name)] = ff.plan
		col.claims = append(col.claims, trust.Plan{Run: run, Artifact: ff.Artifact, File: strings.TrimPrefix(ff.Name, ff.Artifact+"/"), Single: ff.Single,
			Project: ff.Project, Environment: ff.Environment})
	}
	return nil
}

// planOverhead is what reviewing a plan costs beyond its bytes, per byte:
// the parsed change model points into the plan (the bytes stay), plus
// what infra, the rules and the comment decode on demand.
const planOverhead = 3

// jobOverhead is the fixed cost of a job: the GitHub client, the config,
// the comment being rendered, and the blobs planparse decodes while it
// reads a plan (at most planparse.DecodeBound, whatever the plan holds).
const jobOverhead = 16<<20 + planparse.DecodeBound

// memoryGate admits jobs while the sum of their plans' estimated memory
// fits the budget; the others wait in arrival order (the semaphore is
// FIFO), so one large review never starves and a batch of them never
// exceeds the budget together.
type memoryGate struct {
	budget int64
	sem    *semaphore.Weighted
}

func newMemoryGate(budget int64) *memoryGate {
	return &memoryGate{budget: budget, sem: semaphore.NewWeighted(budget)}
}

// compressionBound is the ratio of plan bytes to zip bytes charged for an
// artifact before its zip is read: Terraform's JSON plans compress about
// 10 to 25 times (a 26.6 MB plan of 20,000 changes is a 1.1 MB zip). The
// charge is corrected from the zip's headers once it is downloaded.
const compressionBound = 32

// upfrontCost is what a run's artifacts are charged before they are
// downloaded, from the sizes GitHub lists: the zips, their plans at
// compressionBound times the zip (at most the run's uncompressed limit),
// times planOverhead, and the fixed part.
func upfrontCost(arts []port.Artifact, maxTotal int64) int64 {
	var zips int64
	for _, art := range arts {
		zips += max(art.SizeInBytes, 0)
	}
	return jobOverhead + zips + planOverhead*min(zips*compressionBound, maxTotal)
}

// planCost is the memory a run's plans take while they are reviewed, from
// the zips' headers: the zips, each plan entry's bytes (as its header
// declares: extractPlans reads each into one buffer of that size and
// refuses an entry that lies) times planOverhead, and the fixed part.
func planCost(zips [][]byte) int64 {
	cost := int64(jobOverhead)
	for _, data := range zips {
		cost += int64(len(data))
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			continue // extractPlans says what is wrong with it
		}
		for _, f := range zr.File {
			if path.Base(f.Name) == MetadataFile || strings.HasSuffix(strings.ToLower(f.Name), ".json") {
				cost += planOverhead * int64(min(f.UncompressedSize64, 1<<40))
			}
		}
	}
	return cost
}

// admission is the memory one job holds. A job reading several runs grows
// it run by run; when the next run does not fit at once, it gives back
// what it holds and waits for the whole, so two jobs never hold part each
// while waiting for the rest.
type admission struct {
	gate *memoryGate
	held int64
	want int64 // the last amount asked for
}

// grow adds cost to what the job holds, waiting for it when it does not
// fit now. More than the whole budget is a *publish.Final; a wait cut short is
// the context's error (the job is tried again).
func (a *admission) grow(ctx context.Context, cost int64) error {
	g := a.gate
	a.want = a.held + cost
	if a.want > g.budget {
		return &publish.Final{Why: comment.PlanTooLarge{NeedMiB: a.want >> 20, BudgetMiB: g.budget >> 20}}
	}
	if a.tryGrow(cost) {
		return nil
	}
	a.release()
	if err := g.sem.Acquire(ctx, a.want); err != nil {
		return fmt.Errorf("wait for %d MiB of the worker's memory: %w", a.want>>20, err)
	}
	a.held = a.want
	return nil
}

// tryGrow adds cost to what the job holds when it fits now (within the
// budget, without waiting), and reports whether it did.
func (a *admission) tryGrow(cost int64) bool {
	if cost <= 0 {
		return true
	}
	if a.held+cost > a.gate.budget || !a.gate.sem.TryAcquire(cost) {
		return false
	}
	a.held += cost
	return true
}

// shrink gives back n of what the job holds (an estimate that was too
// high, a zip whose plans are read).
func (a *admission) shrink(n int64) {
	n = min(n, a.held)
	if n > 0 {
		a.gate.sem.Release(n)
		a.held -= n
	}
}

// release gives back everything the job holds.
func (a *admission) release() { a.shrink(a.held) }
