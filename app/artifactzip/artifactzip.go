// Package artifactzip opens an untrusted zip (a workflow run's artifact)
// with the cost of its central directory bounded before archive/zip parses
// it. The entry count and the directory's size are read from the end of
// central directory record (and its zip64 form) and refused over the
// limits before a byte of the directory is read; then archive/zip parses it
// through a reader that serves at most the directory bytes allowed, so a
// record that lies (archive/zip reads entries until a bad header and checks
// the count only modulo 65536, and never checks the directory's size)
// cannot make it hold more. What Open can cost is fixed by Limits, not by
// the zip.
package artifactzip

import (
	"archive/zip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Limits bound one zip's central directory.
type Limits struct {
	// MaxEntries is the most entries the zip may hold (default 500).
	MaxEntries int
	// MaxDirBytes is the most bytes its central directory may take
	// (default 1 MiB: 500 entries with names of up to 2 KB).
	MaxDirBytes int64
}

func (l Limits) withDefaults() Limits {
	if l.MaxEntries <= 0 {
		l.MaxEntries = 500
	}
	if l.MaxDirBytes <= 0 {
		l.MaxDirBytes = 1 << 20
	}
	return l
}

// Errors Open wraps; the wrapping message says what the zip declared.
var (
	ErrNotZip            = errors.New("not a zip: no end of central directory record")
	ErrTooManyEntries    = errors.New("too many entries")
	ErrDirectoryTooLarge = errors.New("central directory too large")
	ErrDamaged           = errors.New("damaged zip")
)

// Sizes of the records read at the end (APPNOTE.TXT 4.3.14 to 4.3.16).
const (
	endLen         = 22 // end of central directory record, without its comment
	end64LocLen    = 20 // zip64 end of central directory locator
	end64Len       = 56 // zip64 end of central directory record, without its extensible data
	dirHeaderLen   = 46 // central directory file header, without its name, extra field and comment
	maxCommentLen  = 0xffff
	endSearchBytes = endLen + maxCommentLen
)

// endWindow is what archive/zip may read besides the directory: the end
// record's search (1 KiB, then 65 KiB), the zip64 locator and record, the
// probe of one header it makes to check the base offset (up to three
// 64 KiB fields), and one bufio buffer beyond the directory's end.
const endWindow = 1024 + 65*1024 + end64LocLen + end64Len + dirHeaderLen + 3*0xffff + 4096

// End is what the end of central directory record declares.
type End struct {
	Entries   uint64 // entries in the central directory
	DirSize   uint64 // bytes of the central directory
	DirOffset uint64 // where it starts, from the start of the archive
	Zip64     bool   // the zip64 record gave these
}

// ReadEnd reads the end of central directory record of the size bytes of
// r (and the zip64 record it points to), reading at most 64 KiB and
// nothing of the directory itself.
func ReadEnd(r io.ReaderAt, size int64) (End, error) {
	n := min(size, endSearchBytes)
	if n < endLen {
		return End{}, ErrNotZip
	}
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-n); err != nil && !errors.Is(err, io.EOF) {
		return End{}, fmt.Errorf("read the end of the zip: %w", err)
	}
	p := -1
	for i := len(buf) - endLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(buf[i:]) == 0x06054b50 && i+endLen+int(binary.LittleEndian.Uint16(buf[i+20:])) <= len(buf) {
			p = i
			break
		}
	}
	if p < 0 {
		return End{}, ErrNotZip
	}
	b := buf[p:]
	e := End{
		Entries:   uint64(binary.LittleEndian.Uint16(b[10:])),
		DirSize:   uint64(binary.LittleEndian.Uint32(b[12:])),
		DirOffset: uint64(binary.LittleEndian.Uint32(b[16:])),
	}
	if e.Entries != 0xffff && e.DirSize != 0xffffffff && e.DirOffset != 0xffffffff {
		return e, nil
	}
	// The zip64 locator sits right before the end record.
	locAt := size - n + int64(p) - end64LocLen
	if locAt < 0 {
		return e, nil // a zip of 65,535 entries without zip64 records
	}
	var loc [end64LocLen]byte
	if _, err := r.ReadAt(loc[:], locAt); err != nil {
		return End{}, fmt.Errorf("read the zip64 locator: %w", err)
	}
	if binary.LittleEndian.Uint32(loc[:]) != 0x07064b50 {
		return e, nil
	}
	at := binary.LittleEndian.Uint64(loc[8:])
	if at > uint64(size-end64Len) {
		return End{}, fmt.Errorf("%w: the zip64 locator points past the end", ErrDamaged)
	}
	var rec [end64Len]byte
	if _, err := r.ReadAt(rec[:], int64(at)); err != nil {
		return End{}, fmt.Errorf("read the zip64 end record: %w", err)
	}
	if binary.LittleEndian.Uint32(rec[:]) != 0x06064b50 {
		return End{}, fmt.Errorf("%w: no zip64 end record where the locator points", ErrDamaged)
	}
	return End{
		Entries:   binary.LittleEndian.Uint64(rec[32:]),
		DirSize:   binary.LittleEndian.Uint64(rec[40:]),
		DirOffset: binary.LittleEndian.Uint64(rec[48:]),
		Zip64:     true,
	}, nil
}

