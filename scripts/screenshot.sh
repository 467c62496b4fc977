#!/usr/bin/env bash
# make screenshot: the README's picture of the comment. Renders the typo
# story's golden comment (comment/testdata/aks-gpu-typo.md, the markdown
# planwarden posts; go test ./comment -update rewrites it) to an HTML page
# laid out like a GitHub comment (scripts/commentpage, goldmark), and
# photographs it with headless Chromium into docs/comment.png (the top of
# the page: verdict, findings, GPU changes and cost).
set -euo pipefail
cd "$(dirname "$0")/.."

in=${SCREENSHOT_MD:-comment/testdata/aks-gpu-typo.md}
out=${SCREENSHOT_PNG:-docs/comment.png}
width=${SCREENSHOT_WIDTH:-960}
height=${SCREENSHOT_HEIGHT:-985}

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "== installing chromium and fonts (apt-get)"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core fonts-noto-color-emoji >/dev/null
		chromium=$(command -v chromium)
	else
		echo "make screenshot needs Chromium: install it (Debian/Ubuntu: sudo apt-get install chromium fonts-noto-color-emoji; macOS: brew install --cask chromium) and run it again" >&2
		exit 1
	fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go run ./scripts/commentpage -in "$in" -out "$work/comment.html"
# Flags as the machine notes say: no sandbox (root), no GPU, and no
# background network traffic (there is no network to reach).
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--hide-scrollbars --user-data-dir="$work/profile" \
	--window-size="$width,$height" --screenshot="$work/comment.png" \
	"file://$work/comment.html" >"$work/chromium.log" 2>&1 || { cat "$work/chromium.log" >&2; exit 1; }
mv "$work/comment.png" "$out"
echo "wrote $out (${width}x${height}) from $in"
