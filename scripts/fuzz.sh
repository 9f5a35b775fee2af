#!/usr/bin/env bash
# fuzz.sh runs every fuzz target of the repository for a while, one after
# the other, and prints a table: target | executions | result.
#
#   scripts/fuzz.sh [SECONDS] [REGEXP]
#
# SECONDS per target (default 60); REGEXP selects targets by package path or
# name (default: all), e.g. scripts/fuzz.sh 30 'index|Pattern'. PARALLEL
# sets the fuzzing workers (default 1: the machine is shared). CI runs every
# target on its seed corpus only, through plain `go test`. A failing input is
# written by go test under the package's testdata/fuzz/NAME/: fix the bug,
# and commit the file as a seed.
set -u
cd "$(dirname "$0")/.."
secs=${1:-60}
filter=${2:-.}
par=${PARALLEL:-1}
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
failed=0
printf '%-40s %-22s %12s  %s\n' package target executions result
for file in $(grep -rl --include='*_test.go' '^func Fuzz' . | sort); do
	pkg=./$(dirname "${file#./}")
	for name in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$file"); do
		echo "$pkg $name" | grep -Eq -- "$filter" || continue
		out=$log/$name.log
		if go test -run '^$' -fuzz "^${name}\$" -fuzztime "${secs}s" -parallel "$par" "$pkg" >"$out" 2>&1; then
			res=ok
		else
			res=FAIL
			failed=$((failed + 1))
		fi
		execs=$(grep -o 'execs: [0-9]*' "$out" | tail -1 | awk '{print $2}')
		printf '%-40s %-22s %12s  %s\n' "$pkg" "$name" "${execs:-?}" "$res"
		if [ "$res" = FAIL ]; then
			grep -v '^fuzz: elapsed' "$out" | head -40
		fi
	done
done
exit $((failed > 0))
