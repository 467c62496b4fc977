package artifactzip

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// countingReader counts the bytes read from a zip.
type countingReader struct {
	r    *bytes.Reader
	read atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.read.Add(int64(n))
	return n, err
}

// realZip is a zip of n small plan files, written by archive/zip.
func realZip(t *testing.T, n int) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for i := range n {
		w, err := zw.Create(fmt.Sprintf("plans/p%04d.json", i))
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(`{"format_version":"1.2"}`))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// rawZip is a zip of n empty stored entries whose end record declares
// entries and dirSize (-1: the true values): how a hostile artifact lies.
func rawZip(n int, entries, dirSize int64) []byte {
	le := binary.LittleEndian
	var b []byte
	offsets := make([]uint32, n)
	for i := range n {
		name := fmt.Sprintf("p%05d", i)
		offsets[i] = uint32(len(b))
		b = le.AppendUint32(b, 0x04034b50)
		b = append(b, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0) // version, flags, method, time, date
		b = append(b, make([]byte, 12)...)           // crc, sizes
		b = le.AppendUint16(b, uint16(len(name)))
		b = le.AppendUint16(b, 0)
		b = append(b, name...)
	}
	dirStart := len(b)
	for i := range n {
		name := fmt.Sprintf("p%05d", i)
		b = le.AppendUint32(b, 0x02014b50)
		b = append(b, 20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0) // versions, flags, method, time, date
		b = append(b, make([]byte, 12)...)                  // crc, sizes
		b = le.AppendUint16(b, uint16(len(name)))
		b = append(b, make([]byte, 12)...) // extra, comment, disk, attributes
		b = le.AppendUint32(b, offsets[i])
		b = append(b, name...)
	}
	if entries < 0 {
		entries = int64(n)
	}
	if dirSize < 0 {
		dirSize = int64(len(b) - dirStart)
	}
	b = le.AppendUint32(b, 0x06054b50)
	b = le.AppendUint16(b, 0)
	b = le.AppendUint16(b, 0)
	b = le.AppendUint16(b, uint16(entries))
	b = le.AppendUint16(b, uint16(entries))
	b = le.AppendUint32(b, uint32(dirSize))
	b = le.AppendUint32(b, uint32(dirStart))
	return le.AppendUint16(b, 0)
}

// zip64End is only the end records of a zip64 archive declaring entries
// entries: what a zip of a million entries ends with.
func zip64End(entries uint64) []byte {
	le := binary.LittleEndian
	var b []byte
	b = le.AppendUint32(b, 0x06064b50)
	b = le.AppendUint64(b, end64Len-12)
	b = append(b, 45, 0, 45, 0)
	b = le.AppendUint32(b, 0)
	b = le.AppendUint32(b, 0)
	b = le.AppendUint64(b, entries)
	b = le.AppendUint64(b, entries)
	b = le.AppendUint64(b, entries*dirHeaderLen)
	b = le.AppendUint64(b, 0)
	b = le.AppendUint32(b, 0x07064b50)
	b = le.AppendUint32(b, 0)
	b = le.AppendUint64(b, 0)
	b = le.AppendUint32(b, 1)
	b = le.AppendUint32(b, 0x06054b50)
	b = append(b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff)
	b = append(b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	return le.AppendUint16(b, 0)
}

// A zip's entries are counted from its end record before its directory is
// parsed, and the parse reads at most the directory bytes allowed: a
// million declared entries, or a directory that hides 65,546 entries
// behind a count of 10, cost Open no more than its limits. Zips within
// the limits open with every entry.
func TestTheDirectoryIsBoundedBeforeItIsParsed(t *testing.T) {
	lying := rawZip(65546, -1, 10*(dirHeaderLen+6)) // uint16(65546) == 10
	tests := map[string]struct {
		zip       []byte
		lim       Limits
		wantErr   error
		wantMsg   string
		wantFiles int
		// maxRead bounds the bytes Open may read (0: no bound checked).
		maxRead int64
	}{
		"three plans":                              {zip: realZip(t, 3), wantFiles: 3},
		"500 entries, the limit":                   {zip: realZip(t, 500), wantFiles: 500},
		"501 entries, one over":                    {zip: realZip(t, 501), wantErr: ErrTooManyEntries, wantMsg: "declares 501 entries, more than the limit of 500"},
		"a million entries declared (zip64)":       {zip: zip64End(1_000_000), wantErr: ErrTooManyEntries, wantMsg: "declares 1000000 entries", maxRead: endSearchBytes + end64LocLen + end64Len},
		"65,546 entries declared as 10, true size": {zip: rawZip(65546, -1, -1), wantErr: ErrDirectoryTooLarge, wantMsg: "declares a central directory of 3328 KiB", maxRead: endSearchBytes},
		"65,546 entries, count and size lie":       {zip: lying, wantErr: ErrDirectoryTooLarge, wantMsg: "holds more than the 1024 KiB", maxRead: endSearchBytes + 1<<20 + endWindow},
		"a directory over a smaller limit":         {zip: realZip(t, 40), lim: Limits{MaxDirBytes: 1 << 10}, wantErr: ErrDirectoryTooLarge},
		"entries that cannot fit the directory":    {zip: rawZip(3, 3, 100), wantErr: ErrDamaged, wantMsg: "3 entries cannot fit in a central directory of 100 bytes"},
		"not a zip":                                {zip: []byte(strings.Repeat(`{"plan": 1}`, 100)), wantErr: ErrNotZip},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := &countingReader{r: bytes.NewReader(tc.zip)}
			zr, err := Open(r, int64(len(tc.zip)), tc.lim)
			if tc.wantErr == nil {
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				if len(zr.File) != tc.wantFiles {
					t.Errorf("%d entries; want %d", len(zr.File), tc.wantFiles)
				}
				// The entries read through the reader Open returns.
				f, err := zr.File[len(zr.File)-1].Open()
				if err != nil {
					t.Fatalf("open the last entry: %v", err)
				}
				var got bytes.Buffer
				got.ReadFrom(f)
				if got.String() != `{"format_version":"1.2"}` {
					t.Errorf("the last entry reads %q", got.String())
				}
				return
			}
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("Open = %v; want %v saying %q", err, tc.wantErr, tc.wantMsg)
			}
			if tc.maxRead > 0 && r.read.Load() > tc.maxRead {
				t.Errorf("Open read %d bytes of the zip; want at most %d", r.read.Load(), tc.maxRead)
			}
		})
	}
	// The lie works on archive/zip alone: it parses every entry.
	if zr, err := zip.NewReader(bytes.NewReader(lying), int64(len(lying))); err != nil || len(zr.File) != 65546 {
		t.Errorf("archive/zip on the lying zip: %v entries, %v; want all 65546 parsed (the trick Open must bound)", fileCount(zr), err)
	}
}

func fileCount(zr *zip.Reader) int {
	if zr == nil {
		return 0
	}
	return len(zr.File)
}
