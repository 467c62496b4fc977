package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readPlanFile maps a plan file (see mapFile) or reads it: either way the
// bytes are the file's, an empty file is an empty plan for Parse to
// refuse, and a missing file is a *fs.PathError that runReview unwraps.
func TestReadPlanFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.json")
	want := `{"format_version":"1.2","resource_changes":[]}` + strings.Repeat(" ", 5000)
	if err := os.WriteFile(plan, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readPlanFile(plan, nil)
	if err != nil || string(got) != want {
		t.Errorf("readPlanFile(%s) = %d bytes, %v; want the file's %d bytes", plan, len(got), err, len(want))
	}
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := readPlanFile(empty, nil); err != nil || len(got) != 0 {
		t.Errorf("readPlanFile(empty) = %q, %v; want no bytes, no error", got, err)
	}
	_, err = readPlanFile(filepath.Join(dir, "missing.json"), nil)
	var pe *fs.PathError
	if !errors.As(err, &pe) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("readPlanFile(missing) error %v (%T), want a *fs.PathError for a missing file", err, err)
	}
	if _, err := readPlanFile(dir, nil); err == nil {
		t.Errorf("readPlanFile(a directory) gave no error")
	}
	got, err = readPlanFile("-", strings.NewReader(want))
	if err != nil || string(got) != want {
		t.Errorf("readPlanFile(-) = %d bytes, %v", len(got), err)
	}
}
