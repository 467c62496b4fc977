package planparse

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// cacheObjects are objects whose members the cache must find as lookup
// does: repeated keys (the first counts), escaped keys, white space,
// nesting, an empty object and one larger than a slot holds.
func cacheObjects() []string {
	var big strings.Builder
	big.WriteString("{")
	for i := range cacheMembers + 40 {
		if i > 0 {
			big.WriteString(",")
		}
		fmt.Fprintf(&big, `"k%d":{"v":[%d,"}]"]}`, i%(cacheMembers+20), i) // the last 20 keys repeat
	}
	big.WriteString("}")
	return []string{
		`{"a":1,"b":{"c":[1,{"d":"}"}]},"a":2,"e\u0066":"escaped","ef":"plain","":"empty key"}`,
		"{ \"x\" : \"y\" ,\n\t\"z\" : [ ] , \"w\":null }",
		`{}`,
		`{"only":true}`,
		big.String(),
	}
}

func TestMemberCacheReadsAsLookup(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, obj := range cacheObjects() {
		raw := []byte(obj)
		keys := []string{"missing", "a", "b", "ef", "", "x", "z", "w", "only", "k0", "k5", "k255", "k256", "k270", "k275", "k299"}
		keys = append(keys, eachKeyOf(raw)...)
		for round := range 20 {
			c := newMemberCache()
			order := append([]string(nil), keys...)
			if round > 0 {
				rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			}
			for pass := range 2 { // the second pass reads what the first remembered
				for _, k := range order {
					want, wantOK := jsonscan.Lookup(raw, k)
					got, gotOK := c.lookup(raw, k)
					if gotOK != wantOK || string(got) != string(want) {
						t.Fatalf("object %.40q, pass %d, key %q: cache gives %q %v, lookup %q %v", obj, pass, k, got, gotOK, want, wantOK)
					}
				}
			}
		}
	}
}

// eachKeyOf lists an object's keys, decoded.
func eachKeyOf(raw []byte) []string {
	var keys []string
	_, _ = jsonscan.EachMember(raw, 0, 0, func(k []byte, escaped bool, v int) (int, error) {
		keys = append(keys, jsonscan.Unquote(k, escaped))
		return jsonscan.SkipValid(raw, v)
	})
	return keys
}

// TestMemberCacheResumesWalk: a read walks an object only as far as the
// key it wants and remembers what it passed; a read of a key passed
// already walks nothing more, and a later one resumes where the walk
// stopped.
func TestMemberCacheResumesWalk(t *testing.T) {
	t.Parallel()
	raw := []byte(`{"a":1,"b":{"x":[1,2]},"c":"3","d":4}`)
	c := newMemberCache()
	slot := func() *cacheSlot {
		for i := range c.slots {
			if jsonscan.SameSlice(c.slots[i].obj, raw) {
				return &c.slots[i]
			}
		}
		t.Fatal("the object is in no slot")
		return nil
	}
	if v, _ := c.lookup(raw, "b"); string(v) != `{"x":[1,2]}` {
		t.Fatalf("b = %s", v)
	}
	s := slot()
	if len(s.pos) != 2 || s.done {
		t.Fatalf("after reading b: %d members remembered (want a and b), done %v", len(s.pos), s.done)
	}
	next := s.next
	if v, _ := c.lookup(raw, "a"); string(v) != "1" || s.next != next || len(s.pos) != 2 {
		t.Fatalf("reading a again walked on: a = %s, next %d -> %d, %d members", v, next, s.next, len(s.pos))
	}
	if v, _ := c.lookup(raw, "d"); string(v) != "4" || len(s.pos) != 4 {
		t.Fatalf("d = %s with %d members remembered", v, len(s.pos))
	}
	if _, ok := c.lookup(raw, "e"); ok || !s.done {
		t.Fatalf("a missing key: found %v, walk done %v", ok, s.done)
	}
	other := []byte(`{"a":"other object"}`)
	if v, _ := c.lookup(other, "a"); string(v) != `"other object"` {
		t.Fatalf("another object's a = %s", v)
	}
}

