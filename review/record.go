package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/planwarden/planwarden/rules"
)

// ReadChangeSets reads the reviewed change sets of a JSON report (`planwarden
// review --format json`) named name: each project's change IDs, its
// change-set digest and its verdict (from its findings, overrides counted).
// A report without digests, made under another digest scheme, or whose
// digest does not match its changes is refused with an error that names the
// file, the project and the field.
func ReadChangeSets(name string, data []byte) ([]ChangeSet, error) {
	var doc struct {
		Projects *[]struct {
			Name            string          `json:"name"`
			Environment     string          `json:"environment"`
			Errored         bool            `json:"errored"`
			Complete        *bool           `json:"complete"`
			ChangeSetDigest string          `json:"change_set_digest"`
			DigestScheme    string          `json:"digest_scheme"`
			Changes         []ChangeID      `json:"changes"`
			Findings        []rules.Finding `json:"findings"`
		} `json:"projects"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return nil, fmt.Errorf("%s: not a JSON report (byte %d: %v): give the output of `planwarden review --format json`", name, syn.Offset, err)
		case errors.As(err, &typ):
			return nil, fmt.Errorf("%s: field %s: want %s, not %s: give the output of `planwarden review --format json`", name, typ.Field, typ.Type, typ.Value)
		}
		return nil, fmt.Errorf("%s: not a JSON report: %v: give the output of `planwarden review --format json`", name, err)
	}
	if doc.Projects == nil {
		return nil, fmt.Errorf("%s: no field projects: give the output of `planwarden review --format json`", name)
	}
	out := make([]ChangeSet, 0, len(*doc.Projects))
	for i, p := range *doc.Projects {
		where := fmt.Sprintf("%s: projects[%d] (%q)", name, i, p.Name)
		switch {
		case p.Name == "":
			return nil, fmt.Errorf("%s: field name is empty: every reviewed project needs its name", where)
		case p.DigestScheme == "" || p.ChangeSetDigest == "":
			return nil, fmt.Errorf("%s: no change_set_digest: the report was made without digests; make it with `planwarden review --format json --digests`", where)
		case p.DigestScheme != DigestScheme:
			return nil, fmt.Errorf("%s: field digest_scheme is %q, this planwarden makes %q: review and verify with the same planwarden version", where, p.DigestScheme, DigestScheme)
		}
		for j := range p.Changes {
			c := &p.Changes[j]
			if c.Address == "" || c.Action == "" {
				return nil, fmt.Errorf("%s: changes[%d]: field address or action is empty", where, j)
			}
			if c.PreviousAddress == c.Address { // as ChangeID says "not moved"
				c.PreviousAddress = ""
			}
		}
		ids := append([]ChangeID{}, p.Changes...)
		SortIDs(ids)
		if got := SetDigest(ids); got != p.ChangeSetDigest {
			return nil, fmt.Errorf("%s: field change_set_digest %s does not match its changes (%s): the report was edited or cut; use the report as `planwarden review` wrote it", where, p.ChangeSetDigest, got)
		}
		out = append(out, ChangeSet{Project: p.Name, Environment: p.Environment, Verdict: rules.VerdictOf(p.Findings),
			Complete: !p.Errored && (p.Complete == nil || *p.Complete), Digest: p.ChangeSetDigest, Count: len(ids), Changes: ids})
	}
	return out, nil
}
