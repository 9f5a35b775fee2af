package writer

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"time"

	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/textindex"
)

// DB is the database the writer writes to, as the façade gives it: the
// handle and engines it shares with the readers, and the work that stays
// with the façade around a write. Every field is set.
type DB struct {
	SQL  *sql.DB
	Pos  *posrun.Store    // the position runs (merges, stored keys)
	Text *textindex.Index // opened for each turn of an import's text stage
	// Fold is the player-name key (store.IDs, store.Names).
	Fold func(string) string
	// CatchUpText indexes the games that a killed import left out of the
	// text index (or rebuilds a damaged one), before an import.
	CatchUpText func(ctx context.Context) error
	// SyncText brings the text index in line with the games listed in
	// text_todo, after an edit's commit.
	SyncText func(ctx context.Context) error
	// StoreCounts stores the games' counts after an import; its failure
	// leaves them to be counted by the next reader.
	StoreCounts func(ctx context.Context) error
	// ErrNotFound is the façade's sentinel, wrapped by the errors of a
	// game not found.
	ErrNotFound error
	// Tuning is read when used: a test may change it between two writes.
	Tuning *Tuning
}

// Tuning holds sizes that tests make small and hooks through which tests
// watch or interrupt the writer; a zero field is its default.
type Tuning struct {
	// MaxTxHeld bounds the rows a transaction holds in memory (maxTxHeld).
	MaxTxHeld int
	// TailFactor bounds the tail merge of an import's end (tailFactor);
	// negative: no tail merge, for tests that want the runs an import
	// leaves.
	TailFactor int64
	// TextTurn is the most documents an import indexes in one opening of
	// the text index (textTurn).
	TextTurn int
	// BulkMinBytes is the least bytes of a bulk import (bulkMinBytes).
	BulkMinBytes int64
	// SyncMerge merges position runs in the writer, as outside imports.
	SyncMerge bool
	// SettleEntries is the most spooled tree entries a bulk import adds
	// to the tree at once (treeagg.SettleEntries), and how many it spools
	// before it adds them.
	SettleEntries int
	// MaxTxTime is how long a transaction of the default size stays open
	// (maxTxTime).
	MaxTxTime time.Duration

	AfterCommit     func()           // between a commit and its merges
	AfterFlushHeld  func()           // after each flush of held rows
	AfterEditCommit func()           // after an edit's commit, before its text-index update
	TextTurnDone    func(docs int)   // after each turn of the text stage, with its documents
	BulkDropped     func()           // when a bulk import has dropped the deferred indexes
	BudgetAtEnd     func(used int64) // the memory budget at an import's end (every chunk written or dropped)
	// BeforeTreeSettle runs at a bulk import's end, before it adds its
	// spooled tree entries to the tree (treespool.go).
	BeforeTreeSettle func()
}

func (t *Tuning) maxTxHeld() int {
	if t.MaxTxHeld > 0 {
		return t.MaxTxHeld
	}
	return maxTxHeld
}

func (t *Tuning) maxTxTime() time.Duration {
	if t.MaxTxTime > 0 {
		return t.MaxTxTime
	}
	return maxTxTime
}

func (t *Tuning) tailFactor() int64 {
	switch {
	case t.TailFactor < 0:
		return 0
	case t.TailFactor > 0:
		return t.TailFactor
	}
	return tailFactor
}

func (t *Tuning) textTurn() int {
	if t.TextTurn > 0 {
		return t.TextTurn
	}
	return textTurn
}

func (t *Tuning) bulkMinBytes() int64 {
	if t.BulkMinBytes > 0 {
		return t.BulkMinBytes
	}
	return bulkMinBytes
}

// run runs a hook if it is set.
func run(hook func()) {
	if hook != nil {
		hook()
	}
}

// EditsKey is the meta entry counting the games removed (deleted,
// superseded or stored again), so that cached counts know the database
// changed although its last id did not.
const EditsKey = "edits"

// ErrDuplicate: an edited game became identical to another stored game.
var ErrDuplicate = errors.New("same game already stored")

// checkpoint copies the WAL into the database file and truncates it, so
// that a finished import or edit leaves no large WAL behind even while
// readers keep the database open (SQLite removes the WAL only when the
// last connection closes). Readers are never blocked by it; when one holds
// an old snapshot for more than a few seconds the WAL is left as it is,
// for SQLite's next automatic checkpoint: the data are committed either
// way.
func checkpoint(db *sql.DB) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
}

var debugTiming = os.Getenv("PLATEAU_DEBUG_TIMING") != ""
