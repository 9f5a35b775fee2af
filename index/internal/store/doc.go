// Package store holds the SQLite mechanics of the database's write side
// that are not about a game's rows: the connection of an import's writer
// (its page cache and automatic checkpoint), the checkpoints run beside
// it, the deferred indexes that a bulk import leaves out while it stores
// its games and builds at its end, the compressed blocks of the games'
// canonical texts (Texts), and the statements of a transaction, prepared
// once each, with the multi-row INSERT the writer stores rows with
// (Stmts, InsertRows).
//
// Decisions: the writer's connection checkpoints late and a goroutine
// checkpoints after each commit (PASSIVE), so that the serial writer
// never waits for the disk inside its commit; the games' player and date
// indexes are random-key B-trees, built in one sorted pass after a bulk
// import rather than kept up to date commit after commit; a block of
// texts is compressed by a goroutine of its own while the writer goes on
// with the next games. The package takes *sql.DB, *sql.Conn and *sql.Tx
// from its caller and keeps no state of its own but the checkpointer's
// goroutine and the blocks of texts being compressed.
package store
