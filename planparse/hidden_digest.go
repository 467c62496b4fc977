package planparse

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"io"

	"github.com/planwarden/planwarden/jsontext"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// jsonChunk is how much of a string writeJSON encodes at a time.
const jsonChunk = 64 << 10

// writeJSON writes json.Marshal(x) to w. A string is encoded a chunk at a
// time, so a hidden 64 MB value is digested without its 64 MB encoding,
// the encoder's growing buffer and Marshal's copy of it (three at once,
// once per read of the value). Other values are marshaled whole.
func writeJSON(w io.Writer, x any) {
	s, ok := x.(string)
	if !ok || len(s) <= jsonChunk {
		b, _ := json.Marshal(x)
		w.Write(b)
		return
	}
	writeJSONString(w, s, jsonChunk)
}

// writeJSONString writes json.Marshal(s), encoding chunks of about n bytes
// cut where no rune is (secret.RuneCut): Marshal escapes a string rune by
// rune (an invalid byte alone), so the chunks' encodings joined are the
// string's. One buffer serves every chunk.
func writeJSONString(w io.Writer, s string, n int) {
	var buf []byte
	io.WriteString(w, `"`)
	for len(s) > 0 {
		cut := secret.RuneCut(s, min(n, len(s)))
		buf = jsontext.AppendString(buf[:0], s[:cut]) // "…"
		w.Write(buf[1 : len(buf)-1])
		s = s[cut:]
	}
	io.WriteString(w, `"`)
}

// redact is the marker of a value hidden in review mode: its digest, keyed
// per process.
func redact(x any) sensitive {
	var h maphash.Hash
	h.SetSeed(seed)
	writeJSON(&h, x)
	return sensitive{sum: h.Sum64()}
}

// digestValue is digest(json.Marshal(x)), without the encoding of a long
// string whole.
func (z sanitizer) digestValue(x any) uint64 {
	if z.redactKey == nil {
		return redact(x).sum
	}
	m := hmac.New(sha256.New, z.redactKey)
	writeJSON(m, x)
	return binary.BigEndian.Uint64(m.Sum(nil))
}
