//go:build !unix

package main

import (
	"os"

	"github.com/planwarden/planwarden/planparse"
)

// mapFile is mapFile of mapfile_unix.go; elsewhere plans are read.
func mapFile(*os.File, int64) ([]byte, bool) { return nil, false }

// releasePages is releasePages of mapfile_unix.go; elsewhere nothing is mapped.
func releasePages([]byte, []planparse.Range) {}
