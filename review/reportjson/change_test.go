package reportjson_test

import (
	"bytes"
	"math"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
	"github.com/planwarden/planwarden/review/reviewtest"
)

// TestChangeRowsMatchReflection holds the change rows, which Write
// writes without reflection, to encoding/json's output (through
// Change.MarshalJSON) for every field of ChangeRow set, unset and empty; a
// field added to ChangeRow fails here until the row writer knows it.
func TestChangeRowsMatchReflection(t *testing.T) {
	t.Parallel()
	if !reportjson.ChangeRowsFastForTest() {
		t.Fatal("ChangeRow's fields no longer match the row writer's list (change.go changeKeys): update changeKeys and writeChange")
	}
	hostile := "a<b>&c\"d\\e\nf\tg\u2028h\u2029é\x7f\x01\xffz"
	var row review.ChangeRow
	v := reflect.ValueOf(&row).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(v.Type().Field(i).Name + " " + hostile)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Slice:
			if f.Type().Elem().Kind() == reflect.String {
				f.Set(reflect.ValueOf([]string{"one " + hostile, "two"}))
			}
		case reflect.Pointer:
			switch f.Type().Elem().Kind() {
			case reflect.Float64:
				x := 1234.5678 + float64(i)
				f.Set(reflect.ValueOf(&x))
			case reflect.Int:
				n := 3 + i
				f.Set(reflect.ValueOf(&n))
			}
		}
	}
	row.PriceBasis, row.PriceRegion = "approximate", "us-east-1,"+hostile // what the resource can say
	full := reviewtest.Change(row)
	// Plan text reads back through the allow-list (planparse/shown.go).
	want := row
	want.SKUBefore, want.SKUAfter, want.PriceRegion = planparse.ShownName(row.SKUBefore), planparse.ShownName(row.SKUAfter), planparse.ShownName(row.PriceRegion)
	if diff := cmp.Diff(want, full.Row()); diff != "" {
		t.Fatalf("the row with every field set reads back otherwise (-set +read):\n%s", diff)
	}
	tiny, huge := 1e-9, 3e21
	tests := map[string][]*review.Change{
		"every field set":      {full},
		"every field zero":     {{}},
		"empty lists":          {reviewtest.Change(review.ChangeRow{ReplacePaths: []string{}, TriggersActions: []string{}})},
		"exponent figures":     {reviewtest.Change(review.ChangeRow{HourlyBefore: &tiny, HourlyAfter: &huge})},
		"several rows, nested": {full, reviewtest.Change(review.ChangeRow{Address: "b"})},
	}
	for name, changes := range tests {
		t.Run(name, func(t *testing.T) {
			writeMatchesMarshalIndent(t, &review.Report{Projects: []*review.Project{{Name: "p", Changes: changes}}})
		})
	}
	t.Run("a figure encoding/json refuses", func(t *testing.T) {
		nan := math.NaN()
		r := &review.Report{Projects: []*review.Project{{Name: "p", Changes: []*review.Change{reviewtest.Change(review.ChangeRow{HourlyAfter: &nan})}}}}
		if err := reportjson.Write(&bytes.Buffer{}, r); err == nil {
			t.Error("Write wrote a NaN figure; want encoding/json's error")
		}
	})
}
