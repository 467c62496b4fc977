package review

import (
	"slices"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/rules"
)

// Tolerance says which differences between the reviewed change set and
// the planned one verify lets pass; the zero Tolerance lets none.
type Tolerance struct {
	// NewNoop lets a no-op change on one side only pass.
	NewNoop bool
	// KnownAfterApply lets a value the review saw as known only after
	// apply be known now (and a count the review could not know be known).
	KnownAfterApply bool
}

// Part names a part of a change's identity that differs.
type Part string

// The parts of a change verify compares.
const (
	PartAction    Part = "action"
	PartMove      Part = "moved from"
	PartImport    Part = "import"
	PartSKU       Part = "sku"
	PartCount     Part = "count"
	PartAttribute Part = "attributes"
)

// Difference is one change whose plan is not what was reviewed: planned
// without review (Reviewed nil), reviewed but not planned (Planned nil),
// or both and unlike in Parts.
type Difference struct {
	Key      string
	Reviewed *ChangeID
	Planned  *ChangeID
	Parts    []Part
	// Tolerated says which Tolerance let it pass ("" when none did):
	// "new no-op" or "known after apply".
	Tolerated string
}

// ProjectCheck is verify's finding on one planned project.
type ProjectCheck struct {
	Project, Environment string
	// Reviewed is false when no reviewed project has this name.
	Reviewed bool
	// Verdict is the review's verdict of the project, overrides counted.
	Verdict rules.Verdict
	// Incomplete is true when the planned plan failed part way or left
	// changes for a later plan: it is not the whole apply.
	Incomplete bool
	// DigestOnly is true when the record kept only the change set's
	// digest: the sets are compared whole, not change by change.
	DigestOnly bool
	// ReviewedDigest and PlannedDigest are the change sets' digests.
	ReviewedDigest, PlannedDigest string
	// Differences are those that fail the check; Tolerated those a
	// Tolerance let pass.
	Differences, Tolerated []Difference
}

// OK reports whether the project may be applied: it was reviewed, its
// review passed (pass or warn), its plan is complete and the same as the
// reviewed one within the tolerances.
func (c ProjectCheck) OK() bool {
	return c.Reviewed && c.Verdict != rules.VerdictFail && c.Verdict != "" && !c.Incomplete && len(c.Differences) == 0 &&
		(!c.DigestOnly || c.ReviewedDigest == c.PlannedDigest)
}

// Verify compares each planned project (built with Options.Digests) with
// the reviewed change set of the same name, change by change, keyed by
// address and deposed key. The result has one ProjectCheck per planned
// project, in their order; differences are sorted by key.
func Verify(reviewed []ChangeSet, planned []*Project, tol Tolerance) []ProjectCheck {
	out := make([]ProjectCheck, 0, len(planned))
	for _, p := range planned {
		set := p.ChangeSet()
		c := ProjectCheck{Project: p.Name, Environment: p.Environment, Incomplete: !p.Complete, PlannedDigest: set.Digest}
		i := slices.IndexFunc(reviewed, func(r ChangeSet) bool { return r.Project == p.Name })
		if i < 0 {
			out = append(out, c)
			continue
		}
		r := reviewed[i]
		c.Reviewed, c.Verdict, c.ReviewedDigest = true, r.Verdict, r.Digest
		if r.Changes == nil && r.Count > 0 {
			c.DigestOnly = true
			out = append(out, c)
			continue
		}
		c.Differences, c.Tolerated = compareSets(r.Changes, p, set.Changes, tol)
		out = append(out, c)
	}
	return out
}

// compareSets pairs reviewed and planned IDs by key.
func compareSets(reviewed []ChangeID, p *Project, planned []ChangeID, tol Tolerance) (fail, tolerated []Difference) {
	byKey := map[string]*Change{}
	for _, c := range p.Changes {
		byKey[c.ID().Key()] = c
	}
	rev := map[string]*ChangeID{}
	for i := range reviewed {
		rev[reviewed[i].Key()] = &reviewed[i]
	}
	var all []Difference
	for i := range planned {
		pl := &planned[i]
		r, ok := rev[pl.Key()]
		if !ok {
			d := Difference{Key: pl.Key(), Planned: pl}
			if tol.NewNoop && pl.Action == string(planparse.ActionNoop) {
				d.Tolerated = "new no-op"
			}
			all = append(all, d)
			continue
		}
		delete(rev, pl.Key())
		if d, differs := compareIDs(*r, *pl, byKey[pl.Key()], tol); differs {
			all = append(all, d)
		}
	}
	for _, r := range rev {
		d := Difference{Key: r.Key(), Reviewed: r}
		if tol.NewNoop && r.Action == string(planparse.ActionNoop) {
			d.Tolerated = "new no-op"
		}
		all = append(all, d)
	}
	slices.SortFunc(all, func(a, b Difference) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	for _, d := range all {
		if d.Tolerated != "" {
			tolerated = append(tolerated, d)
		} else {
			fail = append(fail, d)
		}
	}
	return fail, tolerated
}

// compareIDs says in which parts a planned change differs from its
// reviewed one, and whether the difference is tolerated.
func compareIDs(r, p ChangeID, c *Change, tol Tolerance) (Difference, bool) {
	d := Difference{Key: p.Key(), Reviewed: &r, Planned: &p}
	if r.Action != p.Action || r.ReplaceOrder != p.ReplaceOrder {
		d.Parts = append(d.Parts, PartAction)
	}
	if r.PreviousAddress != p.PreviousAddress {
		d.Parts = append(d.Parts, PartMove)
	}
	if r.Importing != p.Importing {
		d.Parts = append(d.Parts, PartImport)
	}
	if r.SKUBefore != p.SKUBefore || r.SKUAfter != p.SKUAfter {
		d.Parts = append(d.Parts, PartSKU)
	}
	countsKnown := true
	if !sameCount(r.CountBefore, p.CountBefore) || !sameCount(r.CountAfter, p.CountAfter) {
		// A count the review could not know (nil) that is known now.
		countsKnown = (r.CountBefore == nil || sameCount(r.CountBefore, p.CountBefore)) &&
			(r.CountAfter == nil || sameCount(r.CountAfter, p.CountAfter))
		d.Parts = append(d.Parts, PartCount)
	}
	attrsKnown := true
	if r.DiffDigest != p.DiffDigest {
		attrsKnown = len(r.UnknownPaths) > 0 && c != nil && c.Source != nil &&
			knownDigest(c.Source.Diff(), r.UnknownPaths) == r.KnownDiffDigest
		d.Parts = append(d.Parts, PartAttribute)
	}
	if len(d.Parts) == 0 {
		return d, false
	}
	onlyKnown := !slices.ContainsFunc(d.Parts, func(p Part) bool { return p != PartCount && p != PartAttribute })
	if tol.KnownAfterApply && onlyKnown && countsKnown && attrsKnown {
		d.Tolerated = "known after apply"
	}
	return d, true
}

func sameCount(a, b *int) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// knownDigest is the digest of a planned diff without the entries under
// the paths the review saw as known only after apply: the reviewed
// change's KnownDiffDigest when nothing else differs.
func knownDigest(diff []planparse.AttrDiff, unknown []string) string {
	d := newDigest()
	var entry []byte
	for _, e := range diff {
		if under(e.Path, unknown) {
			continue
		}
		entry = diffEntry(entry[:0], e)
		d.field(entry)
	}
	return d.sum()
}
