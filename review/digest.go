package review

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash"
	"slices"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/par"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/rules"
)

// DigestScheme names how change digests are made; a record made under
// another scheme cannot be compared with this one's.
const DigestScheme = "hmac-sha256-v2"

// digestKey keys every change digest. It is not a secret, and cannot be:
// the review of a pull request and the verify step of the apply job must
// make the same digest without sharing a secret store. A digest is
// therefore only ever made of the sanitized attribute diff (planparse's
// values): what a plan marks sensitive, and what the secret detector
// finds, reads as "sensitive" before it is hashed, so no secret enters a
// digest and no digest can test a guess of one. The key separates this
// digest from every other SHA-256 of the same bytes (no table made for
// another purpose applies). The price: a secret that changes between the
// review and the apply, with nothing else, changes no digest.
var digestKey = func() []byte {
	k := sha256.Sum256([]byte("planwarden change digest " + DigestScheme))
	return k[:]
}()

// DigestHex is how many hex digits a digest keeps: 128 bits, so two
// change sets made to collide cost 2^64 tries.
const DigestHex = 32

// ChangeID is what identifies a change for verify: the reviewed change and
// the change about to be applied are the same change when their IDs are
// equal. Counts are the instances of the change's priced groups (nil when
// unknown or not a compute resource).
type ChangeID struct {
	Address         string `json:"address"`
	Deposed         string `json:"deposed,omitempty"`
	Action          string `json:"action"`
	ReplaceOrder    string `json:"replace_order,omitempty"`
	PreviousAddress string `json:"previous_address,omitempty"`
	Importing       bool   `json:"importing,omitempty"`
	SKUBefore       string `json:"sku_before,omitempty"`
	SKUAfter        string `json:"sku_after,omitempty"`
	CountBefore     *int   `json:"count_before,omitempty"`
	CountAfter      *int   `json:"count_after,omitempty"`
	// DiffDigest is the keyed digest of the sanitized attribute diff ("" for
	// a no-op, delete or forget, whose attributes the apply does not
	// write). KnownDiffDigest is the digest of the diff without the
	// entries under UnknownPaths, the paths whose new value was known only
	// after apply (both empty when there are none).
	DiffDigest      string   `json:"diff_digest,omitempty"`
	KnownDiffDigest string   `json:"known_diff_digest,omitempty"`
	UnknownPaths    []string `json:"unknown_paths,omitempty"`
}

// Key is the address and deposed object key: what pairs a reviewed change
// with a planned one.
func (id ChangeID) Key() string {
	if id.Deposed == "" {
		return id.Address
	}
	return id.Address + " (deposed " + id.Deposed + ")"
}

// ChangeSet is one project's changes as verify compares them: the change
// IDs sorted by key and their keyed digest.
type ChangeSet struct {
	Project     string        `json:"project"`
	Environment string        `json:"environment,omitempty"`
	Verdict     rules.Verdict `json:"verdict,omitempty"`
	// Complete is false when the plan failed part way or deferred changes.
	Complete bool   `json:"complete"`
	Digest   string `json:"digest"`
	Count    int    `json:"count"`
	// Changes are the IDs, sorted by key; nil when a record left them out
	// for size (the check run's output), then only Digest can be compared.
	Changes []ChangeID `json:"changes,omitempty"`
}

// diffDigests are a change's attribute-diff digests (see ChangeID).
type diffDigests struct {
	diff, known string
	unknown     []string
}

// ID is the change's identity for verify (Build computes its digests).
func (c *Change) ID() ChangeID {
	id := ChangeID{
		Address: c.Address(), Deposed: c.src().Deposed, Action: c.Action(), ReplaceOrder: c.ReplaceOrder(),
		Importing: c.Importing(), SKUBefore: c.SKUBefore(), SKUAfter: c.SKUAfter(),
		DiffDigest: c.digests.diff, KnownDiffDigest: c.digests.known, UnknownPaths: c.digests.unknown,
	}
	if c.PreviousAddress() != c.Address() {
		id.PreviousAddress = c.PreviousAddress()
	}
	if c.Resource != nil {
		id.CountBefore, id.CountAfter = instances(c.Resource.Before), instances(c.Resource.After)
	}
	return id
}

// CountBefore and CountAfter are the change's instance counts (see ChangeID).
func (c *Change) CountBefore() *int { return c.ID().CountBefore }

// CountAfter: see CountBefore.
func (c *Change) CountAfter() *int { return c.ID().CountAfter }

// DiffDigest is the keyed digest of the change's sanitized attribute diff
// ("" for a change whose attributes the apply does not write).
func (c *Change) DiffDigest() string { return c.digests.diff }

// KnownDiffDigest is DiffDigest without the entries known only after apply.
func (c *Change) KnownDiffDigest() string { return c.digests.known }

// UnknownPaths are the attribute paths whose new value is known only after apply.
func (c *Change) UnknownPaths() []string { return c.digests.unknown }

