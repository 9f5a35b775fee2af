#!/bin/sh
# killtest.sh — kill imports with SIGKILL at random moments and check the database.
#
#   scripts/killtest.sh [KILLS] [GAMES] [RULESET] [SEED]
#
# Builds plateau, generates GAMES games of RULESET (plateau generate), imports
# them once without interruption, then imports them again while killing the
# import KILLS times at random moments (internal/killtest): after each kill
# the database must pass PRAGMA integrity_check and hold every stored game
# whole (positions, opening tree; a text index with no game SQLite lacks);
# the import is then run to its end and the database compared with the
# uninterrupted one (game count, sha256 of the records as dbexport writes
# them, a text query). Then it kills REINDEX_KILLS reindexes of that
# database (default 5): after each, a reader must say how much of the
# store the text index holds, and the next import must say that it
# completes it, and complete it. Then it kills SAVE_KILLS streams of saves
# (index.DB.SaveRecord, as edit, tag and the web page save; default 5) on a
# copy of it: after each, every game saved must be whole at one revision
# (its record is its current revision's text, one the stream made, and its
# validity, plies and position rows are those that text makes in a fresh
# database), and the stream run to its end must leave the records of an
# uninterrupted one. Prints one line per kill and a summary;
# exits 1 on any failure. Defaults: 20 kills, 20000 draughts games, seed 1.
# Environment: TX (games per transaction, default 200), REINDEX_KILLS,
# SAVE_KILLS, KEEP=1 keeps the work folder.
set -eu
cd "$(dirname "$0")/.."

KILLS=${1:-20}
GAMES=${2:-20000}
GAME=${3:-draughts}
SEED=${4:-1}
TX=${TX:-200}

work=$(mktemp -d)
if [ "${KEEP:-0}" != 1 ]; then
	trap 'rm -rf "$work"' EXIT
else
	echo "work folder: $work"
fi
go build -o "$work/plateau" ./cmd/plateau
"$work/plateau" generate --quiet --game "$GAME" --games "$GAMES" --seed "$SEED" --out "$work/g.pdn"
go run ./internal/killtest -plateau "$work/plateau" -file "$work/g.pdn" -work "$work" \
	-kills "$KILLS" -reindex-kills "${REINDEX_KILLS:-5}" -save-kills "${SAVE_KILLS:-5}" -tx "$TX" -seed "$SEED"
