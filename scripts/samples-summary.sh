#!/bin/sh
# samples-summary.sh — print the table of samples/README.md: for every sample
# file, its games, results and terminations (from the tags), and for every
# broken record the error that `plateau validate` prints for it (.err).
#
#   scripts/samples-summary.sh > /tmp/table.md
set -eu
cd "$(dirname "$0")/.."

tally() { # tag file -> "3× a, 2× b"
	grep -h "^\[$1 " "$2" | sed "s/^\[$1 \"\(.*\)\"\]/\1/" | sort | uniq -c |
		awk '{c=$1; $1=""; sub(/^ /, ""); out = out sep c "× " $0; sep=", "} END {print out}'
}

echo "| file | games | results | terminations |"
echo "|---|---:|---|---|"
for f in samples/*/*.pdn; do
	case $f in samples/broken/*) continue ;; esac
	n=$(grep -c '^\[Game ' "$f" || true)
	echo "| \`${f#samples/}\` | $n | $(tally Result "$f") | $(tally Termination "$f") |"
done
echo
echo "| broken record | what \`plateau validate\` says |"
echo "|---|---|"
for f in samples/broken/*.pdn; do
	e=${f%.pdn}.err
	msg=""
	[ -f "$e" ] && msg=$(sed -n 1p "$e" | sed 's/^[^ ]*: //; s/|/\\|/g')
	echo "| \`${f#samples/}\` | $msg |"
done
