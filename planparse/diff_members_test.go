package planparse

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse/plantest"
)

// sameDiff says how Diff (member by member, diff_members.go) differs from
// diffWhole (both sides decoded whole) on one change ("" when it does not).
func sameDiff(c *Change) string {
	fast, whole := c.Diff(), c.diffWhole()
	if len(fast) != len(whole) {
		return "entries " + pathsOf(fast) + ", want " + pathsOf(whole)
	}
	for i := range fast {
		f, w := fast[i], whole[i]
		if f.Path != w.Path || f.Unknown != w.Unknown || f.Sensitive != w.Sensitive || f.ForcesReplacement != w.ForcesReplacement ||
			!reflect.DeepEqual(f.Before.v, w.Before.v) || !reflect.DeepEqual(f.After.v, w.After.v) {
			return "entry " + w.Path + ": " + f.Before.Display() + " -> " + f.After.Display() + ", want " + w.Before.Display() + " -> " + w.After.Display()
		}
	}
	return ""
}

func pathsOf(ds []AttrDiff) string {
	var ps []string
	for _, d := range ds {
		ps = append(ps, d.Path)
	}
	return "[" + strings.Join(ps, " ") + "]"
}

// The diff read member by member is the whole decode's diff, entry for
// entry, on every plan of the corpus and the generated large plans, and the
// member-by-member walk is what most updates take.
func TestDiffByMembersIsTheWholeDiff(t *testing.T) {
	t.Parallel()
	plans := map[string][]byte{"large": plantest.Large(600), "clusters": plantest.Clusters(600)}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*.json"))
	local, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, f := range append(files, local...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		plans[f] = data
	}
	byMembers, changes := 0, 0
	for name, data := range plans {
		p, err := Parse(name, data)
		if err != nil {
			continue // the corpus's broken plans
		}
		for _, c := range p.Changes {
			changes++
			if diffMembers(c.before, c.after, new([]AttrDiff)) {
				byMembers++
			}
			if why := sameDiff(c); why != "" {
				t.Errorf("%s %s: %s", name, c.Address, why)
			}
		}
	}
	if byMembers < changes/4 {
		t.Errorf("%d of %d changes diffed member by member; the updates and replacements should be", byMembers, changes)
	}
}

// Each case is one thing sanitize decides per object: a member whose bytes
// are the same on both sides is left out only when its marks are too.
func TestDiffByMembersKeepsWhatTheMarksChange(t *testing.T) {
	t.Parallel()
	// (config is too short for the plan's secret set, which would hide it
	// on both sides.)
	const v = `{"instance_type":"g5.xlarge","config":"ab","tags":{"Name":"a"}}`
	tests := map[string]struct {
		before, after, bSens, aSens, aUnknown string
		members                               bool
		want                                  string // the diff's paths
	}{
		"one attribute differs": {v, `{"instance_type":"g5.2xlarge","config":"ab","tags":{"Name":"a"}}`, `{}`, `{}`, `{}`, true,
			"[instance_type]"},
		"the same bytes turn sensitive": {v, v, `{}`, `{"config":true}`, `{}`, true, "[config]"},
		"the same bytes turn unknown":   {v, v, `{}`, `{}`, `{"tags":{"Name":true}}`, true, "[tags.Name]"},
		"an unknown the after side lacks": {v, `{"instance_type":"g5.xlarge","config":"ab","tags":{"Name":"a"}}`, `{}`, `{}`, `{"id":true}`, true,
			"[id]"},
		"no marks written two ways": {v, v, `{}`, `false`, `{}`, true, "[]"},
		"a name and value pair": {`{"name":"DB_PASSWORD","value":"x"}`, `{"name":"DB_PASSWORD","value":"y"}`, `{}`, `{}`, `{}`, false,
			"[value]"},
		"a repeated key": {`{"a":"1","a":"2"}`, `{"a":"2"}`, `{}`, `{}`, `{}`, false, "[a]"},
		"an escaped key": {`{"\u0061":"1"}`, `{"a":"2"}`, `{}`, `{}`, `{}`, false, "[a]"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := samePlan(t, tc.before, tc.after, tc.bSens, tc.aSens, tc.aUnknown)
			if got := diffMembers(c.before, c.after, new([]AttrDiff)); got != tc.members {
				t.Errorf("read member by member: %v, want %v", got, tc.members)
			}
			if got := pathsOf(c.Diff()); got != tc.want {
				t.Errorf("Diff = %s, want %s", got, tc.want)
			}
			if why := sameDiff(c); why != "" {
				t.Error(why)
			}
		})
	}
}
