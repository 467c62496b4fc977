package job

import "testing"

func TestThreadOfTitle(t *testing.T) {
	for title, want := range map[string]string{
		"planwarden plan #7 pw-7-1001": "pw-7-1001",
		"pw-12-5":                      "pw-12-5",
		"destroy staging #7 pw-7-9 x":  "pw-7-9",
		"Fix the GPU pool":             "",
		"xpw-7-1001":                   "",
		"pw-7-1001-extra":              "",
		"pw-0-1":                       "",
	} {
		id, _, ok := ThreadOfTitle(title)
		if ok != (want != "") || id != want && ok {
			t.Errorf("ThreadOfTitle(%q) = %q %v, want %q", title, id, ok, want)
		}
	}
}
