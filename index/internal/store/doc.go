// Package store holds the parts of the database's write side that the
// game writer (internal/writer, the one write transaction of an import or
// an edit) drives:
//
//   - WriterConn, Checkpointer: the writer's connection (its page cache
//     and automatic checkpoint) and the checkpoints run beside it;
//   - Deferred, Missing, DropDeferred, Restore: the indexes that a bulk
//     import leaves out while it stores its games and builds at its end;
//   - Texts: the games' canonical texts, compressed in blocks;
//   - IDs: the ids of the players, tag names and sources games refer to;
//   - Names: the index of the games by player name word;
//   - Stmts, InsertRows: a transaction's statements, prepared once each,
//     and the multi-row INSERT the rows are stored with;
//   - RawStmt, RawStmts: the import's writes, each statement run in one
//     call into SQLite rather than one for every value it binds.
//
// Decisions: the writer's connection checkpoints late and a goroutine
// checkpoints after each commit (PASSIVE), so that the serial writer
// never waits for the disk inside its commit; the games' player and date
// indexes are random-key B-trees, built in one sorted pass after a bulk
// import rather than kept up to date commit after commit; a block of
// texts is compressed by a goroutine of its own while the writer goes on
// with the next games. The package takes *sql.DB, *sql.Conn and *sql.Tx
// from its caller and keeps no state of its own but the checkpointer's
// goroutine, the blocks of texts being compressed and the RawStmts
// prepared on the connection it is given.
package store
