#!/usr/bin/env bash
# The one test command (make test, .ci/run after make lint): every test
# with the race detector, with moto_server (AWS emulator) on a loopback
# port for the AWS adapter tests. The format, vet (this system's and the
# release's other systems'), Dockerfile and static checks are `make lint`'s.
set -euo pipefail
cd "$(dirname "$0")/.."

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
