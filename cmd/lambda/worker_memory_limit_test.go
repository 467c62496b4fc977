//go:build !receiver

package main

import "testing"

// The worker gives the Go runtime a soft memory limit of its budget (60 %
// of the function's memory) plus a small fixed overhead, so that its heap
// does not grow to twice what is live past the function's memory; off
// Lambda (no function memory) it sets none.
func TestTheWorkersHeapIsLimitedToItsBudget(t *testing.T) {
	tests := map[string]struct {
		memory string
		want   int64
	}{
		"a 1024 MB function": {memory: "1024", want: 1024<<20*6/10 + 16<<20},
		"a 427 MB function":  {memory: "427", want: 427<<20*6/10 + 16<<20},
		"not on Lambda":      {want: 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			env := map[string]string{"PLANWARDEN_ROLE": "worker", "PLANWARDEN_WEBHOOK_SECRET_ID": "w", "PLANWARDEN_PRIVATE_KEY_ID": "k",
				"PLANWARDEN_TABLE": "t", "PLANWARDEN_APP_ID": "1", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": tc.memory}
			s, err := readSettings(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if got := memoryLimit(s); got != tc.want {
				t.Errorf("memory limit %d MiB; want %d MiB", got>>20, tc.want>>20)
			}
		})
	}
}
