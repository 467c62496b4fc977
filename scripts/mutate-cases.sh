#!/usr/bin/env bash
# The mutants gremlins finds but never tests: it reports as NOT COVERED
# every mutant whose position lies outside the blocks of `go test -cover`'s
# profile, and the condition of a `case` clause is outside every block (the
# cover tool counts the clause's body, not its expression). So `case v >
# block:` in a rule's threshold is "not covered" even when every test runs
# it, and its mutants are never tried. This script tries each NOT COVERED
# mutant of gremlins' JSON report (-o) in a scratch copy of the repository
# (without ../shared, as gremlins runs): the operator at its line and column
# is replaced the way gremlins would, and the package's tests run. Part of
# `make mutate`.
#
#   scripts/mutate-cases.sh rules /tmp/out/rules.json
#
# With MUTATE_RETRY_LIVED=1 it also retries the mutants gremlins reported
# LIVED: after adding tests, this re-judges an earlier run's survivors
# (gremlins' KILLED stay killed: tests were only added) without running
# gremlins again.
#
# Prints LIVED mutants as it goes and, last, one line:
# "cases PKG: killed K, lived L, not viable N". A LIVED mutant here is
# either a case clause no test judges or code no test runs.
set -euo pipefail
cd "$(dirname "$0")/.."

pkg=${1:?usage: mutate-cases.sh PACKAGE GREMLINS_JSON}
report=${2:?usage: mutate-cases.sh PACKAGE GREMLINS_JSON}
timeout=${MUTATE_CASE_TIMEOUT:-300}
command -v jq >/dev/null || { echo "mutate-cases.sh reads gremlins' JSON with jq: install jq" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git ls-files -z | xargs -0 cp --parents -t "$work"
git ls-files -z --others --exclude-standard -- '*.go' | xargs -0 -r cp --parents -t "$work"

if ! (cd "$work" && go test -count=1 "./$pkg" >/dev/null 2>&1); then
	echo "$pkg's tests fail before any mutation (without ../shared); fix them first" >&2
	exit 2
fi

# file line column type, one NOT COVERED mutant a line.
retry=${MUTATE_RETRY_LIVED:-0}
mutants=$(jq -r --argjson retry "$retry" '.files[] | .file_name as $f | .mutations[] |
	select(.status == "NOT COVERED" or ($retry == 1 and .status == "LIVED")) |
	"\($f) \(.line) \(.column) \(.type)"' "$report")

killed=0 lived=0 inviable=0
while read -r file line col typ; do
	[ -n "$file" ] || continue
	src=$pkg/$file
	cp "$src" "$work/$src"
	# Replace the operator at line:col (1-based bytes) as gremlins' token
	# mutations do (internal/engine/mappings.go of gremlins v0.6.0).
	MUT_LINE=$line MUT_COL=$col MUT_TYPE=$typ perl -i -pe '
		BEGIN {
			%m = (
				CONDITIONALS_BOUNDARY => { ">=" => ">", ">" => ">=", "<=" => "<", "<" => "<=" },
				CONDITIONALS_NEGATION => { "==" => "!=", "!=" => "==", ">=" => "<", ">" => "<=", "<=" => ">", "<" => ">=" },
				ARITHMETIC_BASE       => { "+" => "-", "-" => "+", "*" => "/", "/" => "*", "%" => "*" },
				INCREMENT_DECREMENT   => { "++" => "--", "--" => "++" },
				INVERT_NEGATIVES      => { "-" => "+" },
			);
		}
		if ($. == $ENV{MUT_LINE}) {
			my $c = $ENV{MUT_COL} - 1;
			my $t = $m{$ENV{MUT_TYPE}} or die "unknown mutator $ENV{MUT_TYPE}\n";
			my $two = substr($_, $c, 2);
			my $op = exists $t->{$two} ? $two : substr($_, $c, 1);
			exists $t->{$op} or die "no $ENV{MUT_TYPE} operator at $ENV{MUT_LINE}:$ENV{MUT_COL}: $_";
			substr($_, $c, length $op) = $t->{$op};
		}' "$work/$src"
	where="$typ at $file:$line:$col"
	# A file of a subpackage (comment/plaintext) is judged by its own tests.
	dir=$(dirname "$src")
	if (cd "$work" && timeout "$timeout" go test -count=1 -failfast -cpu 1 "./$dir" >"$work/test.log" 2>&1); then
		echo "     LIVED $where"
		lived=$((lived + 1))
	elif grep -q '\[build failed\]\|\[setup failed\]' "$work/test.log"; then
		echo "NOT VIABLE $where"
		inviable=$((inviable + 1))
	else
		killed=$((killed + 1))
	fi
	cp "$src" "$work/$src"
done <<<"$mutants"

echo "cases $pkg: killed $killed, lived $lived, not viable $inviable"