// TestMemberCacheConcurrentReaders: goroutines reading the same plan's
// values at once (the app reads one plan from several) read what one
// reader alone does (go test -race checks the cache's locking).
func TestMemberCacheConcurrentReaders(t *testing.T) {
	t.Parallel()
	p, err := Parse("clusters.json", plantest.Clusters(300))
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"name", "vm_size", "node_count", "instance_type", "kubernetes_cluster_id", "zones", "tags", "id", "missing"}
	read := func(shift int) string {
		var b strings.Builder
		n := len(p.Changes)
		for j := range n {
			c := p.Changes[(j+shift)%n]
			for _, v := range []Value{c.Before(), c.After()} {
				for i := range keys {
					k := keys[(i+shift)%len(keys)]
					fmt.Fprintf(&b, "%d %s %s=%s\n", (j+shift)%n, c.Address, k, v.Get(k).Display())
				}
			}
		}
		return b.String()
	}
	lines := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	want := lines(read(0))
	var wg sync.WaitGroup
	got := make([]string, 4)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[g] = read(g * 7)
		}()
	}
	wg.Wait()
	for g, s := range got {
		if m := lines(s); len(m) != len(want) {
			t.Fatalf("reader %d read %d distinct lines, one reader %d", g, len(m), len(want))
		}
		for l := range lines(s) {
			if !want[l] {
				t.Fatalf("reader %d read %q, which one reader alone did not", g, l)
			}
		}
	}
}

// TestSecretStepsRemembered: whether a key read by is a secret key of the
// plan is remembered per plan (in a bounded memo); a secret key reads as
// absent (sanitize shows it renamed) whether remembered or not.
func TestSecretStepsRemembered(t *testing.T) {
	t.Parallel()
	secret := "Tr0ub4dor-and-3xyz"
	p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"a.b","type":"a","name":"b","change":{"actions":["update"],
	  "before":{"marked":"`+secret+`"},"after":{"keys":{"`+secret+`":"user","plain":"x"}},"before_sensitive":{"marked":true},"after_sensitive":{}}}]}`)
	v := p.Changes[0].After().Get("keys")
	c := p.Changes[0].la.z.members
	for round := range 2 {
		if got := v.Get(secret); !got.IsNull() {
			t.Fatalf("round %d: the secret key reads by name: %s", round, got.Display())
		}
		if got := v.Get("plain").Display(); got != "x" {
			t.Fatalf("round %d: plain = %q", round, got)
		}
		if s, ok := c.steps.Get(secret); !ok || !s {
			t.Errorf("round %d: the secret key is not remembered as secret: %v %v", round, s, ok)
		}
		// Many other keys read by push remembered answers out; the
		// answers stay the same.
		for i := range 2 * reflect.ValueOf(c.steps).Elem().FieldByName("slots").Len() {
			v.Get(fmt.Sprintf("key-%d", i))
		}
	}
	z := &sanitizer{secrets: p.lazy.secrets}
	if !c.secretStep(z, secret) || c.secretStep(z, "plain") {
		t.Errorf("after many keys, secretStep does not answer as secretKey")
	}
}

// A long string is remembered as shown only when it is: a string the
// plan knows as a secret reads hidden however often it is read, and one
// that is not reads as it is.
func TestCleanStringsAreRememberedWhenShown(t *testing.T) {
	t.Parallel()
	const s = "Standard_NC24ads_A100_v4"
	plan := `{"format_version":"1.2","resource_changes":[
	{"address":"x.a","mode":"managed","type":"x","name":"a","change":{"actions":["create"],"before":null,
	 "after":{"name":"` + s + `","notes":"correct-horse-battery-staple"}}},
	{"address":"x.b","mode":"managed","type":"x","name":"b","change":{"actions":["create"],"before":null,
	 "after":{"token":"correct-horse-battery-staple"},"after_sensitive":{"token":true}}}]}`
	p, err := Parse("clean.json", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	v := p.Changes[0].After()
	for round := range 5 { // a string is remembered on its third read
		if got := v.Get("name").Display(); got != s {
			t.Errorf("round %d: name reads %q, want it shown", round, got)
		}
		if got := v.Get("notes").Display(); got != SensitiveText {
			t.Errorf("round %d: notes (a secret of the plan) reads %q, want %q", round, got, SensitiveText)
		}
	}
}
