package planparse

import (
	"slices"
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// TestValueNumbers: Float and Int read numbers and numbers written as
// strings (providers and older plans quote some); a string that is not a
// number, and a fraction for Int, are not numbers.
func TestValueNumbers(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"aws_eks_node_group.gpu","mode":"managed","type":"aws_eks_node_group","name":"gpu",
"change":{"actions":["create"],"before":null,"after":{"n":4,"quoted":"8","half":2.5,"quoted_half":"2.5","word":"four","big":1e15,"flag":true},"after_unknown":{}}}]}`)
	after := p.Changes[0].After()
	type num struct {
		f   float64
		fok bool
		i   int64
		iok bool
	}
	for key, want := range map[string]num{
		"n":           {4, true, 4, true},
		"quoted":      {8, true, 8, true},
		"half":        {2.5, true, 0, false},
		"quoted_half": {2.5, true, 0, false},
		"word":        {0, false, 0, false},
		"big":         {1e15, true, 1e15, true},
		"flag":        {0, false, 0, false},
	} {
		v := after.Get(key)
		f, fok := v.Float()
		i, iok := v.Int()
		if f != want.f || fok != want.fok {
			t.Errorf("%s: Float() = %v, %v, want %v, %v", key, f, fok, want.f, want.fok)
		}
		if i != want.i || iok != want.iok {
			t.Errorf("%s: Int() = %v, %v, want %v, %v", key, i, iok, want.i, want.iok)
		}
	}
}

// TestValueCounts: a count (a whole number of at most three digits, read
// without a decode) reads as the number it is, by Get and by Fields, and
// one under a secret name reads as sensitive, as any number there does;
// numbers of other forms read as before.
func TestValueCounts(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"aws_eks_node_group.gpu","mode":"managed","type":"aws_eks_node_group","name":"gpu",
"change":{"actions":["create"],"before":null,"after":{"zero":0,"n":7,"max":255,"over":256,"big":999,"neg":-3,"pin":123,"db_password":42,"frac":1.5,"exp":1e2},"after_unknown":{}}}]}`)
	after := p.Changes[0].After()
	keys := []string{"zero", "n", "max", "over", "big", "neg", "pin", "db_password", "frac", "exp"}
	want := map[string]string{"zero": "0", "n": "7", "max": "255", "over": "256", "big": "999", "neg": "-3",
		"pin": "123", "db_password": SensitiveText, "frac": "1.5", "exp": "100"}
	fields := make([]Value, len(keys))
	after.Fields(keys, fields)
	for i, k := range keys {
		if got := after.Get(k).Display(); got != want[k] {
			t.Errorf("Get(%q) = %q, want %q", k, got, want[k])
		}
		if got := fields[i].Display(); got != want[k] {
			t.Errorf("Fields: %q = %q, want %q", k, got, want[k])
		}
	}
	if n, ok := after.Get("max").Int(); !ok || n != 255 {
		t.Errorf("Int of max = %d, %v, want 255, true", n, ok)
	}
	if !after.Get("db_password").IsSensitive() {
		t.Error("a count under a secret name is not sensitive")
	}
}

// TestValueLookup: Lookup finds an entry as Keys lists it: a present tag,
// one whose value is null, an attribute known only after apply; not an
// absent one, nor a secret key (shown renamed), which is found by the
// text it is shown as instead.
func TestValueLookup(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "plan.json", `{"format_version":"1.2","resource_changes":[{"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a",
"change":{"actions":["create"],"before":null,"after":{"password":"s3cr3t-tag-key-value","tags":{"Name":"web","Owner":null,"s3cr3t-tag-key-value":"x"}},"after_unknown":{"tags":{"Later":true}},"after_sensitive":{"password":true}}}]}`)
	tags := p.Changes[0].After().Get("tags")
	keys := tags.Keys()
	if len(keys) != 4 || !secret.IsRedacted(keys[0]) {
		t.Fatalf("Keys = %q, want the secret key renamed first", keys)
	}
	for _, key := range []string{"Name", "Owner", "Later", "Missing", "s3cr3t-tag-key-value", keys[0]} {
		x, has := tags.Lookup(key)
		want := slices.Contains(keys, key)
		if has != want {
			t.Errorf("Lookup(%q) has = %v, want %v (Keys %q)", key, has, want, keys)
		}
		if got, wantDisplay := x.Display(), tags.Get(key).Display(); got != wantDisplay {
			t.Errorf("Lookup(%q) = %q, want Get's %q", key, got, wantDisplay)
		}
	}
	if _, has := tags.Lookup("Owner"); !has {
		t.Error("a tag whose value is null is not found")
	}
	if _, has := tags.Lookup("Missing"); has {
		t.Error("an absent tag is found")
	}
	if _, has := tags.Lookup("s3cr3t-tag-key-value"); has {
		t.Error("a secret key is found by its name")
	}
}