// Check refuses what an end record declares over lim, or cannot be true:
// more entries than fit in the directory's size.
func Check(e End, lim Limits) error {
	lim = lim.withDefaults()
	switch {
	case e.Entries > uint64(lim.MaxEntries):
		return fmt.Errorf("%w: the zip declares %d entries, more than the limit of %d", ErrTooManyEntries, e.Entries, lim.MaxEntries)
	case e.DirSize > uint64(lim.MaxDirBytes):
		return fmt.Errorf("%w: the zip declares a central directory of %d KiB, more than the limit of %d KiB", ErrDirectoryTooLarge, e.DirSize>>10, lim.MaxDirBytes>>10)
	case e.Entries*dirHeaderLen > e.DirSize:
		return fmt.Errorf("%w: %d entries cannot fit in a central directory of %d bytes", ErrDamaged, e.Entries, e.DirSize)
	}
	return nil
}

// Open checks the zip's end record against lim and parses the zip with
// archive/zip, which may read at most lim.MaxDirBytes of its directory
// (beyond that, ErrDirectoryTooLarge), and refuses more than
// lim.MaxEntries entries. Open's own memory is bounded by lim whatever the
// zip holds: at most MaxDirBytes/46 headers are ever parsed.
func Open(r io.ReaderAt, size int64, lim Limits) (*zip.Reader, error) {
	lim = lim.withDefaults()
	e, err := ReadEnd(r, size)
	if err != nil {
		return nil, err
	}
	if err := Check(e, lim); err != nil {
		return nil, err
	}
	br := &budgetReader{r: r, left: lim.MaxDirBytes + endWindow}
	zr, err := zip.NewReader(br, size)
	if br.spent {
		return nil, fmt.Errorf("%w: the central directory holds more than the %d KiB its limit allows (its end record says %d entries in %d bytes)",
			ErrDirectoryTooLarge, lim.MaxDirBytes>>10, e.Entries, e.DirSize)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, fmt.Errorf("%w: the zip holds %d entries (its end record says %d), more than the limit of %d", ErrTooManyEntries, len(zr.File), e.Entries, lim.MaxEntries)
	}
	// The entries' data is read later through zr, past the budget.
	br.open()
	return zr, nil
}

// errBudget ends archive/zip's parse of a directory larger than allowed.
var errBudget = errors.New("artifactzip: directory read budget spent")

// budgetReader serves at most left bytes until open is called: while
// archive/zip parses the directory, and after that without a bound (the
// entries are read by their declared sizes).
type budgetReader struct {
	r     io.ReaderAt
	left  int64 // < 0: no bound
	spent bool
}

func (b *budgetReader) open() { b.left = -1 }

func (b *budgetReader) ReadAt(p []byte, off int64) (int, error) {
	if b.left < 0 {
		return b.r.ReadAt(p, off)
	}
	if b.left == 0 {
		b.spent = true
		return 0, errBudget
	}
	short := int64(len(p)) > b.left
	if short {
		p = p[:b.left]
	}
	n, err := b.r.ReadAt(p, off)
	b.left -= int64(n)
	if err == nil && short {
		b.spent = true
		err = errBudget
	}
	return n, err
}
