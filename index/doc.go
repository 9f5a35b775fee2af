// Package index is Plateau's database: the SQLite store of record, the Bleve
// text index, the import pipeline and every query (exact position, pattern,
// player, tags, opening tree, crosstable).
//
// # Layout
//
// A database is a directory (DefaultDir: $PLATEAU_DB, else
// $XDG_DATA_HOME/plateau, else ~/.local/share/plateau) holding
// plateau.sqlite (WAL mode, busy timeout, immediate write transactions;
// a new file has 16 KiB pages, db.go pageSize, an older one keeps its 4
// KiB) and text.bleve. Its size (DiskSize) is every file of the
// directory; an import ends with a TRUNCATE checkpoint so that no large
// WAL is left behind.
//
// The layout has a version (meta "schema", now 7). Version 1 (no entry)
// kept positions(key, ply, game, var) and tags(name, value, game); version
// 2 had no warnings table and kept dates as written; version 3 kept
// positions in one B-tree (position_rows); version 4 had no top players in
// the tree rows (Tree ranked every tree_players row of the position: 25–55
// ms at the start position of 2M games); version 5 had a tree_players row
// per (key, move, player) and no tree.np, and a writable Open upgrades it
// in one transaction (upgrade.go; a read-only one says how); version 6 had
// no name index (name_words, name_games: names.go), which a writable Open
// builds in one transaction (upgrade6) and a read-only one does without
// (player pages read by player); Open refuses
// a database of another version with ErrSchema: import the records again
// into a new directory.
//
// Where the bytes go: generated Ōgi games (about 1,090 bytes of record
// text and 89 positions each) take 2,759 database bytes a game at
// 1,000,000 games (2.53× the text; layout 5 and a text index with _all:
// 2,895; layout 3: 3.15×), 2,781 at 2,000,000, 2,927 at 10,000,000 (2.69×;
// one import of ten files into an empty database). Layout 5's figures: at
// 1,000,000, 2,983 bytes a game (2.74×). At 2,000,000 (the
// second million imported into the first) the tables and the text index
// hold about 2,820 bytes a game — position runs 1,230, games 700 (of which
// the move list about 400), texts 470 (64 KiB zstd blocks; 16 KiB now: about 530), tree and
// tree_players 165, tags 60, indexes 80, text index 120 — and the file
// keeps the pages that merges of position runs freed (about 675 bytes a
// game, reused by later merges and imports; VACUUM gives them back).
//
//   - games: one row per record, valid or not: ruleset, validity, players
//     (ids into players), event, site, date, result, termination, ply count,
//     provenance (source file, byte offset and line of the record), the first
//     error (message, line, column, ply, move, rule), a 128-bit prefix of the
//     SHA-256 of the canonical text (UNIQUE: duplicates are skipped), the
//     start position when not the standard one, the main line's final key,
//     the compact move list (below), and where its canonical text is.
//   - texts: canonical record texts, concatenated and zstd-compressed (the
//     default level: import.go zenc) in blocks of about 16 KiB (small
//     records compress poorly one by one; showing one game reads its block
//     and decompresses it up to the game; larger blocks compress better but
//     made a game's page cost more: writer.go blockSize).
//   - players (name, folded name), sources (path, size, mtime, done).
//   - name_words (id, word) and name_games WITHOUT ROWID (word, game,
//     player): every valid game under each word of its players' folded
//     names, for player pages (names.go).
//   - warnings (game, kind, msg, line): the warnings of a game (replay's
//     Warning: a Result tag that disagrees with the movetext or an
//     unfinished final position, the ruleset detected for an untagged
//     record), listed by Warnings; deleted with their game by a trigger.
//   - The date column holds the Date tag normalised by NormalizeDate
//     (YYYY.MM.DD with ?? for unknown parts, "" when nothing is known), for
//     search and the tree's first and last dates; the record text keeps
//     the tag as written.
//   - tags WITHOUT ROWID (tag, value, game), tag a tag_names id: every tag
//     of a valid game without its own column. The players' tags (the rules'
//     side names: Sente, White…) are the players columns, not repeated here;
//     a tag criterion on a side name is answered from them.
//   - pos_runs and pos_blocks (posruns.go): every position of every valid
//     game, main lines and variations, for exact-position lookups and
//     transpositions, as sorted runs (one per import commit, merged eight
//     to one by size level) of delta- and varint-coded blocks of
//     occurrences (key, at), at = game<<13 | ply<<1 | var (var = 1 in a
//     variation; plies up to 4095 — a longer record is stored invalid).
//     The occurrences that the tree aggregate counts (main line, ply <
//     TreeDepth) are stored under the salted key, the others under it XOR
//     the deep salt (1 since meta deep_salt exists: the two keys are
//     neighbours, in one block of a run; a constant that spreads them in
//     databases made before), so that Tree reads only the second list and
//     a position search merges both, in (game, ply, var) order. A lookup
//     finds the block of each run in memory (posfence.go: the last key of
//     every block, loaded once per run by a handle's background loader;
//     until it is, the lookup seeks that run's block through the index)
//     and reads those blocks by id in one statement, skipping the runs
//     whose filter rules the key out: pos_filters (posfilter.go) holds a
//     Bloom filter of the keys of each run of at most 32 Mi occurrences,
//     written with the run by its commit or merge and deleted with it,
//     which the same loader reads. A run id is never given twice (meta
//     pos_run_high), so that what a handle keeps of a run id holds while
//     it is listed. The stored key is the
//     rules' 64-bit key XOR a hash of the ruleset id, so that rulesets
//     sharing a key scheme never share positions. A variation's branch
//     point is the line's position it branches from, so it is flagged
//     with that line's depth. A commit appends its run (sequential blob
//     rows); inserting each occurrence into one B-tree (layout 3) rewrote
//     most of its pages at every commit, and import slowed as the
//     database grew. CompactPositions (plateau compact, compact.go) merges
//     every run into one, so that a lookup reads one block: at ten million
//     Ōgi games the import leaves 13 runs, and a lookup from a cold page
//     cache read up to 13 blocks at random places of a 28 GB file (this
//     machine's disk: about 0.8 ms a random 16 KiB read, no faster side by
//     side). Measured there (plateau bench --queries-only, page cache
//     dropped first): lookup p50 7.9 ms → 474 µs (the same positions
//     again: 973 → 242 µs); the compaction took 332 s (269 s user, 97 s
//     system, 185 MB peak) for 908 million occurrences, and left the file
//     8.3 GB larger (the merged runs' pages, free for later writes: 3,754
//     bytes a game, 3.45× the text, until they are reused).
//   - Writers of one database take turns where they must (mergelock.go):
//     imports, reindexes and compactions hold the import lock for their
//     whole length (another waits), and a merge of position runs holds the merge lock
//     from the transaction that chooses its runs to the one that lists
//     its run (a server's edit or another merge finding it taken leaves
//     merging to its holder). Flock on files of the directory, released by
//     the kernel when a process dies. Readers take no lock.
//   - tree (key, move) → occurrences, scored games, points of each side,
//     first and last date, number of players (np), top players;
//     tree_players (key, move, chunk) → the counts of the players of a move
//     of more than three players, 512 player ids to a chunk. Both are
//     aggregated in the import transaction for the main-line moves of the
//     first TreeDepth plies; Tree adds deeper occurrences from the
//     positions table (few games share a deep position), formatting each
//     move by replaying the game's stored moves. Variations are not counted
//     in trees: they are comments, not games played. Top players of a
//     move: the three with most games in the aggregate (ties: the lower
//     player id), plus the deeper ones. The aggregate's three are kept in
//     the tree row (top: up to three (player, count) uvarint pairs,
//     treetop.go), so that Tree reads one row per move and never the
//     player counts of a position (about 72,000 at the start position of 2M
//     Ōgi games). A move of at most three players — most moves: a deep one
//     is usually one game's — has them all in top and no tree_players row;
//     the import reads the tree rows it updates and the chunks of the
//     touched players of the other moves, and writes them back with the
//     new top (exact, since counts only grow); a delete computes a move's
//     top again from its chunks when it lowers the count of one of its
//     three. Layout 5 kept a tree_players row per (key, move, player),
//     read and upserted for about seven players a game in each commit; the
//     chunks cut the import's CPU by about a tenth and the database by 3.5%
//     (treetop.go).
//
// # Import
//
// ImportRecords takes records, never files (internal/ingest reads them
// with importers.Source: directories, globs, stdin, .gz, .zst, .bz2, zip
// archives, charsets); one goroutine cuts them into chunks of 64 records
// of one file; one worker per CPU replays each record
// (replay.Replay) and prepares its rows; one writer stores chunks in file
// order, in transactions of ImportOptions.TxGames games (by default a tenth
// of the database, from 5000 to 200,000 games; the rows a transaction
// holds are stored before its commit whenever they weigh txHeld (256 MiB), and
// the writer's page cache grows with the database, so that the pages of
// the random-key B-trees are written once a commit: at 10,500,000 games
// this halved an import's time), positions,
// tags and tree rows sorted by key before insertion, the tags and tree rows
// 128 to an INSERT statement (a statement's trip through database/sql, cgo
// and the driver cost as much as SQLite's work for a row; the writer's
// statements run without a cancellable context, for which go-sqlite3
// starts a goroutine per statement: together about 17 µs of the writer's
// CPU a game less, at 100,000 Ōgi games). The writer is the one serial
// stage, and what can leave it does: a commit's positions are sorted and
// encoded into blocks by a goroutine of their own while the writer stores
// the tags and tree rows, text blocks are compressed by goroutines, the
// merges of position runs are computed beside the writer, which only
// stores the merged blocks (posmerge.go), and the WAL is checkpointed by a
// goroutine after each commit, on another connection, while the writer
// goes on (checkpoint.go; the writer's own connection has a 256 MiB page
// cache). The stages that only need to keep ahead of the writer (the
// reader, the replay workers, the text indexer) run on threads of their
// own, five steps nicer than the writer's (import.go helperNice,
// nice.LowerThread): when both want a processor, the writer gets it. A
// large import into a small database is a bulk import: it leaves the
// games' player and date indexes out until its end (bulk.go). With both,
// 1,000,000 Ōgi games into an empty database took 98.9–111.2 s (plateau
// import, seven runs, mean 104.7 s, 9,550 games/s) against 104.8–124.5 s
// (seven runs, mean 115.3 s) before, on a machine where the same run
// varies by ±10%; the priorities alone, without the bulk import, did not
// make a difference (113.0–130.4 s). 1,000,000 Ōgi games into an empty database and into one of
// 1,000,000: 187.2 → 152.4 s and 297.5 → 221.9 s with these three
// (plateau import, 2 cores, the binaries run in turn; at 2,000,000 the
// file then kept 596 MB of free pages, against 134 MB, for later merges
// and imports). Ten million, one import of ten such files into an empty
// database: 2,887 s, 3,464 games/s, 4.4 GB of memory at most; every game
// committed within 2,162 s, then about 727 s of merging the full levels
// of position runs into one (2 runs left) and the last checkpoint. That
// merge deletes the blocks it has read as it goes (runMerge.release), so
// that the merged run takes their pages: SQLite 25.3 GiB with 724 MiB
// free, 2,789 bytes a game, 2.56× the record text. With the name index
// (names.go) and merges that skip the valid-game filter when nothing was
// deleted (liveGames): 2,917 s, 3,429 games/s on a slower evening (the
// stages the change did not touch took 10–25% more CPU), committed at
// about 2,340 s, the last merges about 577 s instead of 727; 2,850 bytes
// a game, 2.62×; 4 runs left, which the end's tail merge (mergeTail)
// now makes 2 (500,000 more games into it: 162 s with the tail merge,
// then a cold lookup p50 1.0 ms instead of 1.3). Keeping its sources
// until the swap: 3,115 s, 3,210 games/s (committed at 2,403 s), 9.9 GiB
// of free pages left, 3,779 bytes a game, 3.47×. With transactions of about
// 25,000 games and a 256 MiB cache: 3,740 s, 2,674 games/s (5,681 at 1M,
// 4,547 at 3M, 3,666 at 5M, 2,838 at 9M; about 2,000 over the last
// million, 13 runs left); the writer's CPU grew with the database, 196 µs
// a game over the ten million (flush 86, add 66, commit 32, sort 9)
// against 80 in the first million: per row, B-tree descents and pages read
// from the OS grow with the trees (the tree, tags and games indexes).
// With a transaction's positions in runs of 256 MiB of rows (maxTxHeld)
// and the tail merge of tailOf, on a faster machine (2 cores):
// 1,000,000 Ōgi games into an empty database 71.4 s, 1,000,000 more 84.7
// s (98.5–100.1 s before, same machine), ten million in 894.9 s, 11,175
// games/s (1,166 s before), 3,095 bytes a game (2.84×, of which 3.2 GB of
// free pages that the last merges freed), 2 runs left, 6.7 GB of memory
// at most (plateau bench). Invalid records (syntax errors,
// illegal moves, unknown games, wrong results) are stored with their first
// error and listed by Errors; an invalid copy of a record is replaced when a
// later import finds it valid (--force). A file read completely is marked
// done with its size and mtime and skipped next time unless changed.
//
// Crash safety: SQLite's commit is the truth. A game, its positions, tags
// and tree contributions are written in one transaction, so kill -9 leaves
// either all or nothing; running the same import again skips what was
// committed (duplicates by hash) and completes the rest. The text index is
// written after each commit, in batches of up to 5000 documents or 8 MiB of
// text (never unsafe_batch), by its own goroutine; the highest indexed game id is kept
// in SQLite (meta text_hw) and, on the next writable import, games beyond it
// are indexed again.
//
// Readers open the database read-only and work while an import runs: SQLite
// through WAL, text queries because nobody keeps the text index open. Bleve
// (boltdb) admits one writing process or several reading ones, so the index
// is opened for one piece of work and closed after it: an import opens it
// for one commit's documents (then runs the merges Bleve's merge policy
// plans, as its background merger would, and closes it; it reopens it no
// sooner than 120 ms later, so that a waiting reader gets in), a query for
// one search (about 0.5 ms more per text query). A reader waits up to 20 s
// for the import's turn to end before failing with ErrTextBusy; an import
// waits up to a minute for readers. Games committed but not yet in the text
// index are found by every other criterion. Read-only opens of one process
// search side by side (boltdb's shared lock); a writable one's take turns.
//
// Position lookups during an import (posruns.go, posfence.go): a read
// snapshot is a BEGIN DEFERRED on one of a few connections the handle
// keeps with their prepared statements (readConns), not a database/sql
// transaction; its statements run under the caller's context without its
// end (quiet), which its loops check instead; and a lookup never loads a
// run's fence, the handle's background loader does. Each of the first two
// started goroutines at every lookup (a transaction's, a query's, an
// Exec's watcher: five a lookup under plateau's context), and on two
// processors busy with an import, waking the threads that ran them left
// about one lookup in a hundred asleep for 3–5 ms (seen in the switches of
// the query's thread: one sleep, in the Go scheduler, not in SQLite); the
// third cost the first lookup after each new run a read of a key a block
// (2–20 ms during an import of 1,000,000 Ōgi games, 0.6–1.0 s on a new
// handle of ten million). Then the runs' filters: an import of 1,000,000
// Ōgi games into an empty database holds 8–18 runs for most of its length
// (2 after it), and a lookup of a middle-game position, held by one run
// at most, read a block of each: its p50 followed the number of runs (337
// µs at 2 runs, 600–760 µs at 8–18). The filters leave the lookup the
// runs too large to filter (the one or two largest) and about 1 in 100 of
// the others. They are written by the writer, not built by the readers
// from the blocks (a first version: a reader's handle decoded every new
// run again during an import, and lookups waited more often). An opening
// tree (Tree) reads its aggregate and the occurrences it does not count in
// one such snapshot. A snapshot's BEGIN and ROLLBACK are prepared with its
// connection. What remained was the processor: `plateau import` runs at
// SCHED_IDLE by default (internal/nice says why and what it costs), and
// the database file is not mapped (PRAGMA mmap_size): a WAL reader drops
// its map of the file with its page cache when another connection has
// committed (pagerBeginReadTransaction), and maps it again at its next
// read, so that a lookup after a commit took 66 µs p50 instead of 42 (20,000
// Ōgi games, BenchmarkQueries/position-after-commit).
//
// Failures (internal/textindex, readonly.go, diskfull.go): a failed open of the text
// index is ErrTextBusy only when its lock timed out; damaged files are
// ErrTextBroken, and the next import (catchUpText) rebuilds the index from
// SQLite by itself, telling Options.Notice; a file-system error keeps its
// path. SQLite's "database or disk is full" is reported with the database's
// path. A database whose directory or file cannot be written is opened for
// queries with mode=ro (immutable=1 unless a killed import left a WAL with
// its -shm, which SQLite then reads read-only); a writable open refuses it
// with ErrReadOnly. A text query is at most 1 KiB, 32 words and 4
// wildcard, fuzzy or regexp words (Bleve's parser is quadratic in the
// text, and each pattern expands over the term dictionary); it is parsed
// before the index is opened and runs under the caller's context.
//
// # Keeping a database
//
// Delete, SetTags and a re-import that supersedes records (edit.go,
// supersede.go) undo what import wrote for a game — its row, tags,
// positions, opening-tree counts, players left without games — in one
// SQLite transaction, finding the rows by replaying the stored record; the
// text index follows after the commit from the ids listed in text_todo in
// that transaction, so a process killed between the two is caught up by the
// next writable Open. Decisions: ids are never reused and a tag edit keeps
// the id; a re-read file supersedes a stored game when a different record
// stands at its offset or line and the game is not found again in the file
// (import --replace: every game of the file not found again); the tree's
// first/last dates are not narrowed by a delete; a move's stored top
// players are computed again from tree_players, in the same transaction,
// when a removed game was one of theirs.
//
// # Queries
//
// Player criteria are matched on the folded names of the players table
// (lower case, accents and punctuation removed): every word of the query
// must be a prefix of a word of the name or within edit distance 1 (2 for
// 8+ letters); this gives exact id sets that combine with every SQL
// criterion. A page of a player's games is read from indexes in id order
// by key, a few games per key at a time, merged in Go, so that it costs
// the same for a player of ten games and one of fifty thousand: the keys
// are the name words one query word matches (name_games, names.go: one
// seek for all the players sharing a surname), or each matched player and
// side (games_p0/games_p1), whichever is fewer; more than 200 keys scan the
// games in id order. Bleve holds one document per valid game (players, event, site,
// annotator, comments with an ASCII-folding analyzer; game, result, date as
// keywords) for Query.Text, a Bleve query string. A term written without a
// field (or with _all) searches each of the five text fields, as the
// disjunction of the same term over them (textindex.Parse): documents
// have no _all field since 2026-12, which held every text token a second
// time, with term vectors; indexes written before keep theirs for their
// older games and are searched the same way, with the same answers (only
// scores differ). Without _all, indexing takes about a third less CPU
// (BenchmarkTextIndex, 50,000 Ōgi games: 54 against 36 µs a game) and the
// index 120 instead of 168 bytes a game. The fields keep no word
// positions, so a "phrase" (field:"phrase") matches the games that hold
// all the words of the phrase in one field (the one named, else any text
// field), in any order (textindex phraseWords; it once matched no game):
// positions (term vectors) would take the index from 124 to 215
// bytes a game (BenchmarkTextIndex, 20,000 Ōgi games), and indexes
// written without them would still need this search. Event, site and
// termination match as substrings without regard to case or accents (the
// SQL function plateau_fold, fold.go), tag names in any case, dates by
// prefix. A pattern naming a piece or square the ruleset has not is an
// error (pattern_check.go).
//
// Pattern search never re-reads record text: it plays each candidate game's
// compact move list (the rules.Move values as varints, with variations),
// decoding and playing in one pass, and tests every position. A position
// that implements rules.Cells (every game's does) copies its board into a
// byte per square and its hands into counts; the pattern is compiled once
// per rules.Layout into square indexes and tables of accepted codes, its
// cheapest terms first, so that a position is tested in a few look-ups
// without allocation; other positions are tested on Board. Positions whose
// history grows with every move (rules.Reserver) are copied with room for
// the stored moves of their line. One goroutine
// reads only id, start position, final key and moves of the candidate games
// in id order (batches of 256 games into reused buffers), one worker per
// CPU tests whole batches, and the caller takes the answers in order,
// stopping the scan once a page of matches is found unless a count is
// asked; the hits' other columns are read for the page only. A game whose
// stored moves do not replay to its stored final key (a rules package whose
// move encoding changed), or make the rules panic, is matched from its
// record text instead, so answers stay correct. A pattern match is reported
// at the first matching position in play order (variations before the move
// they replace). There is no per-game summary that lets a scan skip games:
// a full scan tests every position. On the two-core machine of issue #17
// (November 2026) it costs 73 ns a position, 135 ns of CPU
// (BenchmarkPattern/full), the reader's SQLite rows about a fifth of it:
// `plateau bench` 5.6 s for 1,000,000 Ōgi games, 11.0 s for 2,000,000,
// and 57–64 s for 10,500,000 once the games table is in the page cache
// (96 s when it is not), about 110 s of CPU a scan. The two-core machine
// of 28 November 2026 is faster: 2.37 s for 1,000,000 games, 21.8 s for
// 10,000,000 right after their import, 23.5 s (p50 of three scans, the
// first 48.7 s) after the page cache was dropped, 41–47 s of CPU a scan.
package index
