// Package index is Plateau's database: a façade over SQLite, the store of
// record, and internal engines with one job each. It opens a database
// directory (Open), imports records into it, searches them (exact
// position, pattern, player, tags, text), answers opening trees and
// crosstables, and keeps the games (SaveRecord, AddRecords, Delete,
// SetTags, re-imports that supersede records), every revision of a game
// included (History, Revision). It takes records; it never opens files.
//
// # Package map
//
//   - index: the façade: Open and the schema (db.go), imports and edits
//     under the import lock (import.go, edit.go), the searches, lists and
//     trees (query.go, filters.go, list.go, tree.go…), and the bridges to
//     the engines (positions.go, text.go, patscan.go).
//   - internal/criteria: the one definition of the search criteria
//     (Query, their table by name, ParseQuery) and their SQL over the
//     games table, the date column's form, a list's order and seek, and
//     the cache of counts.
//   - internal/writer: the one writer of games: the import pipeline
//     (chunks, replay workers, the memory budget), its transactions and
//     their commits, supersede on re-import, saves of new revisions
//     (SaveRecord, SetTags), AddRecords and Delete.
//   - internal/revisions: the revisions of the games: their table, the
//     current revision, what changed from one to the next.
//   - internal/posrun: the position-run engine: every position of every
//     valid game as sorted runs of compressed blocks, with lookups in read
//     snapshots, merges, fences, Bloom filters and compaction.
//   - internal/gamerows: a record replayed and turned into the rows of
//     its game (columns, move list, positions, tree moves, tags).
//   - internal/treeagg: the opening-tree aggregate (tree, tree_players).
//   - internal/tree: an opening tree read: the aggregate's rows and the
//     deeper occurrences joined with their games' move lists.
//   - internal/textindex: the Bleve text index.
//   - internal/pattern: the pattern language, its matcher over stored
//     move lists and its scan of the games; internal/movelist: the compact move list codec.
//   - internal/dirlock: the import and merge locks of a directory.
//   - internal/faults: the invalid games' errors, grouped by kind, and
//     the warnings of valid games.
//   - internal/gametext: the games' canonical texts read from their
//     compressed blocks (whole, their tags, or streamed), with the block
//     caches.
//   - internal/players: player names matched (folded words, prefixes,
//     edit distance), pages of a player's games read by name word or by
//     player and side, the name index's build, crosstables.
//   - internal/openings: the named positions and each game's opening
//     (the deepest named position it reaches), stored per game.
//   - internal/stats: what a database holds (games per ruleset, kept in
//     meta between imports; players, sources, sizes).
//
// The on-disk layout, its history and the measurements behind the
// decisions below are in docs/storage.md.
//
// # Decisions
//
// SQLite's commit is the truth. A game, its positions, tags, names and
// tree counts are written in one transaction, so that kill -9 leaves all
// or nothing, and running the same import again skips what was committed
// (duplicates by the hash of the canonical text) and completes the rest.
// Invalid records (syntax errors, illegal moves, unknown games, wrong
// results) are stored with their first error and listed; an invalid copy
// of a record is replaced when a later import finds it valid. A file read
// completely is marked done with its size and mtime and skipped next time
// unless changed.
//
// The text index follows SQLite: it is written after each commit, its
// high-water mark kept in SQLite (meta text_hw), so that the next writable
// import indexes the games a kill left out; edits list the games to index
// again in text_todo, in their transaction, and the next writable Open
// works off a list a kill left. A damaged text index is rebuilt from
// SQLite by the next import, telling Options.Notice. Games committed but
// not yet in the text index are found by every other criterion.
// TextCoverage compares the text index's documents with the valid games
// (and counts the edits not written to it), so that readers say that a
// text query may miss games; the next import completes a partial index
// from its high-water mark, or rebuilds it when it lacks games below the
// mark (files lost or restored), telling Notice either way.
//
// Readers open the database read-only and work while an import runs:
// SQLite through WAL, text searches because nobody keeps the text index
// open (internal/textindex). A reader that caches learns from Version
// (SQLite's data_version) that anything was committed since, by any
// process. A database whose directory or file cannot be
// written is opened for queries with mode=ro (immutable unless a killed
// import left a WAL), and a writable open refuses it with ErrReadOnly.
// SQLite's "database or disk is full" is reported with the database's
// path.
//
// Writers take turns where they must: imports, reindexes and compactions
// hold the import lock for their whole length (the second waits, saying
// so); a merge of position runs holds the merge lock (internal/posrun).
//
// Layouts have a version (meta schema, now 8). A writable Open upgrades
// layouts 5, 6 and 7 in one transaction each, telling Options.Notice; a
// read-only one reads layouts 6 and 7 as they are (7: every game at its
// revision 1) and refuses 5, saying how to upgrade it; any other version
// is refused with ErrSchema: import the records again into a new
// directory.
//
// Writing games: a save replaces a game's record by a new revision under
// the same id, in one transaction, made from the revision the caller read
// (else ErrConflict, nothing saved); every earlier revision is kept (its
// text stays in its compressed block) and listed with when it was saved,
// its size, validity and what changed (internal/revisions); a tag edit is
// a save. A save's position occurrences are its record's at once: those
// it loses are listed gone (internal/posrun), those it adds written in a
// run of its own. A game saved in the database is never superseded by a
// re-import of its file. Records added as text (AddRecords) are new games
// of a source that names no file.
//
// Keeping a database: ids are never reused and a save keeps the id; a
// game's rows are found again by replaying its stored record, which gives
// the same keys and tree moves as when it was imported; a deleted game's
// position occurrences stay until a merge drops them (readers join the
// games table); the tree's first and last dates are not narrowed by a
// delete. A re-read file supersedes a stored game when a different record
// stands at its offset or line and the game is not found again in the
// file (import --replace: every game of the file not found again).
//
// Queries: player criteria match the folded names (lower case, accents and
// punctuation removed): every word of the query must be a prefix of a word
// of the name or within edit distance 1 (2 for 8+ letters), which gives
// exact id sets that combine with every SQL criterion; a page of a
// player's games is read by name word or by player and side, whichever
// takes fewer seeks. Event, site and termination match as substrings
// without regard to case or accents (the SQL function plateau_fold), tag
// names in any case, dates by prefix. Variations are not counted in
// trees: they are comments, not games played. A pattern is matched on
// stored move lists, never on record text unless the moves are stale
// (internal/pattern).
package index
