#!/bin/sh
# bench.sh — measure the record pipeline on generated collections.
#
#   scripts/bench.sh [GAMES_PER_RULESET] [RULESET...]
#
# For each ruleset (default: every one Plateau plays) it runs
#   plateau bench --game G --games N
# which generates N games into a temporary file, then times parse, parse +
# replay-validate, import into a temporary database (its curve), queries
# during and after the import, exact-position lookups, player searches,
# opening trees and a pattern scan, and prints one Markdown table per ruleset
# (paste it into a note). It ends with the generator's own Go benchmark
# (one worker, games/s and games per CPU-second for every ruleset).
#
# Environment: WORKERS (generation goroutines, default 1), SEED (default 1),
# NODB=1 to skip the database stages, GOBENCH=0 to skip the Go benchmark.
set -eu
cd "$(dirname "$0")/.."

N=${1:-10000}
[ $# -gt 0 ] && shift
GAMES=${*:-"ogi dames dames-brigand loup-moutons draughts jetan dejarik sauts"}
WORKERS=${WORKERS:-1}
SEED=${SEED:-1}

bin=$(mktemp -d)/plateau
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/plateau

for g in $GAMES; do
	if [ "${NODB:-0}" = 1 ]; then
		"$bin" bench --game "$g" --games "$N" --seed "$SEED" --workers "$WORKERS" --no-db
	else
		"$bin" bench --game "$g" --games "$N" --seed "$SEED" --workers "$WORKERS"
	fi
	echo
done

if [ "${GOBENCH:-1}" != 0 ]; then
	go test -run '^$' -bench 'BenchmarkWrite' -benchtime 500x ./replay/generate
fi
