#!/usr/bin/env bash
# `make mutate`: mutation testing of the pure core with gremlins (pinned in
# tools/gremlins). For each package it prints the surviving (LIVED) mutants,
# the test efficacy (killed / (killed + lived)) and the mutator coverage,
# then one summary line per package against its target; with planparse,
# scripts/mutate-words.sh deletes each redaction word in turn. Not part of
# `make test`: one package takes minutes on a small machine.
#
#   MUTATE_PKGS="planparse rules" make mutate   # a subset
#   MUTATE_TIMEOUT=8 make mutate                # a loaded machine
#
# Exits 1 when a package misses its target (planparse 90%, the others 85%).
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=${MUTATE_PKGS:-planparse infra rules review comment}
timeout=${MUTATE_TIMEOUT:-5}
out=${MUTATE_OUT:-$(mktemp -d)}
mkdir -p "$out"

echo "== building gremlins (tools/gremlins)"
gremlins=$(go -C tools/gremlins tool -n gremlins)

target() { if [ "$1" = planparse ]; then echo 90; else echo 85; fi; }

summary=()
missed=0
for p in $pkgs; do
	echo "== gremlins unleash ./$p"
	# -S l prints only the survivors; the summary lines follow them.
	"$gremlins" unleash --workers 1 --test-cpu 1 --timeout-coefficient "$timeout" \
		-S l -o "$out/$p.json" "./$p" | tee "$out/$p.log"
	eff=$(sed -n 's/.*Test efficacy: \([0-9.]*\)%.*/\1/p' "$out/$p.log" | tail -1)
	cov=$(sed -n 's/.*Mutator coverage: \([0-9.]*\)%.*/\1/p' "$out/$p.log" | tail -1)
	lived=$(grep -c 'LIVED' "$out/$p.log" || true)
	want=$(target "$p")
	verdict=met
	if [ -z "$eff" ] || ! awk -v e="$eff" -v w="$want" 'BEGIN { exit !(e >= w) }'; then
		verdict=MISSED
		missed=1
	fi
	summary+=("$(printf '%-10s efficacy %6s%%  mutator coverage %6s%%  lived %3s  target %s%%: %s' \
		"$p" "${eff:-?}" "${cov:-?}" "$lived" "$want" "$verdict")")
done

words=""
if [[ " $pkgs " == *" planparse "* ]]; then
	echo "== word-list mutants (scripts/mutate-words.sh)"
	if ./scripts/mutate-words.sh | tee "$out/words.log"; then words=met; else words=MISSED; missed=1; fi
	summary+=("$(tail -1 "$out/words.log"): $words")
fi

echo "== summary (JSON results in $out)"
printf '%s\n' "${summary[@]}"
exit "$missed"
