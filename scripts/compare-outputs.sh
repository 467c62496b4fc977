#!/usr/bin/env bash
# Compares what two planwarden binaries print for every plan of the shared
# corpus (../shared/corpus/plans) and every example plan: `review --format
# markdown` and `review --format json`, with no other flags (as the tests
# run them), then the example plans again with examples/planwarden.yml in
# prod. Standard output, standard error and the exit status must be the
# same byte for byte.
#
#	scripts/compare-outputs.sh OLD_BINARY NEW_BINARY
#
# Prints each plan that differs and "N/N identical"; exits 1 when any
# differs. The keyed digests that stand for text the outputs do not show,
# "(text, 3 lines, 3fa2c1d0)", are keyed by a key drawn once per process,
# so two runs of one binary differ there: they are compared as DIGEST
# (and --digests is left out for the same reason).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 2 ]; then
	echo "usage: $0 OLD_BINARY NEW_BINARY" >&2
	exit 2
fi
old=$(realpath "$1") new=$(realpath "$2")
corpus=${CORPUS:-../shared/corpus/plans}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plans=()
if [ -d "$corpus" ]; then
	while IFS= read -r f; do plans+=("$f"); done < <(find "$corpus" -name '*.json' ! -name INDEX.json | sort)
else
	echo "note: no corpus at $corpus; comparing the example plans only" >&2
fi
examples=()
while IFS= read -r f; do examples+=("$f"); done < <(git ls-files 'examples/*.json' | sort)

total=0 same=0
# run BIN OUT ARGS...: the command's stdout, stderr and status into OUT.*
run() {
	local bin=$1 out=$2
	shift 2
	set +e
	"$bin" review "$@" 2>"$out.stderr" | perl -pe 's{\(text, [^()]*\)}{$& =~ s/\b[0-9a-f]{8}\b/DIGEST/gr}ge' >"$out.stdout"
	echo "${PIPESTATUS[0]}" >"$out.status"
	set -e
}
compare() {
	local f=$1
	shift
	total=$((total + 1))
	run "$old" "$tmp/old" "$@" "$f"
	run "$new" "$tmp/new" "$@" "$f"
	local k
	for k in stdout stderr status; do
		if ! cmp -s "$tmp/old.$k" "$tmp/new.$k"; then
			echo "differs: review $* $f ($k)"
			diff "$tmp/old.$k" "$tmp/new.$k" | head -5 || true
			return
		fi
	done
	same=$((same + 1))
}
for f in "${plans[@]}" "${examples[@]}"; do
	for format in markdown json; do
		compare "$f" --format "$format"
	done
done
for f in "${examples[@]}"; do
	for format in markdown json; do
		compare "$f" --format "$format" --config examples/planwarden.yml --environment prod
	done
done
echo "$same/$total identical"
[ "$same" -eq "$total" ]
