package planparse

import (
	"testing"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
)

// skipValid, the lazy Value's skip over validated bytes, must end every
// value where the validating skipValue does: checked at every value of
// every corpus plan, fixture and generated plan that Parse accepts, and of
// hand-made strings with escaped quotes and backslashes.
func TestSkipValidMatchesSkipValue(t *testing.T) {
	t.Parallel()
	docs := diffFiles(t)
	docs["escapes"] = []byte(`{"a\"b":"x\\\"y\\","c":["\\\\",{"d":"\"}]\""}],"e":-1.5e3,"f":true,"g":null, "h" : [ ] ,"i":{}}`)
	checked := 0
	for name, data := range docs {
		if _, err := jsonscan.Skip(data, 0, 0); err != nil {
			continue // not valid JSON: Parse refuses it before any Value exists
		}
		var walk func(i int)
		walk = func(i int) {
			want, _ := jsonscan.Skip(data, i, 0)
			if got, _ := jsonscan.SkipValid(data, i); got != want {
				t.Fatalf("%s: the value at offset %d ends at %d, skipValid says %d", name, i, want, got)
			}
			checked++
			switch data[jsonscan.WS(data, i)] {
			case '{':
				_, _ = jsonscan.EachMember(data, i, 0, func(_ []byte, _ bool, v int) (int, error) {
					walk(v)
					return jsonscan.Skip(data, v, 1)
				})
			case '[':
				_, _ = jsonscan.EachElement(data, i, 0, func(v int) (int, error) {
					walk(v)
					return jsonscan.Skip(data, v, 1)
				})
			}
		}
		walk(0)
	}
	if checked < 1000 {
		t.Errorf("only %d values checked", checked)
	}
}
