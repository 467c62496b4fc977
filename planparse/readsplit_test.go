package planparse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/par"
	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/secret"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// TestSplitReadIsOnePass reads plans in one pass and with prior_state on
// a second goroutine: the plans, their secret notes and sets, and the
// errors (line and column included) of broken plans are the same. Run it
// with -race: every read here takes the concurrent path where the walk
// back finds prior_state.
func TestSplitReadIsOnePass(t *testing.T) {
	t.Parallel()
	plans := map[string][]byte{}
	for name, data := range diffFiles(t) {
		if norm, err := normalize(name, data); err == nil {
			plans[name] = norm
		}
	}
	gen := plantest.Clusters(300)
	var indented bytes.Buffer
	if err := json.Indent(&indented, gen, "", "\t"); err != nil {
		t.Fatal(err)
	}
	plans["indented"] = indented.Bytes()
	body := gen[1 : len(gen)-1]
	small := `"prior_state":{"values":{"root_module":{"resources":[{"address":"a.b","type":"a","values":{"password":"first-prior-1"}}]}}}`
	plans["prior_state twice"] = []byte("{" + small + "," + string(body) + "}")
	plans["prior_state twice, the small last"] = []byte("{" + string(body) + "," + small + "}")
	plans["prior_state last"] = []byte(`{"format_version":"1.2","resource_changes":[],` + small + "}")
	plans["prior_state null"] = []byte(`{"format_version":"1.2","prior_state":null,"errored":false}`)
	plans["prior_state a number"] = []byte(`{"format_version":"1.2","prior_state":-1.5e3 ,"errored":false}`)
	plans["prior_state an escaped key"] = []byte(`{"format_version":"1.2","prior\u005fstate":{"values":{}},"x":"a \"}\" \\"}`)
	plans["strings with quotes and braces after it"] = []byte(`{"format_version":"1.2",` + small + `,"configuration":{"k":"}\\\"{[","l":["\\\\",{"m":"\"prior_state\":{"}]}}`)
	plans["an empty object"] = []byte(`{}`)
	plans["no object"] = []byte(`[1,2]`)
	step := max(1, len(gen)/97)
	for off := 1; off < len(gen); off += step {
		plans[fmt.Sprintf("cut at %d", off)] = gen[:off]
		for _, b := range []byte{'#', '"', '}', ',', '\\'} {
			bad := bytes.Clone(gen)
			bad[off] = b
			plans[fmt.Sprintf("%q at %d", b, off)] = bad
		}
	}
	split := 0
	for name, data := range plans {
		one, err1 := readPlanSplit(data, oneGoroutine)
		two, err2 := readPlanSplit(data, twoGoroutines)
		if err1 != nil || err2 != nil {
			if err1 == nil || err2 == nil || syntaxError(name, data, err1).Error() != syntaxError(name, data, err2).Error() {
				t.Errorf("%s: one pass %v, split %v", name, err1, err2)
			}
			continue
		}
		if _, ok := jsonscan.LastMember(data, "prior_state"); ok && two.PriorState != nil {
			split++
		}
		for _, n := range []*secret.Notes{one.notes, two.notes} { // caches
			forgetCaches(n)
		}
		if !reflect.DeepEqual(one, two) {
			t.Errorf("%s: the split read differs from the one pass", name)
		}
	}
	if split < 20 {
		t.Errorf("only %d plans read prior_state on the second goroutine", split)
	}
}

// TestLastMember finds a top-level member walking back from the end, past
// strings that hold quotes, backslashes and brackets.
func TestLastMember(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		doc  string
		want string // the value found, "" for none
	}{
		"last":                {`{"a":1,"k":{"x":[1,"]"]}}`, `{"x":[1,"]"]}`},
		"first of two":        {`{"k":"v", "b":true}`, `"v"`},
		"the last of repeats": {`{"k":1,"k":2,"z":null}`, `2`},
		"escaped quotes":      {`{"k":"a\"b","z":"\\\"}\\"}`, `"a\"b"`},
		"space":               {" {\n\t\"k\" :\n [ ] ,\"z\":{} }\n", `[ ]`},
		"absent":              {`{"a":{"k":1}}`, ``},
		"an escaped name":     {`{"\u006b":1}`, ``},
		"empty":               {`{}`, ``},
		"not an object":       {`["k"]`, ``},
	} {
		v, ok := jsonscan.LastMember([]byte(c.doc), "k")
		got := ""
		if ok {
			end, err := jsonscan.Skip([]byte(c.doc), v, 0)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got = c.doc[v:end]
		}
		if got != c.want {
			t.Errorf("%s: found %q, want %q", name, got, c.want)
		}
		if strings.Contains(name, "absent") && ok {
			t.Errorf("%s: found a nested member", name)
		}
	}
}

