//go:build !unix

package main

import "os"

// mapFile is mapFile of mapfile_unix.go; elsewhere plans are read.
func mapFile(*os.File, int64) ([]byte, bool) { return nil, false }
