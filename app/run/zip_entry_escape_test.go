package run

import "testing"

func TestSafeEntry(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"plan.json": true, "a/b/plan.json": true, "dir/": true,
		"../plan.json": false, "a/../../plan.json": false, "/etc/plan.json": false,
		`..\plan.json`: false, "C:/plan.json": true, "": false,
	} {
		if got := safeEntry(name); got != want {
			t.Errorf("safeEntry(%q) = %v, want %v", name, got, want)
		}
	}
}
