package main

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// serve gives the Go runtime a soft memory limit of the reviews' budget
// plus a small fixed overhead (16 MiB), so the heap is collected before it
// passes them and the process stays within the budget + 25 %; a
// GOMEMLIMIT the operator set wins.
// The limit shows on /metrics as go_gc_gomemlimit_bytes.
func TestServeLimitsItsHeapToItsBudgets(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	base := processEnv(t, "http://127.0.0.1:1/", "")
	tests := map[string]struct {
		env  []string
		want int64
	}{
		"a 256 MB budget":                {env: []string{"PLANWARDEN_MEMORY_BUDGET_MB=256"}, want: (256 + 16) << 20},
		"the default budget":             {want: (1024 + 16) << 20},
		"GOMEMLIMIT set by the operator": {env: []string{"PLANWARDEN_MEMORY_BUDGET_MB=256", "GOMEMLIMIT=300MiB"}, want: 300 << 20},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := append(append([]string{"PLANWARDEN_DATA_DIR=" + t.TempDir(), "GOMEMLIMIT="}, base...), tc.env...)
			p := startServe(t, env)
			resp, err := http.Get(p.base + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			got := int64(-1)
			for _, line := range strings.Split(string(body), "\n") {
				if v, ok := strings.CutPrefix(line, "go_gc_gomemlimit_bytes "); ok {
					f, err := strconv.ParseFloat(v, 64)
					if err == nil {
						got = int64(f)
					}
				}
			}
			if got != tc.want {
				t.Errorf("go_gc_gomemlimit_bytes = %d; want %d", got, tc.want)
			}
		})
	}
}
