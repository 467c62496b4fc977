// Command commentpage renders a planwarden comment (markdown, as the bot
// posts it) to a standalone HTML page laid out like a pull request comment
// on GitHub, for scripts/screenshot.sh to photograph with headless
// Chromium. The markdown is the comment package's golden output, so its
// raw HTML (<details>, the hidden marker) is rendered as GitHub does.
//
//	go run ./scripts/commentpage -in comment/testdata/aks-gpu-typo.md -out /tmp/comment.html
package main

import (
	"bytes"
	"flag"
	"fmt"
	"html"
	"io"
	"os"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

func main() {
	in := flag.String("in", "comment/testdata/aks-gpu-typo.md", "the comment's markdown")
	out := flag.String("out", "", "the HTML page to write (default: standard output)")
	author := flag.String("author", "planwarden", "the account shown as the comment's author")
	flag.Parse()
	md, err := os.ReadFile(*in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "commentpage:", err)
		os.Exit(2)
	}
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "commentpage:", err)
			os.Exit(2)
		}
		defer f.Close()
		w = f
	}
	if err := page(w, md, *author); err != nil {
		fmt.Fprintln(os.Stderr, "commentpage:", err)
		os.Exit(1)
	}
}

// page writes the HTML page of one comment.
func page(w io.Writer, md []byte, author string) error {
	var body bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := gm.Convert(md, &body); err != nil {
		return fmt.Errorf("render markdown: %w", err)
	}
	_, err := fmt.Fprintf(w, pageHTML, css, html.EscapeString(author), body.String())
	return err
}

const pageHTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>planwarden comment</title><style>%s</style></head>
<body><div class="comment">
<div class="header"><span class="avatar">pw</span><b>%s</b> <span class="bot">bot</span> <span class="muted">commented</span></div>
<div class="markdown-body">
%s</div></div></body></html>
`

// css is close to GitHub's light theme for a comment's markdown.
const css = `
body{margin:0;padding:16px;background:#fff;font-family:-apple-system,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif,"Noto Color Emoji";color:#1f2328}
.comment{border:1px solid #d1d9e0;border-radius:6px;max-width:920px}
.header{background:#f6f8fa;border-bottom:1px solid #d1d9e0;padding:8px 16px;font-size:14px;border-radius:6px 6px 0 0}
.avatar{display:inline-block;width:20px;height:20px;border-radius:4px;background:#1f883d;color:#fff;font-size:10px;text-align:center;line-height:20px;margin-right:6px;vertical-align:middle}
.bot{border:1px solid #d1d9e0;border-radius:2em;padding:0 6px;font-size:12px;color:#59636e}
.muted{color:#59636e}
.markdown-body{padding:16px;font-size:14px;line-height:1.5;word-wrap:break-word}
.markdown-body h2{font-size:1.5em;font-weight:600;border-bottom:1px solid #d1d9e0b3;padding-bottom:.3em;margin:0 0 16px}
.markdown-body h3{font-size:1.25em;font-weight:600;margin:24px 0 16px}
.markdown-body p,.markdown-body ul,.markdown-body table,.markdown-body blockquote,.markdown-body details{margin:0 0 16px}
.markdown-body ul{padding-left:2em}
.markdown-body li+li{margin-top:.25em}
.markdown-body ul ul{margin:0}
.markdown-body code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:85%;background:#818b981f;padding:.2em .4em;border-radius:6px}
.markdown-body pre{background:#f6f8fa;padding:16px;border-radius:6px;overflow:auto;font-size:85%}
.markdown-body pre code{background:none;padding:0;font-size:100%}
.markdown-body table{border-collapse:collapse;display:block;width:max-content;max-width:100%;overflow:auto}
.markdown-body th,.markdown-body td{border:1px solid #d1d9e0;padding:6px 13px}
.markdown-body th{font-weight:600}
.markdown-body tr:nth-child(2n){background:#f6f8fa}
.markdown-body blockquote{color:#59636e;border-left:.25em solid #d1d9e0;padding:0 1em;margin-left:0}
.markdown-body hr{border:0;border-bottom:1px solid #d1d9e0;margin:24px 0}
.markdown-body summary{cursor:pointer}
`
