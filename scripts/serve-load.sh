#!/usr/bin/env bash
# Server figures of issue #13: serve a database and put it under a bounded
# load (scripts/loadtest: 50 clients for 30 s on 127.0.0.1 by default),
# printing latencies per request kind and the server's memory.
#
#   scripts/serve-load.sh DB_DIR [GAMES] [CLIENTS] [DURATION]
#
# PROFILE=FILE also writes a CPU profile of the server over the run (serve
# --pprof on the next port; read it with `go tool pprof -top FILE`);
# LOADTEST_ARGS passes more flags to the load generator (e.g. -deep),
# SERVE_ARGS more flags to the server (e.g. --max-active 4).
#
# Make the database first, e.g. a million generated Ōgi games:
#   plateau generate --game ogi --games 1000000 --seed 1 --out /tmp/ogi1m.pdn.zst
#   plateau import --db /tmp/ogi1m /tmp/ogi1m.pdn.zst
set -euo pipefail
cd "$(dirname "$0")/.."
db=${1:?usage: scripts/serve-load.sh DB_DIR [GAMES] [CLIENTS] [DURATION]}
games=${2:-1000000}
clients=${3:-50}
duration=${4:-30s}
port=${PORT:-18765}
bin=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$bin"' EXIT
go build -o "$bin/plateau" ./cmd/plateau
go build -o "$bin/loadtest" ./scripts/loadtest
pprof=()
if [ -n "${PROFILE:-}" ]; then
  pprof=(--pprof "127.0.0.1:$((port + 1))")
fi
# shellcheck disable=SC2086
"$bin/plateau" serve --db "$db" --addr "127.0.0.1:$port" "${pprof[@]}" ${SERVE_ARGS:-} >"$bin/serve.log" 2>&1 &
server=$!
for _ in $(seq 600); do
  curl -fs "http://127.0.0.1:$port/api/status" >/dev/null 2>&1 && break
  sleep 0.1
done
kill -0 "$server" || { cat "$bin/serve.log"; exit 1; }
# Measured once the server has counted the games (it starts counting when
# it starts; the list's first page waits for the count): a server in use,
# not one starting.
t0=$(date +%s.%N)
curl -fs -m 300 "http://127.0.0.1:$port/api/games?valid=valid&limit=1" >/dev/null
echo "games counted $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s after the server answered"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${PROFILE:-}" ]; then
  secs=$(( $(echo "$duration" | tr -dc '0-9') ))
  case $duration in *m) secs=$((secs * 60)) ;; esac
  curl -fs -o "$PROFILE" "http://127.0.0.1:$((port + 1))/debug/pprof/profile?seconds=$((secs + 2))" &
  profiler=$!
fi
# shellcheck disable=SC2086
"$bin/loadtest" ${LOADTEST_ARGS:-} -url "http://127.0.0.1:$port" -games "$games" -clients "$clients" -duration "$duration" -pid "$server"
if [ -n "${PROFILE:-}" ]; then wait "$profiler" || echo "no profile" >&2; fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
