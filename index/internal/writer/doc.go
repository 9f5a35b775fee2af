// Package writer stores games: it is the database's one writer, for an
// import (DB.Import: records in, replayed and stored in order) and for the
// edits (DB.SaveRecord, DB.SetTags, DB.AddRecords, DB.Delete). It takes its database from the façade,
// package index, as a DB: the SQLite handle, the position runs, the text
// index, and what the façade does around a write (the text index's
// catch-up and its list of edited games, the stored counts). It never
// opens files and never takes the database's locks: the façade holds the
// import lock around an import.
//
// An import is a pipeline (internal/pipeline): the caller's records are
// cut into chunks (chunker), replayed and turned into rows by workers
// (gamerows), stored in order by one transaction writer (txn), and
// indexed for text search after each commit (textStage). The writer is the
// one serial stage: the others run on threads of lower priority
// (helperNice) and keep ahead of it within a memory budget (budget).
//
// Decisions:
//
//   - Transactions. A game, its positions, tags, names and tree counts
//     are written in one SQLite transaction of TxGames games (by default a
//     tenth of the database, within 5,000 and maxTxGames, or those written
//     in maxTxTime when fewer, so that an import stopped keeps what it read
//     but its last seconds), which also ends when its text documents weigh
//     maxTxDocs. Its rows are stored before
//     the commit whenever they weigh MaxTxHeld (txn.flushHeld), the
//     positions as a run of their own, so that a transaction's memory stays
//     bounded. The commit is the truth: a kill leaves all of a game or
//     nothing, and running the import again skips what was committed
//     (duplicates by hash) and completes the rest. A valid game replaces
//     the same record stored invalid.
//   - Text index. A commit's documents go to the text index after the
//     commit, a turn of at most TextTurn at a time, the index released
//     between turns for readers in other processes; the highest id indexed
//     is stored with the next commit (meta text_hw), so that the next
//     import catches up with what a kill left out.
//   - Budget. The records and rows between the reader and the writer weigh
//     at most maxInFlight (estimated: recordWeight, preparedWeight); the
//     reader waits beyond it, unless nothing is held.
//   - Position runs. A commit's positions make a run; runs are merged
//     beside the writer while the next transaction is written
//     (posrun.Beside), and an import's last commit merges what is left
//     within a budget (TailFactor). A failed merge after a commit leaves
//     the games committed (afterCommit).
//   - Bulk. An import of files about as large as the database or larger
//     leaves the games' player and date indexes out until its end (isBulk,
//     store.Deferred). An import of files of at least bulkMinBytes spools
//     its opening-tree moves and adds them to the tree a group at a time
//     and at its end (treespool.go).
//   - Supersede on re-import. A game stored from a file is removed when a
//     new read of the file has, at its offset or line, a different record
//     and the game is not found again in the file (ImportOptions.Replace:
//     every game not found again); a game found again elsewhere takes its
//     new offset and line. Removals happen when the file has been read to
//     its end, in the transaction that marks it done.
//   - Edits. Delete and saves remove a game's rows in one transaction by
//     replaying its stored record, which gives the same keys and tree moves
//     as its import; a save (SaveRecord, SetTags) stores the new record
//     under the same id as the game's next revision (save.go), its
//     position occurrences replaced (posrun.Replace). AddRecords stores
//     records given as text as new games (add.go). Ids are never reused. A deleted game's position occurrences stay
//     in their runs until a merge drops them (readers join the games
//     table). The games edited are listed in text_todo in the transaction,
//     and the façade's SyncText brings the text index in line after the
//     commit.
package writer
