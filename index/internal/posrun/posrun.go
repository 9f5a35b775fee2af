// Package posrun is the position-run engine of a Plateau database: every
// position of every valid game, as occurrences (key, at) stored in sorted
// runs of compressed blocks in the database's SQLite file, with the
// lookups, merges and compaction that keep them few.
//
// An occurrence is a stored key and at = PackAt(game, ply, var): one
// integer, so that a key's occurrences sort in (game, ply, var) order. A
// key is stored as the caller's salted position key when the opening-tree
// aggregate counts the occurrence (counted), else XOR the database's deep
// salt (Key): a tree reads only the second list, a position search merges
// both (Keys). A new database's deep salt is 1, which keeps a position's
// two keys neighbours in the same block; databases made before keep the
// constant that spreads them (meta deep_salt absent).
//
// Decisions:
//
//   - Occurrences are not rows of one B-tree (inserting a commit's keys,
//     spread over the whole key space, rewrote most of its pages at every
//     commit) but sorted runs, LSM-style: pos_runs(run, entries, level)
//     lists the live runs; pos_blocks(run, last, data) holds each run's
//     occurrences in (key, at) order, in blocks of about blockBytes, delta-
//     and Rice-coded with parameters chosen per block (block.go), indexed
//     by (run, last key). A commit appends one
//     run (WriteRun): sequential blob rows.
//   - Runs are merged when MaxRunsPerLevel runs of one size level exist
//     (level: log8 of the entries over 64 Ki), so that each occurrence is
//     rewritten about once per 8× growth of the database. The swap is one
//     transaction: readers see the old runs or the new one, never both nor
//     neither. During an import the merge is computed beside the writer,
//     which stores the merged blocks as they come (Beside); elsewhere it is
//     a transaction of its own (MergeLevels). An import ends with a tail
//     merge, so that each run left outweighs all the smaller ones.
//   - A merge holds the merge lock (internal/dirlock) from the transaction
//     that chooses its runs to the one that lists its run; a writer that
//     finds it taken leaves merging to its holder (a level may then hold
//     more runs until the next merge), a compaction waits for it. A merge
//     cut short leaves blocks of an unlisted run, named in meta
//     pos_merging, that readers ignore and the next merge deletes.
//   - A run id is never given twice (meta pos_run_high), so that what a
//     handle keeps of a run id (its fence and filter) holds while it is
//     listed.
//   - A deleted game's occurrences stay in their run until a merge drops
//     them (merges keep the games of Config.Live; NoteDeleted counts the
//     deletions, and while none is counted merges keep every occurrence):
//     readers join the games they show with the store, which no longer
//     holds it. A game stored again under its id adds its occurrences
//     again: readers and merges drop the repeats.
//   - A game stored again with other occurrences (an edit) lists the ones
//     it lost in pos_gone, which lookups skip and merges drop, and writes
//     only the ones it gained (Replace, gone.go): the runs' blocks are
//     never rewritten in place.
//   - A lookup reads, in one read snapshot, the block of each run that may
//     hold the key, found in memory (a run's fence: the last key of every
//     block, loaded by a handle's background loader, never by a lookup),
//     skipping the runs whose Bloom filter rules the key out (written with
//     the run), and merges the runs in at order.
//   - A run stores the count of each key it holds at least hotMin times
//     (pos_counts, listed and deleted with the run), so that Count adds
//     them instead of decoding a popular position's occurrences; it
//     decodes them when an occurrence may be in two runs or is gone
//     (counts.go).
//   - A reader joins a key's occurrences with its own rows (Join: the
//     games it shows) in batches of occurrences that double from
//     joinBatch, so that a page of a popular position reads a few blocks
//     and a few games; the engine knows the caller's query only as one
//     whose first parameter is the batch's game ids.
//   - A read snapshot is a BEGIN DEFERRED on one of a few connections the
//     Store keeps with their prepared statements, not a database/sql
//     transaction, and its statements run without the caller's context's
//     end (Quiet), which its loops check instead: each of those started
//     goroutines at every lookup, whose wake-ups delayed lookups on busy
//     processors.
//
// The measurements behind these decisions are in docs/storage.md.
package posrun

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"

	"github.com/plateau/plateau/index/internal/store"
)