// writesAttributes reports whether applying an action writes the
// resource's attributes (a no-op, a delete and a forget do not: what is
// applied is the same whatever the attributes were).
func writesAttributes(a planparse.Action) bool {
	switch a {
	case planparse.ActionNoop, planparse.ActionDelete, planparse.ActionForget:
		return false
	}
	return true
}

// computeDigests sets the change's attribute-diff digests, made with d
// (one per goroutine: its HMAC is keyed once and reset per digest).
func (c *Change) computeDigests(d *digester) {
	if c.Source == nil || !writesAttributes(c.Source.Action) {
		c.digests = diffDigests{}
		return
	}
	c.digests = d.diff(c.Source.Diff())
}

// diff makes the digests of a diff: every entry's canonical bytes are made
// once, into the digester's buffer, then hashed for the digest and, when
// some value is known only after apply, for the known digest.
func (d *digester) diff(diff []planparse.AttrDiff) diffDigests {
	var out diffDigests
	for _, e := range diff {
		if e.Unknown && !under(e.Path, out.unknown) {
			out.unknown = append(out.unknown, e.Path)
		}
	}
	d.buf, d.ends = d.buf[:0], d.ends[:0]
	for _, e := range diff {
		d.buf, d.val = diffEntryWith(d.buf, d.val, e)
		d.ends = append(d.ends, len(d.buf))
	}
	d.h.Reset()
	start := 0
	for _, end := range d.ends {
		d.field(d.buf[start:end])
		start = end
	}
	out.diff = d.sum()
	if len(out.unknown) > 0 {
		d.h.Reset()
		start = 0
		for i, end := range d.ends {
			if !under(diff[i].Path, out.unknown) {
				d.field(d.buf[start:end])
			}
			start = end
		}
		out.known = d.sum()
	}
	return out
}

// under reports whether path is one of paths or below one of them.
func under(path string, paths []string) bool {
	for _, p := range paths {
		if path == p || strings.HasPrefix(path, p) && (path[len(p)] == '.' || path[len(p)] == '[') {
			return true
		}
	}
	return false
}

// diffEntry is one diff entry's canonical bytes: its path and each side
// as "S" (sensitive: the value never enters), "U" (known after apply) or
// "V" and the sanitized value's canonical JSON (map keys sorted), each text
// the comment summarizes as its fingerprint and each JSON document in a
// string as its structure (planparse.Value.Fingerprinted): a plan and its
// redacted copy give the same bytes. (v2 of the scheme: v1 hashed texts
// and documents as they were written.)
func diffEntry(b []byte, e planparse.AttrDiff) []byte {
	var scratch [64]byte
	b, _ = diffEntryWith(b, scratch[:0], e)
	return b
}

// diffEntryWith is diffEntry making each value's bytes in scratch (the
// digester's, kept between entries), which it returns grown.
func diffEntryWith(b, scratch []byte, e planparse.AttrDiff) ([]byte, []byte) {
	b = binary.AppendUvarint(b, uint64(len(e.Path)))
	b = append(b, e.Path...)
	for _, v := range []planparse.Value{e.Before, e.After} {
		switch {
		case v.IsSensitive():
			b = appendField(b, []byte("S"))
		case v.IsUnknown():
			b = appendField(b, []byte("U"))
		default:
			scratch = appendCanonical(append(scratch[:0], 'V'), v.Fingerprinted(e.Path))
			b = appendField(b, scratch)
		}
	}
	return b, scratch
}

// appendCanonical appends plain JSON data (planparse's Interface) as JSON
// with map keys sorted, as encoding/json writes it, without its reflection.
func appendCanonical(b []byte, x any) []byte {
	switch t := x.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, t)
	case string:
		return strconv.AppendQuote(b, t)
	case float64:
		return strconv.AppendFloat(b, t, 'g', -1, 64)
	case []any:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonical(b, e)
		}
		return append(b, ']')
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, k)
			b = append(b, ':')
			b = appendCanonical(b, t[k])
		}
		return append(b, '}')
	}
	j, err := json.Marshal(x) // no other type comes out of Interface
	if err != nil {
		j = []byte(strconv.Quote(err.Error()))
	}
	return append(b, j...)
}

// appendField appends a length-prefixed field, so no two sequences of
// fields share their bytes.
func appendField(b, f []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(f)))
	return append(b, f...)
}

// digester makes keyed digests; buf and ends are its scratch (diff), n
// and out those of field and sum (a digester is made once per goroutine:
// they cost no allocation per digest).
type digester struct {
	h    hash.Hash
	buf  []byte
	val  []byte
	ends []int
	n    [binary.MaxVarintLen64]byte
	out  [sha256.Size]byte
	hex  [2 * sha256.Size]byte
}

func newDigest() *digester { return &digester{h: hmac.New(sha256.New, digestKey)} }

