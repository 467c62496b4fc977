package run

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// repoFS is the repository at a ref as an fs.FS, read file by file
// through GitHub (GetFile), for trust's readers: they do no I/O of their
// own. A directory reads as a file that does not exist.
type repoFS struct {
	ctx  context.Context
	gh   port.PRReader
	repo port.Repo
	ref  string
}

// ReadFile returns the file at the ref; fs.ErrNotExist when GitHub has
// none there.
func (f repoFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	data, err := f.gh.GetFile(f.ctx, f.repo, name, f.ref)
	if errors.Is(err, port.ErrNotFound) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	if err != nil {
		return nil, err
	}
	return data, nil
}

// Open opens the file at the ref.
func (f repoFS) Open(name string) (fs.File, error) {
	data, err := f.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return &repoFile{name: name, r: bytes.NewReader(data), size: int64(len(data))}, nil
}

type repoFile struct {
	name string
	r    *bytes.Reader
	size int64
}

func (f *repoFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *repoFile) Close() error               { return nil }
func (f *repoFile) Stat() (fs.FileInfo, error) { return repoFileInfo{f.name, f.size}, nil }

type repoFileInfo struct {
	name string
	size int64
}

func (i repoFileInfo) Name() string       { return i.name }
func (i repoFileInfo) Size() int64        { return i.size }
func (i repoFileInfo) Mode() fs.FileMode  { return 0o444 }
func (i repoFileInfo) ModTime() time.Time { return time.Time{} }
func (i repoFileInfo) IsDir() bool        { return false }
func (i repoFileInfo) Sys() any           { return nil }

var _ io.Reader = (*repoFile)(nil)

// readPlanWorkflows reads what cfg's plan workflows run from the
// repository at ref (trust.ReadPlanWorkflows): the files a pull request
// may not change without plan-workflow-changed, and the steps planwarden
// cannot place.
func readPlanWorkflows(ctx context.Context, gh port.PRReader, repo port.Repo, cfg *rules.Config, ref string) (trust.Reading, error) {
	return trust.ReadPlanWorkflows(cfg, repo.String(), repoFS{ctx: ctx, gh: gh, repo: repo, ref: ref})
}
