package app

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
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

// artifactError is an artifact the bot refuses; its message goes on the
// check run as is.
type artifactError struct{ msg string }

func (e *artifactError) Error() string { return e.msg }

func refuse(format string, args ...any) error { return &artifactError{fmt.Sprintf(format, args...)} }

// budget is the uncompressed bytes still allowed for a run.
type budget struct{ left int64 }

// extractPlans reads the *.json plans and the metadata of one artifact zip.
func extractPlans(artifact string, data []byte, lim Limits, b *budget) ([]planFile, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, refuse("artifact %s is not a readable zip: %v", artifact, err)
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, refuse("artifact %s refused: %d entries, more than the limit of %d", artifact, len(zr.File), lim.MaxEntries)
	}
	var (
		plans []planFile
		meta  *Metadata
	)
	for _, f := range zr.File {
		name := f.Name
		if !safeEntry(name) {
			return nil, refuse("artifact %s refused: entry %q escapes the artifact (absolute path or ..)", artifact, name)
		}
		if f.FileInfo().IsDir() {
			continue
		}
		isMeta := path.Base(name) == MetadataFile
		if !isMeta && !strings.HasSuffix(strings.ToLower(name), ".json") {
			continue
		}
		if f.UncompressedSize64 > uint64(b.left) {
			return nil, tooBig(artifact, name, lim)
		}
		if isMeta && f.UncompressedSize64 > maxMetadataBytes {
			return nil, refuse("artifact %s: %s: metadata file larger than %d KiB", artifact, name, maxMetadataBytes>>10)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, refuse("artifact %s: cannot open %s: %v", artifact, name, err)
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
			return nil, refuse("artifact %s refused: %s is damaged or lies about its size", artifact, name)
		}
		if err != nil {
			return nil, refuse("artifact %s: cannot read %s: %v", artifact, name, err)
		}
		b.left -= int64(len(content))
		if isMeta {
			if meta, err = decodeMetadata(content); err != nil {
				return nil, refuse("artifact %s: %s: %v", artifact, name, err)
			}
			continue
		}
		plans = append(plans, planFile{Name: artifact + "/" + name, Artifact: artifact, Data: content})
	}
	if len(plans) == 0 {
		return nil, refuse("artifact %s holds no *.json plan file", artifact)
	}
	nameProjects(artifact, plans, meta)
	for i := range plans {
		plans[i].Single = len(plans) == 1
	}
	return plans, nil
}

func tooBig(artifact, entry string, lim Limits) error {
	return refuse("artifact %s refused: %s would take the uncompressed total past the limit of %d MiB (zip bomb?)",
		artifact, entry, lim.MaxTotal>>20)
}

// safeEntry refuses names that would escape a directory they were
// extracted into: absolute, drive letters, backslashes, "..".
func safeEntry(name string) bool {
	if name == "" || strings.ContainsRune(name, '\\') || strings.ContainsRune(name, 0) {
		return false
	}
	return filepath.IsLocal(filepath.FromSlash(strings.TrimSuffix(name, "/"))) && !strings.HasPrefix(name, "/")
}

func decodeMetadata(data []byte) (*Metadata, error) {
	if len(data) > maxMetadataBytes {
		return nil, fmt.Errorf("metadata file larger than %d KiB", maxMetadataBytes>>10)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Metadata
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("bad metadata: %v", err)
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
func (a *App) downloadWithin(ctx context.Context, gh PRReader, repo Repo, arts []Artifact, b *budget, adm *admission) ([]planFile, error) {
	lim := a.cfg.Limits
	for _, art := range arts {
		if art.Expired {
			return nil, publish.Finalf("Plan artifact expired", "The artifact %s has expired; re-run the plan workflow.", art.Name)
		}
		if art.SizeInBytes > lim.MaxZipBytes {
			return nil, publish.Finalf("Plan artifact refused", "The artifact %s is %d MiB, more than the limit of %d MiB.",
				art.Name, art.SizeInBytes>>20, lim.MaxZipBytes>>20)
		}
	}
	charged := min(upfrontCost(arts, lim.MaxTotal), a.memory.budget-adm.held)
	if err := adm.grow(ctx, charged); err != nil {
		return nil, a.notAdmitted(ctx, adm, err)
	}
	var zips [][]byte
	for range 2 {
		var err error
		if zips, err = a.downloadAll(ctx, gh, repo, arts); err != nil {
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
			return nil, a.notAdmitted(ctx, adm, err)
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
			return nil, publish.Finalf("Plan artifact refused", "%s", err.Error())
		}
		files = append(files, got...)
	}
	return files, nil
}

// downloadAll fetches the artifacts' zips, each within the zip limit.
func (a *App) downloadAll(ctx context.Context, gh PRReader, repo Repo, arts []Artifact) ([][]byte, error) {
	limit := a.cfg.Limits.MaxZipBytes
	zips := make([][]byte, 0, len(arts))
	for _, art := range arts {
		data, err := gh.DownloadArtifact(ctx, repo, art.ID, limit)
		if errors.Is(err, ErrTooLarge) {
			return nil, publish.Finalf("Plan artifact refused", "The artifact %s is larger than the limit of %d MiB.", art.Name, limit>>20)
		}
		if err != nil {
			return nil, fmt.Errorf("download the artifact %s: %w", art.Name, err)
		}
		zips = append(zips, data)
	}
	return zips, nil
}

func (a *App) notAdmitted(ctx context.Context, adm *admission, err error) error {
	worklog.From(ctx).Warn("plans not admitted", "need_mib", adm.want>>20, "budget_mib", a.memory.budget>>20, "err", err)
	return err
}
