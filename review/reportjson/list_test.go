package reportjson

import (
	"bytes"
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/par"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
	"github.com/planwarden/planwarden/review"
)

// pieces records each write Write makes.
type pieces struct{ writes []string }

func (p *pieces) Write(b []byte) (int, error) {
	p.writes = append(p.writes, string(b))
	return len(b), nil
}

// writeWith is Write with lists of at least list elements encoded on
// two goroutines, chunk elements at a time: the writes it made and its
// error.
func writeWith(r *review.Report, list, chunk int) ([]string, string) {
	var p pieces
	err := write(&p, r, par.Policy{Min: list, Grain: chunk})
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	return p.writes, msg
}

// TestWriteConcurrently encodes reports with every list on two
// goroutines (the thresholds lowered so that small reports take that
// path) and checks that the writer gets the serial writes: the same bytes
// cut at the same places, and, when a row cannot be encoded (an infinite
// figure), the same bytes before the same error. Run it with -race.
func TestWriteConcurrently(t *testing.T) {
	fleet, clusters := bothMixes(t, 3000)
	inf := math.Inf(1)
	tests := map[string]struct {
		inputs  []review.Input
		badRows []int // rows given an infinite hourly figure (negative: of the last project); with chunks of 256, 1100 is in this goroutine's fifth chunk, 1400 in the other's third
		wantErr bool
	}{
		"two large projects":                     {inputs: []review.Input{{Name: "fleet", Plan: fleet}, {Name: "clusters", Environment: "prod", Plan: clusters}}},
		"a bad row in a chunk of this goroutine": {inputs: []review.Input{{Name: "fleet", Plan: fleet}}, badRows: []int{1100}, wantErr: true},
		"a bad row in a chunk of the other one":  {inputs: []review.Input{{Name: "fleet", Plan: fleet}}, badRows: []int{1400}, wantErr: true},
		"a bad row in the second project":        {inputs: []review.Input{{Name: "fleet", Plan: fleet}, {Name: "clusters", Plan: clusters}}, badRows: []int{-2500}, wantErr: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			r := review.Build(tt.inputs, review.Options{})
			for _, row := range tt.badRows {
				rows := r.Projects[0].Changes
				if row < 0 {
					rows, row = r.Projects[len(r.Projects)-1].Changes, -row
				}
				for rows[row].Resource == nil {
					row++
				}
				rows[row].Resource.Cost.HourlyBefore = &inf
			}
			want, wantErr := writeWith(r, 1<<30, 256)
			if (wantErr != "") != tt.wantErr {
				t.Fatalf("serial error %q, want an error: %v", wantErr, tt.wantErr)
			}
			if len(want) < 4 {
				t.Fatalf("%d writes (%s): the report is too small to test the concurrent path", len(want), wantErr)
			}
			for _, m := range []struct{ list, chunk int }{{1, 256}, {1, 1}, {1000, 7}} {
				got, gotErr := writeWith(r, m.list, m.chunk)
				if gotErr != wantErr {
					t.Errorf("lists of %d+ in chunks of %d: error %q, want %q", m.list, m.chunk, gotErr, wantErr)
				}
				if !cmp.Equal(got, want) {
					t.Errorf("lists of %d+ in chunks of %d: %d writes (%d bytes), want the serial %d (%d bytes)",
						m.list, m.chunk, len(got), len(bytes.Join(toBytes(got), nil)), len(want), len(bytes.Join(toBytes(want), nil)))
				}
			}
		})
	}
}

func toBytes(l []string) [][]byte {
	out := make([][]byte, len(l))
	for i, s := range l {
		out[i] = []byte(s)
	}
	return out
}

// boom is a list element whose encoding panics at 7.
type boom int

func (b boom) MarshalJSON() ([]byte, error) {
	if b == 7 {
		panic("boom at 7")
	}
	return []byte(strconv.Itoa(int(b))), nil
}

// An element whose encoding panics on the second goroutine panics in
// Write's caller (the app's handler recovers panics), after the
// writes one goroutine would have made before it.
func TestWriteConcurrentlyPanics(t *testing.T) {
	list := make([]boom, 12)
	for i := range list {
		list[i] = boom(i)
	}
	encode := func(listMin, chunk int) (writes []string, panicked any) {
		var p pieces
		defer func() { writes, panicked = p.writes, recover() }()
		e := &encoder{w: &p, marshals: map[reflect.Type]marshaling{}, pol: par.Policy{Min: listMin, Grain: chunk}}
		_ = e.value(reflect.ValueOf(list), "")
		return nil, nil
	}
	wantWrites, wantPanic := encode(1<<30, 256)
	if wantPanic != "boom at 7" {
		t.Fatalf("serial: panicked with %v, want boom at 7", wantPanic)
	}
	for _, chunk := range []int{1, 2, 3} { // 7 is in a chunk of the second goroutine at 1 and 2, of the first at 3
		writes, p := encode(1, chunk)
		if p != wantPanic || !cmp.Equal(writes, wantWrites) {
			t.Errorf("chunks of %d: panicked with %v after %q, want %v after %q", chunk, p, writes, wantPanic, wantWrites)
		}
	}
}

// bothMixes parses the generated fleet and brownfield plans of n changes.
func bothMixes(t *testing.T, n int) (fleet, clusters *planparse.Plan) {
	t.Helper()
	fleet, err := planparse.Parse("fleet.json", plantest.Large(n))
	if err != nil {
		t.Fatal(err)
	}
	clusters, err = planparse.Parse("clusters.json", plantest.Clusters(n))
	if err != nil {
		t.Fatal(err)
	}
	return fleet, clusters
}
