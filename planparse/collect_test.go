package planparse

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// TestCollectMatchesDecode: the secret set read in place from a value and
// its sensitivity marks (collect) holds exactly what a decode of both and
// a walk of the two trees gathers, on every change of every plan (corpus,
// fixtures, generated mixes) and on the shapes a plan rarely has: repeated
// keys, escaped keys, lists longer than their marks, numbers written in
// several ways, a number beyond float64.
func TestCollectMatchesDecode(t *testing.T) {
	t.Parallel()
	type pair struct{ raw, sens string }
	cases := map[string]pair{
		"marked leaves":         {`{"password":"hunter2hunter2","user":"admin","n":12345}`, `{"password":true,"n":true}`},
		"whole value":           {`{"a":{"b":["x-secret-1",{"c":"x-secret-2"}]},"d":1e5}`, `true`},
		"first repeated key":    {`{"k":"first-value","k":"second-value"}`, `{"k":true}`},
		"repeated mark key":     {`{"k":"the-value-1"}`, `{"k":false,"k":true}`},
		"repeated key inside":   {`{"o":{"k":"first-value","k":"second-value"}}`, `{"o":true}`},
		"escaped key":           {`{"p\u0061ss":"escaped-secret","pass":"plain-secret"}`, `{"pass":true}`},
		"escaped mark key":      {`{"pass":"plain-secret"}`, `{"p\u0061ss":true}`},
		"list longer than mark": {`["aaaa-1","bbbb-2","cccc-3"]`, `[false,true]`},
		"mark longer than list": {`["aaaa-1"]`, `[true,true,true]`},
		"numbers":               {`[1.5e3,-0.0,12,123456789012345678,0.1]`, `true`},
		"number beyond float":   {`{"s":"kept-out-1","big":1e400}`, `{"s":true}`},
		"kind mismatch":         {`{"a":["x-secret-1"]}`, `{"a":{"0":true}}`},
		"short strings":         {`["abc","abcd",true,null]`, `true`},
		"escaped string":        {`{"s":"tab\there\u00e9"}`, `{"s":true}`},
		"unicode key dup":       {`{"\u00e9":"one-value","é":"two-value"}`, `{"é":true}`},
	}
	for name, data := range diffFiles(t) {
		data, err := normalize(name, data)
		if err != nil {
			continue
		}
		w, err := readPlan(data)
		if err != nil {
			continue
		}
		for _, list := range []*wireList{&w.ResourceChanges, &w.ResourceDrift} {
			i := 0
			for rec, c := range list.All() {
				at := fmt.Sprintf("%s %d (%s)", name, i, c.Address)
				cases[at+" before"] = pair{string(rec.Change.Before), string(rec.Change.BeforeSensitive)}
				cases[at+" after"] = pair{string(rec.Change.After), string(rec.Change.AfterSensitive)}
				i++
			}
		}
	}
	found := 0
	for name, c := range cases {
		got, want := secret.NewSet(), secret.NewSet()
		got.Collect([]byte(c.raw), []byte(c.sens))
		decodeCollect(want, []byte(c.raw), []byte(c.sens))
		if !maps.Equal(secretsOf(got), secretsOf(want)) {
			t.Errorf("%s: collect %v, decode %v", name, slices.Sorted(maps.Keys(secretsOf(got))), slices.Sorted(maps.Keys(secretsOf(want))))
		}
		found += len(secretsOf(got))
	}
	if found < 20 {
		t.Errorf("only %d secrets collected in all: the cases mark too little", found)
	}
}

// decodeCollect is the reference: decode both trees and walk them.
func decodeCollect(s *secret.Set, raw, sens []byte) {
	if len(raw) == 0 {
		return
	}
	v, err := jsonscan.Decode(raw)
	if err != nil {
		return
	}
	m, err := jsonscan.Decode(sens)
	if err != nil {
		return
	}
	var walk func(v, mark any)
	var addAll func(v any)
	walk = func(v, mark any) {
		if b, ok := mark.(bool); ok && b {
			addAll(v)
			return
		}
		switch t := v.(type) {
		case map[string]any:
			mm, _ := mark.(map[string]any)
			for k, e := range t {
				walk(e, mm[k])
			}
		case []any:
			ml, _ := mark.([]any)
			for i, e := range t {
				if i < len(ml) {
					walk(e, ml[i])
				}
			}
		}
	}
	addAll = func(v any) {
		switch t := v.(type) {
		case string:
			if len(t) >= secret.MinLen {
				s.Add(t)
			}
		case float64:
			if str := formatFloat(t); len(str) >= secret.MinLen {
				s.Add(str)
			}
		case map[string]any:
			for _, e := range t {
				addAll(e)
			}
		case []any:
			for _, e := range t {
				addAll(e)
			}
		}
	}
	walk(v, m)
}
