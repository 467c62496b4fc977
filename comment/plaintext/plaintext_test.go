package plaintext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlainTextDropsMarkupAndKeepsWords(t *testing.T) {
	md := "## 🛑 Not ready\n\n**Cost:** -\\$5.81 per hour for `a|b`\n\n" +
		"- `gpu-sku-loss` on `pool.gpu`: loses\n  - **What to do:** fix\n\n" +
		"| Resource | Hourly |\n|---|---:|\n| `pool.gpu` | \\$7.65 |\n| `x` | \\$1,000.00 |\n\n" +
		"<details><summary><code>pool.gpu</code> will be replaced</summary>\n\n```diff\n~ vm_size = \"a\" -> \"b\"\n```\n</details>\n\n" +
		"See [the docs](https://example.com/docs).\n"
	got := Render(md)
	for _, want := range []string{
		"🛑 Not ready\n===========\n",
		"Cost: -$5.81 per hour for a|b\n",
		"- gpu-sku-loss on pool.gpu: loses\n  - What to do: fix\n",
		"Resource  Hourly\n--------  ------\npool.gpu  $7.65\nx         $1,000.00\n",
		"pool.gpu will be replaced\n",
		"    ~ vm_size = \"a\" -> \"b\"\n",
		"See the docs (https://example.com/docs).\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("plain text lacks %q:\n%s", want, got)
		}
	}
	for _, markup := range []string{"<details", "<summary", "<code>", "</", "\\$", "**", "```", "|---"} {
		if strings.Contains(got, markup) {
			t.Errorf("plain text still has %q:\n%s", markup, got)
		}
	}
	if !strings.HasSuffix(got, "\n") || strings.HasSuffix(got, "\n\n") {
		t.Errorf("plain text should end with exactly one newline: %q", got[max(0, len(got)-20):])
	}
}

func TestPlainTextOfEveryGoldenComment(t *testing.T) {
	files, err := filepath.Glob("../testdata/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden comments: %v", err)
	}
	for _, f := range files {
		md, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got := Render(string(md))
		// The hostile case's plan values spell markup on purpose; its text
		// must keep them, so only the code-span check applies there.
		hostile := strings.Contains(f, "hostile")
		for _, markup := range []string{"<details", "<summary", "</summary>", "\\$", "\\_", "```"} {
			if !hostile && strings.Contains(got, markup) {
				t.Errorf("%s: plain text still has %q", f, markup)
			}
		}
		// Every inline code span's text survives.
		parts := strings.Split(string(md), "`")
		if hostile { // escaped backticks there do not pair up
			parts = nil
		}
		for i := 1; i < len(parts); i += 2 {
			span := parts[i]
			if span == "" || strings.ContainsAny(span, "\n") || len(span) > 40 {
				continue
			}
			if !strings.Contains(got, strings.ReplaceAll(span, "\\", "")) && !strings.Contains(got, span) {
				t.Errorf("%s: plain text lost %q", f, span)
				break
			}
		}
	}
}
