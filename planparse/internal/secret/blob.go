package secret

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
)

// Blobs: base64 (optionally gzip+base64) values the detector looks inside,
// a user_data script or a Kubernetes secret's data. What one decode may
// hold is fixed, whatever the plan holds: a blob over maxBlobEncoded is not
// decoded (it is judged as the string it is), a gzip stream is read to at
// most maxBlobText bytes (the text is judged by that prefix).
const (
	// maxBlobEncoded is the longest value decoded (2 MiB; EC2 user_data
	// is at most 16 KiB, Azure custom_data 64 KiB, a GCE startup script
	// 256 KiB, a Kubernetes secret 1 MiB).
	maxBlobEncoded = 2 << 20
	// maxBlobText is the most text a gzip blob is read to.
	maxBlobText = 2 << 20
	// gzipState is what a gzip reader holds besides its output: the
	// 32 KiB window, the Huffman tables and its bufio reader.
	gzipState = 64 << 10
	// blobReaders is how many goroutines of one Parse may decode at once:
	// the two halves of a large plan's changes and its state's read
	// (readsplit.go).
	blobReaders = 3
)

// blobBound is what one DecodeBlob holds at most: the base64 bytes, the
// gzip text with the reader's state (the text read into a buffer of the
// size the stream's trailer declares, then into one of the cap), and the
// string it returns.
const blobBound = maxBlobEncoded/4*3 + 2*maxBlobText + gzipState + maxBlobText

// DecodeBound is the most memory the blobs of a plan hold at once while
// it is read, beyond the plan's bytes: a blob inside a blob is decoded
// while the outer text is held (to the detector's depth), by each
// goroutine that reads. The worker adds it to each job's fixed cost.
const DecodeBound = blobReaders * ((maxDepth-1)*maxBlobText + blobBound)

// DecodeBlob returns the text inside a base64 (optionally gzip) blob: the
// encoding is chosen from the value's alphabet (+/ or -_, padded or not;
// line breaks are skipped), the bytes are decoded as a stream into one
// buffer of their decoded length, and a gzip stream is read into a buffer
// of at most maxBlobText bytes (a longer text is judged by that prefix).
func DecodeBlob(s string) (string, bool) {
	if len(s) < 24 || len(s) > maxBlobEncoded {
		return "", false
	}
	enc := blobEncoding(s)
	if enc == nil {
		return "", false
	}
	raw := make([]byte, enc.DecodedLen(len(s)))
	n, err := io.ReadFull(base64.NewDecoder(enc, strings.NewReader(s)), raw)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
	case err != nil:
		return "", false
	}
	if n == 0 {
		return "", false
	}
	raw = raw[:n]
	if len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		if raw = gunzip(raw); raw == nil {
			return "", false
		}
	}
	if !utf8.Valid(raw) || !mostlyText(raw) {
		return "", false
	}
	return string(raw), true
}

// blobEncoding is the base64 encoding of s by its alphabet, or nil when s
// is not base64: standard (+/) or URL (-_) letters, not both, padding only
// at the end.
func blobEncoding(s string) *base64.Encoding {
	std, url, pad := false, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if pad > 0 {
				return nil
			}
		case c == '+' || c == '/':
			std = true
		case c == '-' || c == '_':
			url = true
		case c == '=':
			pad++
		case c == '\n' || c == '\r':
		default:
			return nil
		}
		if pad > 0 && s[i] != '=' && s[i] != '\n' && s[i] != '\r' {
			return nil
		}
	}
	switch {
	case std && url || pad > 2:
		return nil
	case url && pad > 0:
		return base64.URLEncoding
	case url:
		return base64.RawURLEncoding
	case pad > 0:
		return base64.StdEncoding
	}
	// Unpadded: the raw form decodes both a padless tail and a whole.
	return base64.RawStdEncoding
}

// gunzip reads the gzip stream in raw to at most maxBlobText bytes (a
// longer one is cut there), or nil when it is not one.
func gunzip(raw []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil
	}
	// The trailer declares the text's size (modulo 2^32): a first buffer
	// of that size, within the cap; a stream that holds more is read on
	// into one of the cap.
	size := min(int(binary.LittleEndian.Uint32(raw[len(raw)-4:])), maxBlobText)
	out := make([]byte, max(size, 512))
	n, err := io.ReadFull(zr, out)
	if err == nil && len(out) < maxBlobText {
		more := make([]byte, maxBlobText)
		copy(more, out)
		var m int
		m, err = io.ReadFull(zr, more[n:])
		out, n = more, n+m
	}
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) && n == 0 {
		return nil
	}
	if n == 0 {
		return nil
	}
	return out[:n]
}
