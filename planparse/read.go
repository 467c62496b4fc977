package planparse

import (
	"bytes"
	"encoding/json"
	"slices"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/planwarden/planwarden/par"
	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// readPlan fills a wirePlan from the plan's bytes in one pass: the fields
// planparse models are read, attribute values and the prior_state,
// planned_values and configuration sections are validated and kept as
// slices of data, everything else is validated and skipped (unknown
// top-level fields land in Extra, still as slices of data).
func readPlan(data []byte) (*wirePlan, error) { return readPlanSplit(data, par.Policy{}) }

// readPlanSplit is readPlan reading prior_state on a second goroutine
// when the policy splits it (readsplit.go).
func readPlanSplit(data []byte, pol par.Policy) (*wirePlan, error) {
	w := &wirePlan{notes: secret.NewNotes(data), marked: secret.NewSet(),
		priorScan: stateScan{root: []string{"values", "root_module"}}, plannedScan: stateScan{root: []string{"root_module"}}}
	in := interner{notes: w.notes, marked: w.marked, searched: &w.searched}
	prior := startPriorRead(data, pol) // readsplit.go
	defer prior.wait()
	i := jsonscan.WS(data, 0)
	if i < len(data) && data[i] != '{' {
		if _, err := jsonscan.Skip(data, i, 0); err != nil {
			return nil, err
		}
		return nil, &jsonscan.KindError{Off: i, Got: jsonscan.KindAt(data, i), Wanted: "an object"}
	}
	end, err := jsonscan.EachMember(data, i, 0, func(key []byte, escaped bool, v int) (int, error) {
		const d = 1
		switch string(key) {
		case "format_version":
			s, end, null, err := readString(data, v, "format_version")
			if err == nil && !null {
				w.FormatVersion = &s
			}
			return end, err
		case "terraform_version":
			return readStringInto(data, v, "terraform_version", &w.TerraformVersion)
		case "timestamp":
			return readStringInto(data, v, "timestamp", &w.Timestamp)
		case "errored":
			b, end, _, err := readBool(data, v, "errored")
			w.Errored = b
			return end, err
		case "complete":
			b, end, null, err := readBool(data, v, "complete")
			if !null {
				w.Complete = &b
			}
			return end, err
		case "applyable":
			b, end, null, err := readBool(data, v, "applyable")
			if !null {
				w.Applyable = &b
			}
			return end, err
		case "resource_changes":
			return readChanges(data, v, d, "resource_changes", in, &w.ResourceChanges)
		case "resource_drift":
			return readChanges(data, v, d, "resource_drift", in, &w.ResourceDrift)
		case "output_changes":
			if jsonscan.IsNull(data, v) {
				return v + 4, nil
			}
			if byteAt(data, v) != '{' {
				return v, notKind(data, v, "output_changes", "an object")
			}
			w.OutputChanges = map[string]wireChange{}
			return jsonscan.EachMember(data, v, d, func(name []byte, escaped bool, v int) (int, error) {
				var c wireChange
				var extras Change // an output's replace paths and import: dropped
				var generated bool
				end, err := readChange(data, v, d+1, "output_changes", in, &c, &extras, &generated)
				w.OutputChanges[jsonscan.Unquote(name, escaped)] = c
				return end, err
			})
		case "deferred_changes":
			return readList(data, v, d, "deferred_changes", func(v int) (int, error) {
				var dc wireDeferred
				end, err := readDeferred(data, v, d+1, in, &dc)
				w.DeferredChanges = append(w.DeferredChanges, dc)
				return end, err
			})
		case "checks":
			raw, end, err := readRaw(data, v, d)
			if err == nil && raw != nil {
				// Small, and terraform-json's types are the reference.
				if jerr := json.Unmarshal(raw, &w.Checks); jerr != nil {
					return v, kindErr(data, v, "checks", "a list of check results")
				}
			}
			return end, err
		case "prior_state":
			if prior != nil && prior.v == v {
				raw, scan, notes, end, err := prior.take()
				w.PriorState, w.priorScan = raw, scan
				w.notes.Append(notes)
				return end, err
			}
			return readState(data, v, d, &w.PriorState, w.notes, &w.priorScan)
		case "planned_values":
			return readState(data, v, d, &w.PlannedValues, w.notes, &w.plannedScan)
		case "configuration":
			return readValueInto(data, v, d, &w.Configuration, w.notes)
		case "variables":
			return readValueInto(data, v, d, &w.Variables, w.notes)
		case "values":
			return readRawInto(data, v, d, &w.Values)
		case "action_invocations":
			return readValueInto(data, v, d, &w.ActionInvocations, w.notes)
		case "deferred_action_invocations":
			return readValueInto(data, v, d, &w.DeferredActionInvocations, w.notes)
		case "serial":
			w.Serial = true
			return jsonscan.Skip(data, v, d)
		case "lineage":
			w.Lineage = true
			return jsonscan.Skip(data, v, d)
		}
		var raw rawJSON
		end, err := readValueInto(data, v, d, &raw, w.notes) // an ARM what-if's changes
		if err == nil {
			if w.Extra == nil {
				w.Extra = map[string]json.RawMessage{}
			}
			w.Extra[jsonscan.Unquote(key, escaped)] = json.RawMessage(raw)
		}
		return end, err
	})
	if err != nil {
		return nil, err
	}
	if end = jsonscan.WS(data, end); end < len(data) {
		return nil, jsonscan.ErrAt(data, end, "after top-level value")
	}
	return w, nil
}

// readChanges appends the resource changes of a list (or null) to into,
// and adds the values each marks sensitive to in.marked while its bytes
// are fresh in the cache (collectSecrets did it in a second pass over the
// plan's bytes).
func readChanges(data []byte, v, d int, field string, in interner, into *wireList) (int, error) {
	into.data = data
	return readList(data, v, d, field, func(v int) (int, error) {
		rec, c := into.add()
		var r wireResource
		end, err := readResourceChange(data, v, d+1, field, in, &r, c)
		if err == nil && !rec.pack(data, v, &r, &into.odd) {
			err = &jsonscan.KindError{Off: v, Field: field, Got: "a resource change of 4 GiB or more", Wanted: "smaller ones"}
		}
		if err == nil && in.marked != nil {
			w := &r.Change
			in.marked.Collect(w.Before, w.BeforeSensitive)
			in.marked.Collect(w.After, w.AfterSensitive)
		}
		if err == nil && in.searched != nil && searchedOutsideValues(c) {
			*in.searched = append(*in.searched, c)
		}
		return end, err
	})
}

// A resource change is read into two records: its Change, which holds the
// strings as the plan has them (views of its bytes, not yet redacted; see
// newChange) and its replace paths and import as read, and a wireRecord,
// which holds the rest until newChange has made the Change (the values, the
// actions) in 56 bytes and no pointer (the collector skips them). The
// Changes are read into the slabs the plan keeps, and the wireRecords are
// let go chunk by chunk as the changes are made: a 20,000-change plan
// allocated 7 MB of records (of 360 bytes) and 8 MB of changes, now 1.1 MB
// and 8 MB.

// wireResource is the part of a resource change that its Change does not
// hold until newChange: its change's actions and values.
type wireResource struct {
	Change wireChange
	// at is the offset of the resource change's object in the plan (0
	// when not known), for an error's line and column.
	at int
	// generated is whether the change's generated_config is not empty.
	generated bool
}

// interner reads the strings a plan repeats on every change (types,
// modes, providers, module addresses, actions) as views of the plan's
// bytes (a map of shared copies cost a lookup per string and saved
// nothing once strings were views). It carries the read's secret notes
// to the values, and the set of values the changes mark sensitive
// (readChanges).
type interner struct {
	notes    *secret.Notes
	marked   *secret.Set
	searched *[]*Change // see wirePlan.searched
}

func (in interner) read(data []byte, v int, field string, into *string) (int, error) {
	return readStringView(data, v, field, into)
}

func readDeferred(data []byte, v, d int, in interner, w *wireDeferred) (int, error) {
	if byteAt(data, v) != '{' {
		return v, notKind(data, v, "deferred_changes", "a list of objects")
	}
	return jsonscan.EachMember(data, v, d, func(key []byte, _ bool, v int) (int, error) {
		switch string(key) {
		case "reason":
			return readStringInto(data, v, "reason", &w.Reason)
		case "resource_change":
			if jsonscan.IsNull(data, v) {
				return v + 4, nil
			}
			if w.Change == nil {
				w.Change = &Change{}
			}
			return readResourceChange(data, v, d+1, "resource_change", in, &w.rec, w.Change)
		}
		return jsonscan.Skip(data, v, d+1)
	})
}

// readResourceChange reads a resource change into rec and c (see
// wireRecord): c's strings as the plan has them.
func readResourceChange(data []byte, v, d int, field string, in interner, rec *wireResource, c *Change) (int, error) {
	if byteAt(data, v) != '{' {
		return v, notKind(data, v, field, "a list of objects")
	}
	return jsonscan.EachMember(data, v, d, func(key []byte, _ bool, v int) (int, error) {
		switch string(key) {
		case "address":
			return readStringView(data, v, "address", &c.Address)
		case "previous_address":
			return readStringView(data, v, "previous_address", &c.PreviousAddress)
		case "module_address":
			return in.read(data, v, "module_address", &c.ModuleAddress)
		case "mode":
			return in.read(data, v, "mode", (*string)(&c.Mode))
		case "type":
			return in.read(data, v, "type", &c.Type)
		case "name":
			return readStringView(data, v, "name", &c.Name)
		case "provider_name":
			return in.read(data, v, "provider_name", &c.Provider)
		case "deposed":
			return readStringView(data, v, "deposed", &c.Deposed)
		case "action_reason":
			return in.read(data, v, "action_reason", &c.ReasonCode)
		case "index":
			raw, end, err := readRaw(data, v, d+1)
			c.Index = jsonscan.View(raw)
			return end, err
		case "change":
			if jsonscan.IsNull(data, v) {
				return v + 4, nil
			}
			return readChange(data, v, d+1, "change", in, &rec.Change, c, &rec.generated)
		}
		return jsonscan.Skip(data, v, d+1)
	})
}

// readChange reads a change into w, and what a resource change's change
// has beyond an output's into c (its replace paths and its import's id, as
// the plan has them) and generated (whether its generated_config is not
// empty); an output change's are read and dropped.
func readChange(data []byte, v, d int, field string, in interner, w *wireChange, c *Change, generated *bool) (int, error) {
	if byteAt(data, v) != '{' {
		return v, notKind(data, v, field, "an object")
	}
	return jsonscan.EachMember(data, v, d, func(key []byte, _ bool, v int) (int, error) {
		switch string(key) {
		case "actions":
			var buf [4]tfjson.Action
			got := buf[:0]
			end, err := readList(data, v, d+1, "actions", func(v int) (int, error) {
				var s string
				end, err := in.read(data, v, "actions", &s)
				got = append(got, tfjson.Action(s))
				return end, err
			})
			switch {
			case len(got) == 0:
			case w.Actions == nil:
				w.Actions = sharedActions(got)
			default: // a repeated "actions" key: the lists add up
				w.Actions = append(slices.Clone(w.Actions), got...)
			}
			return end, err
		case "before":
			return readValueInto(data, v, d+1, &w.Before, in.notes)
		case "after":
			if end := sameValue(data, v, w.Before); end > 0 {
				// No notes: the before noted the same bytes at this depth,
				// which adds the same to the secret set (learn).
				w.After = data[v:end:end]
				return end, nil
			}
			return readValueInto(data, v, d+1, &w.After, in.notes)
		case "after_unknown":
			return readRawInto(data, v, d+1, &w.AfterUnknown)
		case "before_sensitive":
			return readRawInto(data, v, d+1, &w.BeforeSensitive)
		case "after_sensitive":
			return readRawInto(data, v, d+1, &w.AfterSensitive)
		case "generated_config":
			var s string
			end, err := readStringView(data, v, "generated_config", &s)
			*generated = s != ""
			return end, err
		case "importing":
			if jsonscan.IsNull(data, v) {
				return v + 4, nil
			}
			if byteAt(data, v) != '{' {
				return v, notKind(data, v, "importing", "an object")
			}
			c.Importing = &Import{}
			return jsonscan.EachMember(data, v, d+1, func(key []byte, _ bool, v int) (int, error) {
				if string(key) == "id" {
					return readStringView(data, v, "id", &c.Importing.ID)
				}
				return jsonscan.Skip(data, v, d+2)
			})
		case "replace_paths":
			return readList(data, v, d+1, "replace_paths", func(v int) (int, error) {
				raw, end, err := readRaw(data, v, d+2)
				c.ReplacePaths = append(c.ReplacePaths, jsonscan.View(raw))
				return end, err
			})
		}
		return jsonscan.Skip(data, v, d+1)
	})
}

// sameValue returns the offset past the value at data[v] when its bytes
// are those of prev, an object or array the read validated (a value is
// then its own end: no more bytes belong to it), or 0.
func sameValue(data []byte, v int, prev []byte) int {
	if len(prev) == 0 || prev[0] != '{' && prev[0] != '[' || len(data)-v < len(prev) || !bytes.Equal(data[v:v+len(prev)], prev) {
		return 0
	}
	return v + len(prev)
}

// readList reads an array (or null) of elements with f.
func readList(data []byte, v, d int, field string, f func(v int) (int, error)) (int, error) {
	if jsonscan.IsNull(data, v) {
		return v + 4, nil
	}
	if byteAt(data, v) != '[' {
		if _, err := jsonscan.Skip(data, v, d); err != nil {
			return v, err
		}
		return v, kindErr(data, v, field, "a list")
	}
	return jsonscan.EachElement(data, v, d, f)
}

// readRaw validates the value at v and returns it as a slice of data, or
// nil for null.
func readRaw(data []byte, v, d int) ([]byte, int, error) {
	end, err := jsonscan.Skip(data, v, d)
	if err != nil {
		return nil, end, err
	}
	if jsonscan.IsNull(data, v) {
		return nil, end, nil
	}
	return data[v:end:end], end, nil
}

func readRawInto(data []byte, v, d int, into *rawJSON) (int, error) {
	raw, end, err := readRaw(data, v, d)
	*into = raw
	return end, err
}

// readString reads a string (or null, which reads as "").
func readString(data []byte, v int, field string) (string, int, bool, error) {
	if jsonscan.IsNull(data, v) {
		return "", v + 4, true, nil
	}
	if v >= len(data) || data[v] != '"' {
		if _, err := jsonscan.Skip(data, v, 0); err != nil {
			return "", v, false, err
		}
		return "", v, false, kindErr(data, v, field, "a string")
	}
	end, slow, err := jsonscan.String(data, v)
	if err != nil {
		return "", end, false, err
	}
	return jsonscan.Unquote(data[v+1:end-1], slow), end, false, nil
}

// readStringView is readStringInto without a copy when the string has no
// escapes: the result is a view of data (see view).
func readStringView(data []byte, v int, field string, into *string) (int, error) {
	if v < len(data) && data[v] == '"' {
		end, slow, err := jsonscan.String(data, v)
		if err == nil && !slow {
			*into = jsonscan.View(data[v+1 : end-1])
			return end, nil
		}
	}
	return readStringInto(data, v, field, into)
}

func readStringInto(data []byte, v int, field string, into *string) (int, error) {
	s, end, _, err := readString(data, v, field)
	*into = s
	return end, err
}

// readBool reads true, false or null.
func readBool(data []byte, v int, field string) (bool, int, bool, error) {
	if jsonscan.IsNull(data, v) {
		return false, v + 4, true, nil
	}
	if v < len(data) && data[v] == 't' {
		end, err := jsonscan.Literal(data, v, "true")
		return true, end, false, err
	}
	if v < len(data) && data[v] == 'f' {
		end, err := jsonscan.Literal(data, v, "false")
		return false, end, false, err
	}
	if _, err := jsonscan.Skip(data, v, 0); err != nil {
		return false, v, false, err
	}
	return false, v, false, kindErr(data, v, field, "true or false")
}

func kindErr(data []byte, v int, field, wanted string) error {
	return &jsonscan.KindError{Off: v, Field: field, Got: jsonscan.KindAt(data, v), Wanted: wanted}
}

// byteAt is data[v], or 0 past the end (a truncated document).
func byteAt(data []byte, v int) byte {
	if v < len(data) {
		return data[v]
	}
	return 0
}

// notKind reports a value that is not of the kind its field needs: a
// syntax error in it (a truncated file) first, else a kind error.
func notKind(data []byte, v int, field, wanted string) error {
	if _, err := jsonscan.Skip(data, v, 0); err != nil {
		return err
	}
	return kindErr(data, v, field, wanted)
}