func (d *digester) field(f []byte) {
	d.h.Write(d.n[:binary.PutUvarint(d.n[:], uint64(len(f)))])
	d.h.Write(f)
}

func (d *digester) sum() string {
	hex.Encode(d.hex[:], d.h.Sum(d.out[:0]))
	return string(d.hex[:DigestHex])
}

// instances is a side's instance count: the expected count of its priced
// groups summed; nil when the side is absent, has no group, or a count is
// known only after apply.
func instances(s *infra.Side) *int {
	if s == nil || len(s.Groups) == 0 {
		return nil
	}
	n := 0
	for i := range s.Groups {
		if s.Groups[i].Scale.Unknown {
			return nil
		}
		n += s.Groups[i].Scale.Expected
	}
	return &n
}

// line is the ID's canonical bytes, for the change set's digest.
func (id ChangeID) line() []byte {
	var b []byte
	for _, f := range []string{id.Address, id.Deposed, id.Action, id.ReplaceOrder, id.PreviousAddress,
		strconv.FormatBool(id.Importing), id.SKUBefore, id.SKUAfter, count(id.CountBefore), count(id.CountAfter),
		id.DiffDigest} {
		b = appendField(b, []byte(f))
	}
	return b
}

func count(n *int) string {
	if n == nil {
		return "-"
	}
	return strconv.Itoa(*n)
}

// SortIDs sorts IDs by key, then by their bytes (a plan lists each key
// once; a hand-made list may not).
func SortIDs(ids []ChangeID) {
	slices.SortFunc(ids, func(a, b ChangeID) int {
		if c := strings.Compare(a.Key(), b.Key()); c != 0 {
			return c
		}
		return strings.Compare(string(a.line()), string(b.line()))
	})
}

// SetDigest is the keyed digest of a set of change IDs, whatever their
// order: the digest of their sorted canonical lines. The known-after-apply
// digests and paths are not part of it (DiffDigest covers them).
func SetDigest(ids []ChangeID) string {
	lines := make([]string, len(ids))
	for i, id := range ids {
		lines[i] = string(id.line())
	}
	slices.Sort(lines)
	d := newDigest()
	d.field([]byte(DigestScheme))
	for _, l := range lines {
		d.field([]byte(l))
	}
	return d.sum()
}

// ChangeSet is the project's change set: every change's ID, sorted, and
// the set's digest. Its verdict is that of the project's findings,
// overrides counted.
func (p *Project) ChangeSet() ChangeSet {
	ids, digest := slices.Clone(p.ids), p.ChangeSetDigest
	if p.ids == nil || len(ids) != len(p.Changes) {
		ids = p.changeIDs()
		digest = SetDigest(ids)
	}
	return ChangeSet{Project: p.Name, Environment: p.Environment, Verdict: rules.VerdictOf(p.Findings),
		Complete: p.Complete, Digest: digest, Count: len(ids), Changes: ids}
}

// changeIDs is every change's ID, sorted.
func (p *Project) changeIDs() []ChangeID {
	ids := make([]ChangeID, len(p.Changes))
	for i, c := range p.Changes {
		ids[i] = c.ID()
	}
	SortIDs(ids)
	return ids
}

// MakeDigests makes the digests Build makes with Options.Digests, for the
// projects that have none: a caller that builds a report more than once
// (the App, with the overrides) makes them once, on the report it keeps.
func (r *Report) MakeDigests() {
	for _, p := range r.Projects {
		if p.ChangeSetDigest == "" {
			p.digestChanges(par.Policy{})
		}
	}
}

// digestChanges computes every change's digests and the project's
// change-set digest, a large project's on two goroutines (pol).
func (p *Project) digestChanges(pol par.Policy) {
	parts := 1
	if pol.Split(par.Digests, len(p.Changes)) {
		parts = 2
	}
	par.Each(parts, func(k int) {
		n, d := len(p.Changes), newDigest()
		for _, c := range p.Changes[k*n/parts : (k+1)*n/parts] {
			c.computeDigests(d)
		}
	})
	p.ids = p.changeIDs()
	p.ChangeSetDigest, p.DigestScheme = SetDigest(p.ids), DigestScheme
}

// upgrade records the provider upgrades on the project and on each of its
// replacements.
func (p *Project) upgrade(ups []ProviderUpgrade) {
	if len(ups) == 0 {
		return
	}
	p.ProviderUpgrades = slices.Clone(ups)
	for _, c := range p.Changes {
		if c.Action() == string(planparse.ActionReplace) {
			c.ProviderUpgrades = p.ProviderUpgrades
		}
	}
}

// SetDiffDigests gives a change made outside Build (a test's, a record's)
// its attribute-diff digests (see ChangeID).
func (c *Change) SetDiffDigests(diff, known string, unknown []string) {
	c.digests = diffDigests{diff: diff, known: known, unknown: unknown}
}