// TestSplitParseIsOnePass parses plans on one goroutine and on two (the
// changes made by both): the changes (every field, values and diffs), the
// secret set and the errors are the same.
func TestSplitParseIsOnePass(t *testing.T) {
	t.Parallel()
	plans := map[string][]byte{
		"clusters": plantest.Clusters(20000), // chunks of records for both goroutines
		"fleet":    plantest.Large(3000),
	}
	bad := plantest.Clusters(3000)
	rc := bytes.Index(bad, []byte(`"resource_changes":`))
	for _, i := range []int{2700, 2000, 2500} { // three bad changes: the first is reported
		at := rc + bytes.Index(bad[rc:], []byte(fmt.Sprintf(`"name":"r%d",`, i)))
		act := at + bytes.Index(bad[at:], []byte(`"actions":["`)) + len(`"actions":["`)
		copy(bad[act:], "noop!")
	}
	plans["bad actions"] = bad
	for name, data := range plans {
		one, err1 := parse(name, data, oneGoroutine)
		two, err2 := parse(name, data, twoGoroutines)
		if err1 != nil || err2 != nil {
			if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
				t.Errorf("%s: one goroutine %v, two %v", name, err1, err2)
			}
			if name == "bad actions" && !strings.Contains(fmt.Sprint(err2), "resource_changes[2000] (module.team0.azurerm_kubernetes_cluster_node_pool.r2000)") {
				t.Errorf("%s: %v, want the error of r2000", name, err2)
			}
			continue
		}
		if len(one.Changes) != len(two.Changes) {
			t.Fatalf("%s: %d changes, %d", name, len(one.Changes), len(two.Changes))
		}
		for i, a := range one.Changes {
			b := two.Changes[i]
			if fmt.Sprint(changeFields(a)) != fmt.Sprint(changeFields(b)) ||
				!reflect.DeepEqual(a.Before().Interface(), b.Before().Interface()) ||
				!reflect.DeepEqual(a.After().Interface(), b.After().Interface()) ||
				!reflect.DeepEqual(a.Diff(), b.Diff()) {
				t.Fatalf("%s: change %d differs: %v, %v", name, i, changeFields(a), changeFields(b))
			}
		}
		if !reflect.DeepEqual(secretsOf(one.lazy.secrets), secretsOf(two.lazy.secrets)) {
			t.Errorf("%s: the secret sets differ", name)
		}
	}
}

func changeFields(c *Change) []any {
	return []any{c.Address, c.PreviousAddress, c.ModuleAddress, c.Mode, c.Type, c.Name, c.Provider, c.Deposed, c.Index,
		c.Action, c.ReplaceOrder, c.ReasonCode, c.Reason, c.ReplacePaths, c.Importing}
}

// A prior_state read that panicked on its goroutine panics where the main
// read takes it, as the read would on the calling goroutine; waiting for
// it alone (a read the main one never takes) raises nothing.
func TestPriorReadPanicIsRaisedWhereTaken(t *testing.T) {
	r := &stateRead{done: make(chan struct{}), panicked: "boom"}
	close(r.done)
	r.wait() // must not panic
	got := func() (p any) {
		defer func() { p = recover() }()
		r.take()
		return nil
	}()
	if got != "boom" {
		t.Errorf("take of a read that panicked gave panic %v, want %q", got, "boom")
	}
}

// oneGoroutine keeps all of Parse's work on the calling goroutine;
// twoGoroutines splits all of it, whatever the plan's size and the
// processors.
var (
	oneGoroutine  = par.Policy{Min: math.MaxInt}
	twoGoroutines = par.Policy{Min: 1}
)
