package planparse

import (
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// readValueInto is readRawInto for a value section: the reader takes notes.
func readValueInto(data []byte, v, d int, into *rawJSON, n *secret.Notes) (int, error) {
	end, err := jsonscan.SkipNoting(data, v, d, n)
	*into = nil
	if err == nil && !jsonscan.IsNull(data, v) {
		*into = data[v:end:end]
	}
	return end, err
}

// collectFound adds to s what the detector finds by name or context in the
// plan: the reader's notes on values, and the strings outside values that
// the plan shows (instance keys of addresses, replace paths, import ids,
// check messages, outputs under secret names).
func collectFound(w *wirePlan, s *secret.Set) {
	w.notes.Learn(s)
	search := func(x string) {
		if len(x) >= secret.MinScanLen {
			s.Find(x, "", s.Learn)
		}
	}
	keys := func(addr string) {
		if strings.Contains(addr, `["`) {
			mapAddressKeys(addr, func(k string) (string, bool) { search(k); return "", false })
		}
	}
	for _, rc := range w.searched { // of resource_changes and resource_drift (readChanges)
		collectChange(rc, keys, search)
	}
	for i := range w.DeferredChanges {
		if c := w.DeferredChanges[i].Change; c != nil {
			collectChange(c, keys, search)
		}
	}
	for name, o := range w.OutputChanges {
		if IsSecretName(name) {
			s.LearnNamed(name, o.Before)
			s.LearnNamed(name, o.After)
		}
	}
	for _, c := range w.Checks {
		keys(c.Address.ToDisplay)
		for _, in := range c.Instances {
			keys(in.Address.ToDisplay)
			for _, p := range in.Problems {
				search(p.Message)
			}
		}
	}
}

// searchedOutsideValues reports whether collectChange has anything of c,
// a change as read (its strings as the plan has them), to search.
func searchedOutsideValues(c *Change) bool {
	return strings.Contains(c.Address, `["`) || strings.Contains(c.PreviousAddress, `["`) || strings.Contains(c.ModuleAddress, `["`) ||
		len(c.Index) > 0 && c.Index[0] == '"' || len(c.ReplacePaths) > 0 || c.Importing != nil
}

// collectChange searches the strings of c, a change as read, outside its
// values.
func collectChange(c *Change, keys, search func(string)) {
	keys(c.Address)
	keys(c.PreviousAddress)
	keys(c.ModuleAddress)
	if len(c.Index) > 0 && c.Index[0] == '"' {
		search(jsonscan.StringAt(jsonscan.Bytes(c.Index)))
	}
	for _, p := range c.ReplacePaths {
		for _, step := range jsonscan.Elements(jsonscan.Bytes(p)) {
			if len(step) > 0 && step[0] == '"' {
				search(jsonscan.StringAt(step))
			}
		}
	}
	if c.Importing != nil {
		search(c.Importing.ID)
	}
}

// RedactText returns s with every secret the detector finds in it replaced
// by SensitiveText, and every secret (8 characters and more) of a plan
// still in memory that it holds: a value the plan marks sensitive or that
// the detector found by its name or context. It is for strings that came
// from a plan and go to a log line or an error message outside the change
// model.
func RedactText(s string) string { return secret.Redact(s, secret.Live()...) }

// IsSecretName reports whether an attribute name says it holds a secret.
// Names are read as words: snake_case, and camelCase or PascalCase (ARM,
// Bicep, Kubernetes) split where a lower-case letter or digit meets a
// capital, so adminPassword reads as admin_password and
// disablePasswordAuthentication as disable_password_authentication (a
// switch, public).
func IsSecretName(name string) bool { return secret.IsName(name) }

// DecodeBound is the most memory the blobs of a plan hold at once while
// it is read, beyond the plan's bytes: a blob inside a blob is decoded
// while the outer text is held (to the detector's depth), by each
// goroutine that reads. The worker adds it to each job's fixed cost.
const DecodeBound = secret.DecodeBound
