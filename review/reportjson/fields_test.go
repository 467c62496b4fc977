package reportjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shout is a string type with its own text form.
type shout string

func (s shout) MarshalText() ([]byte, error) { return []byte(strings.ToUpper(string(s))), nil }

// TestEncoderStringFields holds the encoder's shortcuts for string fields
// to encoding/json: a string type with its own marshalling is written as
// it says, and a long string found safe once does not make another string
// at the same address, or of the same length, pass unescaped.
func TestEncoderStringFields(t *testing.T) {
	long := strings.Repeat("a", 70) + " then <b> & more"
	other := strings.Repeat("b", 69) + "<" + " then <b> & more"
	tests := map[string]any{
		"a string type with MarshalText": struct {
			Plain string `json:"plain"`
			Loud  shout  `json:"loud"`
			Empty shout  `json:"empty,omitempty"`
		}{"quiet", "loud", ""},
		"a safe prefix, then the whole string": struct {
			A, B string
		}{long[:70], long},
		"a safe string, then another of its length": struct {
			A, B, C string
		}{strings.Repeat("c", len(other)), other, strings.Repeat("c", len(other))},
	}
	for name, v := range tests {
		t.Run(name, func(t *testing.T) {
			want, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			e := &encoder{w: &got, marshals: map[reflect.Type]marshaling{}}
			if err := e.value(reflect.ValueOf(v), ""); err != nil {
				t.Fatal(err)
			}
			e.flush()
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Errorf("encoder differs from MarshalIndent (-want +got):\n%s", diff)
			}
		})
	}
}
