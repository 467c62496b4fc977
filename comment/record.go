package comment

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/planwarden/planwarden/review"
)

// Record is what the check run's output keeps of a review for `planwarden
// verify`: per project, the reviewed change set (its digest, and its change
// IDs when they fit) and the verdict, overrides counted. It is written at
// the end of the output's text as an HTML comment, which GitHub does not
// show: `<!-- planwarden:reviewed v1 ` + base64 of the gzipped JSON + ` -->`.
type Record struct {
	// Scheme is review.DigestScheme of the digests.
	Scheme string `json:"scheme"`
	// Conclusion is the check run's conclusion the review gave.
	Conclusion string             `json:"conclusion"`
	Projects   []review.ChangeSet `json:"projects"`
}

const (
	recordOpen  = "<!-- planwarden:reviewed v1 "
	recordClose = " -->"
)

// MaxRecordBytes is how much of the check run's text the record may take;
// when every change's ID does not fit, the record keeps each project's
// digest and count only (verify then compares whole sets).
const MaxRecordBytes = 24 << 10

// NewRecord is the record of a report whose digests were made
// (review.Options.Digests); ok is false when some project has none.
func NewRecord(r *review.Report) (Record, bool) {
	rec := Record{Scheme: review.DigestScheme, Conclusion: Conclusion(r), Projects: make([]review.ChangeSet, 0, len(r.Projects))}
	for _, p := range r.Projects {
		if p.ChangeSetDigest == "" {
			return Record{}, false
		}
		rec.Projects = append(rec.Projects, p.ChangeSet())
	}
	return rec, true
}

// recordBlock is the record's hidden block, at most MaxRecordBytes ("" for
// a report without digests).
func recordBlock(r *review.Report) string {
	rec, ok := NewRecord(r)
	if !ok {
		return ""
	}
	if !beyondRecord(rec) {
		if b := encodeRecord(rec); len(b) <= MaxRecordBytes {
			return b
		}
	}
	for i := range rec.Projects {
		rec.Projects[i].Changes = nil
	}
	return encodeRecord(rec)
}

// beyondRecord reports whether rec's change IDs cannot fit in
// MaxRecordBytes whatever the compression: each distinct diff digest is
// 16 bytes of keyed hash no compressor shortens, written as base64. It
// says so at twice the limit's worth only (a large plan is then encoded
// once, without its IDs, not first with them in vain).
func beyondRecord(rec Record) bool {
	const digestBytes = review.DigestHex / 2
	seen := map[string]struct{}{}
	for _, p := range rec.Projects {
		for _, id := range p.Changes {
			if id.DiffDigest == "" {
				continue
			}
			if seen[id.DiffDigest] = struct{}{}; len(seen)*digestBytes*4/3 > 2*MaxRecordBytes {
				return true
			}
		}
	}
	return false
}

func encodeRecord(rec Record) string {
	j, err := json.Marshal(rec)
	if err != nil { // plain strings, numbers and booleans: never
		return ""
	}
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	_, _ = w.Write(j)
	_ = w.Close()
	return recordOpen + base64.StdEncoding.EncodeToString(z.Bytes()) + recordClose
}

// maxRecordJSON bounds what a record may inflate to.
const maxRecordJSON = 16 << 20

// ErrNoRecord says a check run's text holds no record: the review was made
// by a planwarden that wrote none, or without digests.
var ErrNoRecord = errors.New("the check run's output holds no planwarden record")

// ParseRecord reads the record at the end of a check run's text. Only a
// block that ends the text counts: everything before it is the rendered
// review, where a plan's strings could imitate one.
func ParseRecord(text string) (Record, error) {
	text = strings.TrimRight(text, " \t\r\n")
	i := strings.LastIndex(text, recordOpen)
	if i < 0 || !strings.HasSuffix(text, recordClose) || i+len(recordOpen) > len(text)-len(recordClose) {
		return Record{}, ErrNoRecord
	}
	raw, err := base64.StdEncoding.DecodeString(text[i+len(recordOpen) : len(text)-len(recordClose)])
	if err != nil {
		return Record{}, fmt.Errorf("read the planwarden record: not base64: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return Record{}, fmt.Errorf("read the planwarden record: not gzip: %w", err)
	}
	j, err := io.ReadAll(io.LimitReader(zr, maxRecordJSON+1))
	if err != nil {
		return Record{}, fmt.Errorf("read the planwarden record: %w", err)
	}
	if len(j) > maxRecordJSON {
		return Record{}, fmt.Errorf("read the planwarden record: over %d bytes inflated", maxRecordJSON)
	}
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return Record{}, fmt.Errorf("read the planwarden record: %w", err)
	}
	if rec.Scheme != review.DigestScheme {
		return Record{}, fmt.Errorf("read the planwarden record: digest scheme %q, this planwarden makes %q: verify with the planwarden version the App runs", rec.Scheme, review.DigestScheme)
	}
	for _, p := range rec.Projects {
		if p.Changes == nil {
			continue
		}
		ids := append([]review.ChangeID{}, p.Changes...)
		review.SortIDs(ids)
		if review.SetDigest(ids) != p.Digest || len(ids) != p.Count {
			return Record{}, fmt.Errorf("read the planwarden record: project %q: its digest does not match its changes", p.Project)
		}
	}
	return rec, nil
}
