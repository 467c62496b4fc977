package run

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
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
	zr, err := openZip(artifact, data, lim, nil)
	if err != nil {
		return nil, err
	}
	return extractFrom(artifact, zr, lim, b)
}

// extractFrom reads the *.json plans and the metadata of an opened
// artifact zip (openZip).
func extractFrom(artifact string, zr *zip.Reader, lim Limits, b *budget) ([]planFile, error) {
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

// artifactRefusal is the refusal err carries, if it is one.
func artifactRefusal(err error) *comment.ArtifactRefusal {
	fin := publish.FinalOf(err)
	if fin == nil {
		return nil
	}
	if ar, ok := fin.Why.(comment.ArtifactRefusal); ok {
		return &ar
	}
	return nil
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
	// refused is the refusal of one of the run's artifacts, when a newer
	// run of its workflow exists: that run speaks for the workflow.
	refused *comment.ArtifactRefusal
}

// fetchedFile is a plan file of an artifact, and once parsed, its plan or
// why it cannot be read.
type fetchedFile struct {
	planFile
	parsed bool
	plan   *planparse.Plan
	err    error
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
	case f.refused != nil && older:
		col.notes = append(col.notes, comment.SkippedArtifactNote(f.refused.Artifact, run.Path, run.ID))
		return nil
	case f.refused != nil:
		return refused(*f.refused)
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
