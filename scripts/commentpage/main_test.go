package main

import (
	"bytes"
	"image/png"
	"os"
	"strings"
	"testing"
)

// TestPageRendersTheTypoStory: the page of the typo story's golden comment
// shows the verdict as a heading, the findings, the GPU and cost tables and
// the collapsed diff, as GitHub would; the hidden marker stays hidden.
func TestPageRendersTheTypoStory(t *testing.T) {
	md, err := os.ReadFile("../../comment/testdata/aks-gpu-typo.md")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := page(&b, md, "planwarden"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"<h2>🛑 Not ready to merge: 2 blocking findings to fix or override</h2>",
		"<code>gpu-sku-loss</code>",
		"<th>Fleet GPUs</th>",
		"<td>Monthly (730 h)</td>",
		"<details><summary>",
		"<!-- planwarden:comment v=1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(out, "&lt;details&gt;") || strings.Contains(out, "| Resource |") {
		t.Errorf("raw markdown or escaped HTML reached the page")
	}
}

// TestTheREADMEsPictureIsThere: docs/comment.png is a PNG of the page's
// size and the README shows it.
func TestTheREADMEsPictureIsThere(t *testing.T) {
	f, err := os.Open("../../docs/comment.png")
	if err != nil {
		t.Fatalf("%v: make screenshot makes it", err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatalf("docs/comment.png: %v", err)
	}
	if cfg.Width < 800 || cfg.Height < 600 {
		t.Errorf("docs/comment.png is %dx%d: want at least 800x600", cfg.Width, cfg.Height)
	}
	readme, _ := os.ReadFile("../../README.md")
	if !strings.Contains(string(readme), "](docs/comment.png)") {
		t.Errorf("README.md does not show docs/comment.png")
	}
}
