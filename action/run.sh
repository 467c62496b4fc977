#!/usr/bin/env bash
# The GitHub Action's one step (action.yml): install or build planwarden,
# review the plans, write the job summary, optionally upsert the PR comment,
# and exit non-zero on a fail verdict. Inputs come as INPUT_* environment
# variables (never interpolated into this script), so a plan path or project
# name cannot inject shell. Tests run it against a stand-in GitHub.
set -euo pipefail

fail() { echo "::error::planwarden: $*" >&2; exit 2; }

action_path=${PLANWARDEN_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}
workdir=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/planwarden-action
mkdir -p "$workdir/bin"
bin=$workdir/bin/planwarden

if [ -n "${PLANWARDEN_BIN:-}" ]; then
	bin=$PLANWARDEN_BIN # a binary already built (tests, self-hosted runners)
elif [ -n "${INPUT_VERSION:-}" ]; then
	case "$INPUT_VERSION" in v[0-9]*) ;; *) fail "version must look like v1.2.3, not '$INPUT_VERSION'";; esac
	os=$(uname -s | tr '[:upper:]' '[:lower:]'); arch=$(uname -m)
	case "$arch" in x86_64|amd64) arch=amd64;; aarch64|arm64) arch=arm64;; *) fail "no release for CPU $arch; leave version empty to build from source";; esac
	v=${INPUT_VERSION#v}
	base=${GITHUB_SERVER_URL:-https://github.com}/planwarden/planwarden/releases/download/$INPUT_VERSION
	archive=planwarden_${v}_${os}_${arch}.tar.gz
	curl -fsSL --retry 3 -o "$workdir/$archive" "$base/$archive" || fail "download $base/$archive failed"
	curl -fsSL --retry 3 -o "$workdir/checksums.txt" "$base/planwarden_${v}_checksums.txt" || fail "download of the checksums failed"
	(cd "$workdir" && grep " $archive\$" checksums.txt | sha256sum -c --status) || fail "checksum of $archive does not match the release's checksums.txt"
	tar -xzf "$workdir/$archive" -C "$workdir/bin" planwarden
else
	(cd "$action_path" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/planwarden) || fail "building planwarden from $action_path failed"
fi
"$bin" --version

[ -n "${INPUT_PLANS//[[:space:]]/}" ] || fail "input plans is empty: give the plan JSON files (terraform show -json output)"
comment_mode=${INPUT_COMMENT:-off}
case "$comment_mode" in
	true) comment_mode=update ;; # the input's former values
	false) comment_mode=off ;;
	update|hide-and-new|new|off) ;;
	*) fail "input comment must be update, hide-and-new, new or off, not '$comment_mode'" ;;
esac
args=(review)
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
for p in ${INPUT_PROJECTS:-}; do args+=(--project "$p"); done
for e in ${INPUT_ENVIRONMENT:-}; do args+=(--environment "$e"); done
read -r -a plans <<<"$(echo "$INPUT_PLANS" | tr '\n' ' ')"

case "${INPUT_MODE:-review}" in
review) ;;
verify)
	# verify writes the job summary itself; its exit status is the step's.
	vargs=(verify)
	[ -n "${INPUT_CONFIG:-}" ] && vargs+=(--config "$INPUT_CONFIG")
	for p in ${INPUT_PROJECTS:-}; do vargs+=(--project "$p"); done
	for e in ${INPUT_ENVIRONMENT:-}; do vargs+=(--environment "$e"); done
	[ -n "${INPUT_REVIEWED:-}" ] && vargs+=(--reviewed "$INPUT_REVIEWED")
	[ -n "${INPUT_APP_ID:-}" ] && vargs+=(--app-id "$INPUT_APP_ID")
	[ "${INPUT_ALLOW_NEW_NOOP:-false}" = "true" ] && vargs+=(--allow-new-noop)
	[ "${INPUT_ALLOW_KNOWN_AFTER_APPLY:-false}" = "true" ] && vargs+=(--allow-known-after-apply)
	set +e
	"$bin" "${vargs[@]}" -- "${plans[@]}"
	code=$?
	set -e
	[ "$code" -le 1 ] || fail "verify failed (exit $code); see the message above"
	exit "$code"
	;;
*) fail "mode must be review or verify, not '${INPUT_MODE}'" ;;
esac

review_md=$workdir/review.md
report=$workdir/report.json
set +e
# --digests: the report is what verify --reviewed compares with.
"$bin" "${args[@]}" --format json --digests --out "$report" -- "${plans[@]}"
code=$?
set -e
[ "$code" -le 1 ] || fail "review failed (exit $code); see the message above"
"$bin" "${args[@]}" --out "$review_md" -- "${plans[@]}" || true

verdict=$(sed -n 's/^{"verdict":"\([a-z]*\)".*/\1/p' "$report" | head -1)
[ -n "$verdict" ] || verdict=$(grep -o '"verdict": *"[a-z]*"' "$report" | head -1 | sed 's/.*"\([a-z]*\)"$/\1/')
if [ -n "${GITHUB_OUTPUT:-}" ]; then
	{ echo "verdict=$verdict"; echo "report=$report"; } >>"$GITHUB_OUTPUT"
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	cat "$review_md" >>"$GITHUB_STEP_SUMMARY"
fi

if [ "$comment_mode" != off ]; then
	if [ -z "${PR_NUMBER:-}" ]; then
		echo "::warning::planwarden: comment is $comment_mode but this run is not for a pull request; no comment posted"
	else
		"$bin" comment --mode "$comment_mode" --repo "${GITHUB_REPOSITORY:?}" --pr "$PR_NUMBER" "$review_md"
	fi
fi

echo "planwarden verdict: $verdict"
if [ "$verdict" = "fail" ] && [ "${INPUT_FAIL_ON_VERDICT:-true}" = "true" ]; then
	exit 1
fi
