package prose

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClamp(t *testing.T) {
	tests := map[string]struct {
		in   string
		n    int
		want string
	}{
		"short text is kept":            {"hello", 10, "hello"},
		"exactly n is kept":             {"hello", 5, "hello"},
		"long text is cut and marked":   {strings.Repeat("a", 40), 20, strings.Repeat("a", 20-len(Truncated)) + Truncated},
		"a cut never splits a rune":     {strings.Repeat("é", 20), 20, strings.Repeat("é", 2) + Truncated},
		"n below the mark is cut bare":  {"abcdefghij", 4, "abcd"},
		"a bare cut never splits runes": {"ééé", 3, "é"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Clamp(tc.in, tc.n)
			if got != tc.want {
				t.Errorf("Clamp(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
			if len(got) > tc.n || !utf8.ValidString(got) {
				t.Errorf("Clamp(%q, %d) = %q: longer than %d bytes or not UTF-8", tc.in, tc.n, got, tc.n)
			}
		})
	}
}

func TestShortSHA(t *testing.T) {
	if got := ShortSHA("0123456789abcdef"); got != "0123456" {
		t.Errorf("ShortSHA = %q, want 0123456", got)
	}
	if got := ShortSHA("abc"); got != "abc" {
		t.Errorf("ShortSHA of a short ref = %q, want it unchanged", got)
	}
}

func TestCode(t *testing.T) {
	for in, want := range map[string]string{
		"azurerm_kubernetes_cluster_node_pool.gpu": "`azurerm_kubernetes_cluster_node_pool.gpu`",
		"a`b":           "`a'b`",
		"line\r\nbreak": "`line  break`",
		"@team":         "`@team`",
	} {
		if got := Code(in); got != want {
			t.Errorf("Code(%q) = %q, want %q", in, got, want)
		}
	}
}
