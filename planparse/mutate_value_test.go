package planparse

import "testing"

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
