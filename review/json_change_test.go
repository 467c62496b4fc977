package review_test

import (
	"bytes"
	"math"
	"reflect"
	"testing"

	"github.com/planwarden/planwarden/review"
)

// TestChangeRowsMatchReflection holds the change rows, which WriteJSON
// writes without reflection, to encoding/json's output for every field of
// Change set, unset and empty; a field added to Change fails here until
// the row writer knows it.
func TestChangeRowsMatchReflection(t *testing.T) {
	t.Parallel()
	if !review.ChangeRowsFastForTest() {
		t.Fatal("Change's fields no longer match the row writer's list (review/json.go changeKeys): update changeKeys and writeChange")
	}
	hostile := "a<b>&c\"d\\e\nf\tg\u2028h\u2029é\x7f\x01\xffz"
	full := &review.Change{}
	v := reflect.ValueOf(full).Elem()
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
			if f.Type().Elem().Kind() == reflect.Float64 {
				x := 1234.5678 + float64(i)
				f.Set(reflect.ValueOf(&x))
			}
		}
	}
	tiny, huge := 1e-9, 3e21
	tests := map[string][]*review.Change{
		"every field set":      {full},
		"every field zero":     {{}},
		"empty lists":          {{ReplacePaths: []string{}, TriggersActions: []string{}}},
		"exponent figures":     {{HourlyBefore: &tiny, HourlyAfter: &huge}},
		"several rows, nested": {full, {Address: "b"}},
	}
	for name, changes := range tests {
		t.Run(name, func(t *testing.T) {
			writeMatchesMarshalIndent(t, &review.Report{Projects: []*review.Project{{Name: "p", Changes: changes}}})
		})
	}
	t.Run("a figure encoding/json refuses", func(t *testing.T) {
		nan := math.NaN()
		r := &review.Report{Projects: []*review.Project{{Name: "p", Changes: []*review.Change{{HourlyAfter: &nan}}}}}
		if err := r.WriteJSON(&bytes.Buffer{}); err == nil {
			t.Error("WriteJSON wrote a NaN figure; want encoding/json's error")
		}
	})
}
