#!/usr/bin/env bash
# The mutants gremlins cannot make: deleting one entry of the redaction
# word lists in planparse/sanitize.go (secretWords, secretHints). Each
# deletion runs planparse's tests in a scratch copy of the repository; a
# deletion no test notices is reported LIVED. Part of `make mutate`.
#
#   MUTATE_WORDS="password token" scripts/mutate-words.sh   # a subset
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git ls-files -z | xargs -0 cp --parents -t "$work"
# Untracked test files of a work in progress count too.
git ls-files -z --others --exclude-standard -- '*.go' | xargs -0 -r cp --parents -t "$work"
src=planparse/sanitize.go

# The entries of a `var name = []string{...}` list, one per line.
entries() {
	awk -v v="$1" '$0 ~ "^var " v " = \\[\\]string\\{" {on=1} on {print} on && /\}/ {exit}' "$src" |
		grep -o '"[^"]*"' | tr -d '"'
}

lists="secretWords secretHints"
# Entries known to be redundant: every name holding them holds another
# entry (sas_token holds "token"), so deleting one alone changes nothing.
equivalent=" secretWords sas_token "

if ! (cd "$work" && go test -count=1 ./planparse >/dev/null); then
	echo "planparse's tests fail before any mutation; fix them first" >&2
	exit 2
fi

killed=0 lived=0 equiv=0
for list in $lists; do
	for w in ${MUTATE_WORDS:-$(entries "$list")}; do
		cp "$src" "$work/$src"
		# Delete the entry from this list, wherever it sits on its line.
		sed -i -E "/^var $list = /,/\}/ s/\"$w\",? ?//" "$work/$src"
		if cmp -s "$src" "$work/$src"; then
			continue
		fi
		w="$list $w"
		if (cd "$work" && go test -count=1 -failfast ./planparse >"$work/test.log" 2>&1); then
			if [[ $equivalent == *" $w "* ]]; then
				echo "EQUIVALENT deleted \"$w\" (redundant with another entry)"
				equiv=$((equiv + 1))
			else
				echo "     LIVED deleted \"$w\""
				lived=$((lived + 1))
			fi
		else
			echo "    KILLED deleted \"$w\" by $(grep -m1 -o -- '--- FAIL: [^ ]*' "$work/test.log" || echo 'a build failure')"
			killed=$((killed + 1))
		fi
	done
done
cp "$src" "$work/$src"
echo "word-list mutants: killed $killed, lived $lived, equivalent $equiv"
test "$lived" -eq 0