// Tables are the engine's tables, created with a new database.
var Tables = []string{
	`CREATE TABLE IF NOT EXISTS pos_runs(run INTEGER PRIMARY KEY, entries INTEGER NOT NULL, level INTEGER NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS pos_blocks(id INTEGER PRIMARY KEY, run INTEGER NOT NULL, last INTEGER NOT NULL, data BLOB NOT NULL)`,
	`CREATE INDEX IF NOT EXISTS pos_blocks_run ON pos_blocks(run, last)`,
	FiltersTable,
	GoneTable,
	CountsTable,
}

// FiltersTable holds the runs' filters. A database made before it has
// none: a writable open adds it, a read-only one reads no filter.
const FiltersTable = `CREATE TABLE IF NOT EXISTS pos_filters(run INTEGER PRIMARY KEY, data BLOB NOT NULL)`

// Querier is what the engine reads through: a database, a connection or a
// transaction.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Execer runs a statement.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Tx is what writing a run needs of a transaction.
type Tx interface {
	Querier
	Execer
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// Config is what a Store needs of its database beyond the *sql.DB.
type Config struct {
	// Dir is the database's directory, where the merge lock is.
	Dir string
	// ReadOnly: the handle never writes (Open adds no table).
	ReadOnly bool
	// LegacyBlocks: the blocks are of layout 14 or before (block.go), as
	// a read-only handle finds them in such a database; a writable
	// handle's database is upgraded (Repack) before it is opened.
	LegacyBlocks bool
	// Notice is told, if not nil, when a compaction waits for another
	// writer's merge.
	Notice func(msg string)
	// Live reads the games whose occurrences a merge keeps (the stored,
	// valid ones), through q.
	Live func(ctx context.Context, q Querier) (IDSet, error)
}

// Tuning holds sizes that tests make small and a hook; a zero field is
// its default. It may be changed before the Store is used.
type Tuning struct {
	// PagerBatch is the number of blocks a merge's read of a run takes at
	// a time (256).
	PagerBatch int
	// CompactTx is the number of merged blocks a compaction stores per
	// transaction (4096, about 12 MiB).
	CompactTx int
	// BeforeMergeBlock runs before a merge beside a writer hands over a
	// block; its error fails the merge.
	BeforeMergeBlock func(context.Context) error
}

func (t *Tuning) pagerBatch() int { return cmpOr(t.PagerBatch, 256) }
func (t *Tuning) compactTx() int  { return cmpOr(t.CompactTx, 4096) }

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// Store is the engine of one database handle: its read connections, the
// fences and filters it keeps, and its deep salt.
type Store struct {
	db       *sql.DB
	cfg      Config
	deepSalt int64
	reads    readConns   // connections for read snapshots (snapshot.go)
	fences   fenceCache  // the blocks of each run (fence.go)
	gone     atomic.Bool // the database has pos_gone (gone.go)
	Tuning   Tuning
}

// The deep salt marks the stored key of the occurrences outside the tree
// aggregate: adjacentDeepSalt in databases made since it exists (meta
// deep_salt), legacyDeepSalt before.
const (
	legacyDeepSalt   = -0x61c8864680b583eb // 0x9e3779b97f4a7c15 as int64
	adjacentDeepSalt = 1
	deepSaltKey      = "deep_salt"
)

// Create writes the engine's meta entries of a new database, in the
// transaction that creates its tables.
func Create(ctx context.Context, tx Execer) error {
	return setMeta(ctx, tx, deepSaltKey, adjacentDeepSalt)
}

// Open is the engine of db, whose tables exist unless db is a read-only
// handle on a new file. A writable Open adds the tables a database made
// before them lacks (pos_filters). It reads the deep salt: the meta entry
// of a database made since it exists, else the constant of the ones
// before; a database without tables yet takes the new one (it finds no
// position either way).
func Open(ctx context.Context, db *sql.DB, cfg Config) (*Store, error) {
	s := &Store{db: db, cfg: cfg, deepSalt: adjacentDeepSalt}
	var tables int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'meta'`).Scan(&tables); err != nil {
		return nil, err
	}
	if tables == 0 {
		return s, nil
	}
	if !cfg.ReadOnly {
		// A database made before the runs' filters gains their table,
		// And their key counts.
		for _, t := range []string{FiltersTable, CountsTable} {
			if _, err := db.ExecContext(ctx, t); err != nil {
				return nil, fmt.Errorf("schema: %w", err)
			}
		}
	}
	v, err := metaInt(ctx, db, deepSaltKey)
	if err != nil {
		return nil, err
	}
	if v == 0 {
		v = legacyDeepSalt
	}
	s.deepSalt = v
	return s, nil
}

// Close stops the fence loader and closes the idle read connections
// (those in use close when their snapshot ends).
func (s *Store) Close() {
	s.fences.close() // its snapshot's connection goes back to reads
	s.reads.close()
}

// Key is the stored key of an occurrence of the salted key salted, counted
// by the opening-tree aggregate or not; it is its own inverse: the salted
// key of a stored one.
func (s *Store) Key(salted int64, counted bool) int64 {
	if counted {
		return salted
	}
	return salted ^ s.deepSalt
}

// Keys are the two stored keys of a salted key: the tree aggregate's
// occurrences and the others.
func (s *Store) Keys(salted int64) []int64 { return []int64{salted, salted ^ s.deepSalt} }

// An at packs (game, ply, var): game<<13 | ply<<1 | var, so that a key's
// occurrences sort in game, ply, variation order.
const (
	plyBits = 12
	// MaxPly is the last ply an occurrence can hold: a longer game is not
	// stored.
	MaxPly = 1<<plyBits - 1
)

// PackAt is the at of an occurrence at ply of game, var 1 in a variation.
func PackAt(game int64, ply, vari int) int64 {
	return game<<(plyBits+1) | int64(ply)<<1 | int64(vari&1)
}

// UnpackAt is the game, ply and var of an at.
func UnpackAt(at int64) (game int64, ply int, vari int) {
	return at >> (plyBits + 1), int(at>>1) & MaxPly, int(at & 1)
}

// deletedKey is the meta entry counting the valid games deleted, and the
// edits that stored again an occurrence that was gone (NoteRepeat), since
// the last merge of every run: while it is 0, every occurrence is of a
// stored game and in one run only.
const deletedKey = "pos_deleted"

// NoteDeleted counts a valid game deleted (its occurrences stay until a
// merge), in the transaction that deletes it.
func NoteDeleted(ctx context.Context, e Execer) error {
	_, err := e.ExecContext(ctx, `INSERT INTO meta(k, v) VALUES(?, 1) ON CONFLICT(k) DO UPDATE SET v = v + 1`, deletedKey)
	return err
}

// Deleted reads the count of NoteDeleted through q: 0 when every stored
// occurrence is of a game stored and valid.
func Deleted(ctx context.Context, q Querier) (int64, error) { return metaInt(ctx, q, deletedKey) }

func metaInt(ctx context.Context, q Querier, k string) (int64, error) {
	return store.MetaInt(ctx, q, k)
}

func setMeta(ctx context.Context, e Execer, k string, v any) error {
	return store.SetMeta(ctx, e, k, v)
}

// IDSet is a bitmap of game ids; nil holds every id.
type IDSet []uint64

// NewIDSet is an empty set for ids up to max.
func NewIDSet(max int64) IDSet { return make(IDSet, max>>6+1) }

// Has reports whether id is in the set (true for every id of a nil set).
func (s IDSet) Has(id int64) bool {
	if s == nil {
		return true
	}
	i := uint64(id) >> 6
	return i < uint64(len(s)) && s[i]&(1<<(uint64(id)&63)) != 0
}

// Add puts id (at most the set's max) in the set.
func (s IDSet) Add(id int64) { s[uint64(id)>>6] |= 1 << (uint64(id) & 63) }

// Remove takes id out of the set.
func (s IDSet) Remove(id int64) {
	if i := uint64(id) >> 6; i < uint64(len(s)) {
		s[i] &^= 1 << (uint64(id) & 63)
	}
}
