#!/usr/bin/env bash
# The one test command (make test, .ci/run): format and vet checks, then
# every test with the race detector, with moto_server (AWS emulator) on a
# loopback port for the AWS adapter tests.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt needed on:"; echo "$unformatted"; exit 1
fi
echo "== go vet"
go vet ./...
# The Dockerfile cannot be built here (no Docker engine); lint it with
# BuildKit's own rules (tools/dockerfilelint; make image-binary and the
# action tests build the same static binary it builds).
# The release (.goreleaser.yaml) builds the CLI for macOS and Windows too;
# what only builds on Linux would first fail there.
echo "== go vet of the CLI for darwin/arm64 and windows/amd64"
GOOS=darwin GOARCH=arm64 go vet ./cmd/planwarden
GOOS=windows GOARCH=amd64 go vet ./cmd/planwarden
echo "== Dockerfile lint"
go -C tools run ./dockerfilelint ../Dockerfile
go -C tools test ./dockerfilelint

moto_pid=""
cleanup() { if [ -n "$moto_pid" ]; then kill "$moto_pid" 2>/dev/null || true; wait "$moto_pid" 2>/dev/null || true; fi; }
trap cleanup EXIT
if [ -z "${PLANWARDEN_TEST_MOTO_URL:-}" ]; then
	if command -v moto_server >/dev/null 2>&1; then
		port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
		moto_server -H 127.0.0.1 -p "$port" >/tmp/planwarden-moto.log 2>&1 &
		moto_pid=$!
		for _ in $(seq 1 100); do
			if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/moto-api/')" 2>/dev/null; then break; fi
			if ! kill -0 "$moto_pid" 2>/dev/null; then echo "moto_server exited; see /tmp/planwarden-moto.log"; exit 1; fi
			sleep 0.1
		done
		export PLANWARDEN_TEST_MOTO_URL="http://127.0.0.1:$port"
		echo "== moto_server on $PLANWARDEN_TEST_MOTO_URL"
	elif [ "${CI:-}" = "true" ]; then
		echo "moto_server is required in CI (pip install 'moto[server]')"; exit 1
	fi
fi

echo "== go test -race"
# A race-enabled test binary sleeps 1 s at exit by default (to let late
# reports print); with about 25 test binaries that is most of a 2-core
# machine's idle time. Race reports during the tests print as they happen.
export GORACE="${GORACE:-atexit_sleep_ms=0}"
go test -race -count=1 ./... "$@"
