package comment

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Plan text in prose makes no issue reference, custom autolink or commit
// link on GitHub: a zero-width space breaks each shape, and the text reads
// the same once it is taken out. Each class has a twin of ordinary text
// the escaping leaves alone.
func TestPlanTextLinksNothing(t *testing.T) {
	t.Parallel()
	sha := "a5c3785ed8d6a35868bc169f07e40e889087fd2e"
	tests := map[string]struct {
		in, want string // want: text(in) with zwsp written as ‸
	}{
		"GH-7 issue reference":              {"fixed in GH-7", "fixed in GH‸-7"},
		"gh-7 in lower case":                {"see gh-12", "see gh‸-12"},
		"a custom autolink prefix":          {"ticket JIRA-123 open", "ticket JIRA‸-123 open"},
		"owner/repo#1":                      {"acme/infra#1", "acme/infra\\#‸1"},
		"#123":                              {"fixes #123", "fixes \\#‸123"},
		"a commit SHA":                      {"built from " + sha, "built from a5c3785ed8d6a35868bc‸169f07e40e889087fd2e"},
		"a short SHA":                       {"rev 0f3e9a1", "rev 0f3‸e9a1"},
		"twin: a region":                    {"in us-east-1", "in us-east-1"},
		"twin: a word and a number":         {"Jira-123", "Jira-123"},
		"twin: hex letters only":            {"deadbeef cafe", "deadbeef cafe"},
		"twin: a number":                    {"1234567 nodes", "1234567 nodes"},
		"twin: an instance type":            {"p4d.24xlarge", "p4d.24xlarge"},
		"twin: hex run inside a word":       {"x0f3e9a1b", "x0f3e9a1b"},
		"twin: a hex run longer than a SHA": {strings.Repeat("ab12", 11), strings.Repeat("ab12", 11)},
		"twin: a letter after the run":      {"0f3e9a1z", "0f3e9a1z"},
		"twin: one capital before a digit":  {"A-1", "A-1"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := strings.ReplaceAll(text(tc.in), zwsp, "‸")
			if got != tc.want {
				t.Errorf("text(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if back := strings.ReplaceAll(rendered(t, "x "+text(tc.in)), zwsp, ""); back != "x "+tc.in {
				t.Errorf("text(%q) renders %q", tc.in, back)
			}
		})
	}
}

// In our own HTML (the <summary> of a diff), mentions and issue
// references are broken the same way; an entity the escaping wrote is not.
func TestHTMLTextLinksNothing(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, want string }{
		"#12":                       {"aws_x.y #12", "aws_x.y #‸12"},
		"GH-7":                      {"GH-7", "GH‸-7"},
		"a mention":                 {"@octocat", "@‸octocat"},
		"twin: a quote's entity":    {`a["k"]`, "a[&#34;k&#34;]"},
		"twin: an ordinary address": {"module.gpu.aws_eks_node_group.a100", "module.gpu.aws_eks_node_group.a100"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := strings.ReplaceAll(htmlText(tc.in), zwsp, "‸"); got != tc.want {
				t.Errorf("htmlText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// Invisible characters in plan text read as U+FFFD in prose, code spans
// and our HTML, so a name holding them cannot pass for another name nor
// hide what follows; visible Unicode is kept.
func TestInvisibleCharactersShow(t *testing.T) {
	t.Parallel()
	tests := map[string]rune{
		"word joiner":             0x2060,
		"invisible times":         0x2062,
		"byte order mark":         0xfeff,
		"tag space":               0xe0020,
		"cancel tag":              0xe007f,
		"Hangul choseong filler":  0x115f,
		"Hangul jungseong filler": 0x1160,
		"Hangul filler":           0x3164,
		"halfwidth Hangul filler": 0xffa0,
		"zero-width space":        0x200b,
		"zero-width non-joiner":   0x200c,
		"zero-width joiner":       0x200d,
		"soft hyphen":             0x00ad,
		"Mongolian vowel sep.":    0x180e,
		"left-to-right embedding": 0x202a,
		"right-to-left override":  0x202e,
		"first strong isolate":    0x2068,
		"pop directional isolate": 0x2069,
	}
	for name, r := range tests {
		t.Run(name, func(t *testing.T) {
			in := "gpu" + string(r) + "pool"
			for what, out := range map[string]string{"text": text(in), "code": code(in), "codeCell": codeCell(in), "htmlText": htmlText(in)} {
				if strings.ContainsRune(out, r) {
					t.Errorf("%s(%q) keeps U+%04X", what, in, r)
				}
				if !strings.ContainsRune(out, utf8.RuneError) {
					t.Errorf("%s(%q) = %q: want U+FFFD where U+%04X was", what, in, out, r)
				}
			}
		})
	}
	for _, visible := range []string{"GPU × 2 → ✅", "Größe", "東京リージョン", "ÉQUIPE ML"} {
		if got := text(visible); got != visible {
			t.Errorf("text(%q) = %q, want it unchanged", visible, got)
		}
		if got := code(visible); got != "`"+visible+"`" {
			t.Errorf("code(%q) = %q, want it unchanged", visible, got)
		}
	}
}
