package planparse

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// unitPlans are two small plans, each one line as `terraform show -json`
// prints it.
func unitPlans(t *testing.T) (aks, bucket []byte) {
	t.Helper()
	one := func(path string) []byte {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := json.Compact(&b, data); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	return one("../examples/plans/aks-gpu-typo.json"), one("../examples/plans/bucket-lifecycle.json")
}

type unitView struct {
	Dir     string
	Changes int
}

// Terragrunt's run-all output splits into one plan per unit, named by its
// directory when the output carries it.
func TestSplitUnits(t *testing.T) {
	t.Parallel()
	aks, bucket := unitPlans(t)
	logLine := func(level, dir string, msg []byte) string {
		b, _ := json.Marshal(map[string]any{"time": "2026-11-30T10:15:02Z", "level": level, "working-dir": dir, "msg": string(msg)})
		return string(b)
	}
	tests := map[string]struct {
		data []byte
		want []unitView
		// oneLine: the documents share a line, which MaybeUnits (the
		// App's cheap test, of the first line) does not see; terraform
		// show ends its output with a newline, so Terragrunt's never does.
		oneLine bool
	}{
		"one per line": {
			data: []byte(string(aks) + "\n" + string(bucket) + "\n"),
			want: []unitView{{"", 2}, {"", 2}},
		},
		"concatenated": {
			data:    append(append([]byte{}, aks...), bucket...),
			want:    []unitView{{"", 2}, {"", 2}},
			oneLine: true,
		},
		"--log-format json: stdout lines by working directory, the rest left out": {
			data: []byte(strings.Join([]string{
				`{"time":"2026-11-30T10:15:01Z","level":"info","msg":"The runner at . will be processed"}`,
				logLine("stdout", "/repo/secret.Live/prod/aks-gpu", aks),
				logLine("stderr", "/repo/secret.Live/prod/artifacts", []byte("Warning: deprecated")),
				logLine("stdout", "/repo/secret.Live/prod/artifacts", bucket),
			}, "\n")),
			want: []unitView{{"aks-gpu", 2}, {"artifacts", 2}},
		},
		"the pretty log format": {
			data: []byte("10:15:01.120 INFO   The runner at . will be processed\n" +
				"10:15:02.431 STDOUT [secret.Live/prod/aks-gpu] tofu: " + string(aks) + "\n" +
				"\x1b[90m10:15:02.512\x1b[0m STDOUT [secret.Live/prod/artifacts] tofu: " + string(bucket) + "\n"),
			want: []unitView{{"secret.Live/prod/aks-gpu", 2}, {"secret.Live/prod/artifacts", 2}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if MaybeUnits(tc.data) == tc.oneLine {
				t.Errorf("MaybeUnits = %v", !tc.oneLine)
			}
			units, ok := SplitUnits(tc.data)
			if !ok {
				t.Fatal("SplitUnits found no units")
			}
			var got []unitView
			for i, u := range units {
				p, err := Parse("unit", u.Data)
				if err != nil {
					t.Fatalf("unit %d: %v", i, err)
				}
				got = append(got, unitView{u.Dir, len(p.Changes)})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("units (-want +got):\n%s", diff)
			}
		})
	}
}

// One plan, compact or pretty-printed, is no set of units: it is read as
// it is, and the cheap test says so from its first line.
func TestSplitUnitsOnePlan(t *testing.T) {
	t.Parallel()
	aks, _ := unitPlans(t)
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, aks, "", "  "); err != nil {
		t.Fatal(err)
	}
	tests := map[string][]byte{
		"one line":          append(append([]byte{}, aks...), '\n'),
		"pretty-printed":    pretty.Bytes(),
		"a byte-order mark": append([]byte{0xEF, 0xBB, 0xBF}, aks...),
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			if MaybeUnits(data) {
				t.Errorf("MaybeUnits = true")
			}
			if units, ok := SplitUnits(data); ok {
				t.Errorf("SplitUnits split one plan into %d units", len(units))
			}
		})
	}
	// A file that is no JSON and no Terragrunt log is no set of units.
	for _, junk := range []string{"hello\nworld\n", "[command]terraform show\n{}\n", `{"a":1} trailing`} {
		if units, ok := SplitUnits([]byte(junk)); ok {
			t.Errorf("%q split into %d units", junk, len(units))
		}
	}
}

func TestRelativeDirs(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, want []string }{
		"siblings":          {[]string{"/r/secret.Live/prod/a", "/r/secret.Live/prod/b"}, []string{"a", "b"}},
		"nested and not":    {[]string{"/r/secret.Live/prod/a", "/r/secret.Live/staging/b/c"}, []string{"prod/a", "staging/b/c"}},
		"one unit":          {[]string{"/r/secret.Live/prod/a"}, []string{"a"}},
		"relative as given": {[]string{"secret.Live/prod/a", "./secret.Live/prod/b"}, []string{"secret.Live/prod/a", "secret.Live/prod/b"}},
		"no directory":      {[]string{"", ""}, []string{"", ""}},
		"a prefix no dir":   {[]string{"/r/app", "/r/app2"}, []string{"app", "app2"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := relativeDirs(tc.in); !cmp.Equal(got, tc.want) {
				t.Errorf("relativeDirs(%v) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzSplitUnits: splitting never panics, and a split's documents are
// views of the input or copies of a log line's message, never empty.
func FuzzSplitUnits(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n{\"b\":[2,\"}\"]}\n"))
	f.Add([]byte(`{"time":"t","level":"stdout","working-dir":"/r/a","msg":"{\"format_version\":\"1.2\"}"}` + "\n" +
		`{"time":"t","level":"stdout","working-dir":"/r/b","msg":"{}"}`))
	f.Add([]byte("10:15:02.431 STDOUT [secret.Live/a] tofu: {\"x\":\"\\\"\"}\n10:15:02.432 INFO   done\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = MaybeUnits(data)
		units, ok := SplitUnits(data)
		if !ok {
			return
		}
		if len(units) == 0 || len(units) > MaxUnits {
			t.Fatalf("%d units", len(units))
		}
		for _, u := range units {
			if len(u.Data) == 0 || u.Data[0] != '{' && u.Data[0] != '[' {
				t.Fatalf("unit %q: document %q", u.Dir, u.Data)
			}
		}
	})
}
