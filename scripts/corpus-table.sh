#!/bin/sh
# corpus-table.sh — print, for every PDN file of the shared corpus
# (succeed/ and fail/) and every SGF file, how many games `plateau validate`
# finds valid and invalid: the before/after figures of issue #15.
#
#   scripts/corpus-table.sh [PLATEAU-BINARY [VALIDATE-FLAGS...]] > table.md
#
# Without a binary, the command is built from this tree. CORPUS names the
# corpus directory (default ../shared/corpus, beside the repository).
set -eu
cd "$(dirname "$0")/.."
corpus=${CORPUS:-../shared/corpus}
if [ ! -d "$corpus/pdn" ]; then
	echo "corpus-table.sh: no corpus at $corpus (set CORPUS)" >&2
	exit 2
fi
bin=${1:-}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/plateau
	go build -o "$bin" ./cmd/plateau
fi
[ $# -gt 0 ] && shift
echo "| file | games | valid | invalid |"
echo "|---|---:|---:|---:|"
tg=0 tv=0 ti=0
for f in "$corpus"/pdn/succeed/* "$corpus"/pdn/fail/* "$corpus"/sgf/*; do
	# The summary line: "N games, V valid, I invalid, …".
	line=$("$bin" validate -q "$@" "$f" 2>/dev/null | tail -n 1 || true)
	g=$(echo "$line" | sed -n 's/^\([0-9]*\) games, \([0-9]*\) valid, \([0-9]*\) invalid.*/\1/p')
	v=$(echo "$line" | sed -n 's/^\([0-9]*\) games, \([0-9]*\) valid, \([0-9]*\) invalid.*/\2/p')
	i=$(echo "$line" | sed -n 's/^\([0-9]*\) games, \([0-9]*\) valid, \([0-9]*\) invalid.*/\3/p')
	if [ -z "$g" ]; then
		echo "| \`${f#"$corpus"/}\` | error: $("$bin" validate -q "$@" "$f" 2>&1 | tail -n 1) | | |"
		continue
	fi
	echo "| \`${f#"$corpus"/}\` | $g | $v | $i |"
	tg=$((tg + g)) tv=$((tv + v)) ti=$((ti + i))
done
echo "| **total** | $tg | $tv | $ti |"
