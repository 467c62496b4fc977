package receiver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"sync/atomic"
)

// chunkBytes is the unit an unverified body is held in: memory grows with
// the bytes that arrived, never with what Content-Length claims, and
// without the slack of a doubling buffer.
const chunkBytes = 64 << 10

var (
	errNoSignature  = errors.New("missing X-Hub-Signature-256")
	errBadSignature = errors.New("bad signature")
	errTooLarge     = errors.New("payload larger than 25 MB")
)

// parseSignature checks the header's shape (sha256= and 64 hex digits)
// before any of the body is read.
func parseSignature(sig string) ([]byte, error) {
	if sig == "" {
		return nil, errNoSignature
	}
	hexSum, ok := strings.CutPrefix(sig, "sha256=")
	if !ok || len(hexSum) != 2*sha256.Size {
		return nil, errBadSignature
	}
	sum, err := hex.DecodeString(hexSum)
	if err != nil {
		return nil, errBadSignature
	}
	return sum, nil
}

// bodyBytes counts the body bytes a receiver holds now, and the most it
// held at once.
type bodyBytes struct{ now, peak atomic.Int64 }

func (b *bodyBytes) add(n int64) {
	v := b.now.Add(n)
	for p := b.peak.Load(); v > p && !b.peak.CompareAndSwap(p, v); p = b.peak.Load() {
	}
}

// readSigned reads the size bytes a body declared in chunks (each
// allocated as its bytes are due, so memory grows with what arrived),
// computing their HMAC-SHA256 as they arrive, and returns the body only if
// it matches want. held counts the bytes buffered, for the receiver's
// bound. A body that ends early is an error.
func readSigned(r io.Reader, want, secret []byte, size int64, held *bodyBytes) ([]byte, error) {
	if size > MaxWebhookBytes {
		return nil, errTooLarge
	}
	mac := hmac.New(sha256.New, secret)
	var (
		chunks [][]byte
		total  int64
	)
	defer func() { held.add(-total) }()
	for total < size {
		c := make([]byte, min(chunkBytes, size-total))
		n, err := io.ReadFull(r, c)
		if n > 0 {
			c = c[:n]
			mac.Write(c)
			chunks = append(chunks, c)
			total += int64(n)
			held.add(int64(n))
		}
		if err != nil {
			return nil, err
		}
	}
	if !hmac.Equal(mac.Sum(nil), want) {
		return nil, errBadSignature
	}
	// Verified: one contiguous copy for the decoder.
	body := make([]byte, 0, total)
	for _, c := range chunks {
		body = append(body, c...)
	}
	return body, nil
}
