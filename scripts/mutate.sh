#!/usr/bin/env bash
# `make mutate`: mutation testing of the pure core with gremlins (pinned in
# tools/gremlins). For each package it prints the surviving (LIVED) mutants,
# the test efficacy (killed / (killed + lived)) and the mutator coverage,
# then one summary line per package against its target; with planparse,
# scripts/mutate-words.sh deletes each redaction word in turn. Not part of
# `make test`: one package takes minutes on a small machine.
#
# gremlins never tests the mutants of a `case` clause's condition (it
# reports them NOT COVERED: see scripts/mutate-cases.sh), so after each
# package scripts/mutate-cases.sh tries every NOT COVERED mutant, and the
# efficacy judged against the target counts both.
#
#   MUTATE_PKGS="planparse rules" make mutate   # a subset
#   MUTATE_TIMEOUT=8 make mutate                # a loaded machine
#   MUTATE_EXCLUDE='^(scan|read)\.go$' ...      # skip files (gremlins -E)
#   MUTATE_PKGS=planparse MUTATE_FILES='detect.go whatif.go' make mutate
#                                               # only these files of the package
#                                               # (word lists only with sanitize.go)
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
# gremlins tests each mutant in a copy of the module, where ../shared is
# absent: a test that fails there would count every mutant killed.
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
git ls-files -z | xargs -0 cp --parents -t "$copy"
git ls-files -z --others --exclude-standard -- '*.go' | xargs -0 -r cp --parents -t "$copy"

for p in $pkgs; do
	if ! (cd "$copy" && go test -count=1 "./$p" >"$out/$p.pretest.log" 2>&1); then
		echo "== $p: its tests fail in a copy without ../shared (see $out/$p.pretest.log); not mutated"
		summary+=("$(printf '%-10s tests fail without ../shared: no figures' "$p")")
		missed=1
		continue
	fi
	echo "== gremlins unleash ./$p"
	# -S l prints only the survivors; the summary lines follow them.
	# Test helper packages (planparse/plantest, review/reviewtest) build
	# fixtures; their mutants say nothing about the product.
	excl=(-E '^[a-z]+test/')
	if [ -n "${MUTATE_EXCLUDE:-}" ]; then excl+=(-E "$MUTATE_EXCLUDE"); fi
	if [ -n "${MUTATE_FILES:-}" ]; then
		# gremlins matches -E against the path inside the package: leave
		# out every other non-test file of the package itself.
		others=$(cd "$p" && ls -- *.go | grep -v '_test\.go$' | grep -vxF -f <(tr ' ' '\n' <<<"$MUTATE_FILES") |
			sed 's/\./\\./g' | paste -sd'|' || true)
		if [ -n "$others" ]; then excl+=(-E "^($others)\$"); fi
	fi
	# No --test-cpu: gremlins v0.6.0 passes it to go test as the one
	# argument "-cpu 1", which fails every run at setup, and a failed run
	# counts as a killed mutant: every mutant was reported killed.
	"$gremlins" unleash --workers 1 --timeout-coefficient "$timeout" \
		"${excl[@]}" -S l -o "$out/$p.json" "./$p" | tee "$out/$p.log"
	cov=$(sed -n 's/.*Mutator coverage: \([0-9.]*\)%.*/\1/p' "$out/$p.log" | tail -1)
	echo "== case-clause and other NOT COVERED mutants of $p (scripts/mutate-cases.sh)"
	./scripts/mutate-cases.sh "$p" "$out/$p.json" | tee "$out/$p.cases.log"
	k=$(jq .mutants_killed "$out/$p.json")
	l=$(jq .mutants_lived "$out/$p.json")
	ck=$(sed -n 's/^cases .*: killed \([0-9]*\), lived \([0-9]*\).*/\1/p' "$out/$p.cases.log")
	cl=$(sed -n 's/^cases .*: killed \([0-9]*\), lived \([0-9]*\).*/\2/p' "$out/$p.cases.log")
	lived=$((l + ${cl:-0}))
	eff=""
	if [ $((k + l + ${ck:-0} + ${cl:-0})) -gt 0 ]; then
		eff=$(awk -v k=$((k + ${ck:-0})) -v n=$((k + l + ${ck:-0} + ${cl:-0})) 'BEGIN { printf "%.2f", 100 * k / n }')
	fi
	want=$(target "$p")
	verdict=met
	if [ -z "$eff" ] || ! awk -v e="$eff" -v w="$want" 'BEGIN { exit !(e >= w) }'; then
		verdict=MISSED
		missed=1
	fi
	summary+=("$(printf '%-10s efficacy %6s%% (gremlins %s killed %s lived, cases %s killed %s lived)  gremlins mutator coverage %6s%%  target %s%%: %s' \
		"$p" "${eff:-?}" "$k" "$l" "${ck:-?}" "${cl:-?}" "${cov:-?}" "$want" "$verdict")")
done

words=""
if [[ " $pkgs " == *" planparse "* ]] && { [ -z "${MUTATE_FILES:-}" ] || [[ " $MUTATE_FILES " == *" sanitize.go "* ]]; }; then
	echo "== word-list mutants (scripts/mutate-words.sh)"
	if ./scripts/mutate-words.sh 2>&1 | tee "$out/words.log"; then words=met; else words=MISSED; missed=1; fi
	summary+=("$(tail -1 "$out/words.log" | grep . || echo 'word-list mutants: not run'): $words")
fi

echo "== summary (JSON results in $out)"
printf '%s\n' "${summary[@]}"
exit "$missed"
