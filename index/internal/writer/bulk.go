package writer

// A bulk import leaves the games table's player and date indexes
// (store.Deferred) out while it stores its games and builds them at its
// end (store's doc says why).
//
// An import is bulk when its files weigh at least bulkMinBytes and at least
// bulkBytesPerGame for each game already stored (about as many games as
// the database holds, at a KiB a game; a compressed file counts as stored,
// so that it is rather under-counted): rebuilding the indexes costs the
// games of the whole database, leaving them out saves the games imported.
// An import whose size is not given (ImportOptions.Bytes 0: records made
// by the caller) is never bulk. A bulk import killed before it builds them
// leaves them out: the next import builds them (store.Restore), or the
// façade's next writable open.
const (
	bulkMinBytes     int64 = 32 << 20 // Tuning.BulkMinBytes for tests
	bulkBytesPerGame int64 = 1 << 10
)

// isBulk tells whether an import of files weighing bytes into a database
// of games games is bulk, bulk imports weighing at least minBytes.
func isBulk(bytes, games, minBytes int64) bool {
	return bytes >= minBytes && bytes >= games*bulkBytesPerGame
}
