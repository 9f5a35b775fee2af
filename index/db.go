package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/gametext"
	"github.com/plateau/plateau/index/internal/openings"
	"github.com/plateau/plateau/index/internal/patsig"
	"github.com/plateau/plateau/index/internal/pattern"
	"github.com/plateau/plateau/index/internal/playerlines"
	"github.com/plateau/plateau/index/internal/players"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/revisions"
	"github.com/plateau/plateau/index/internal/stats"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/index/internal/textindex"
	"github.com/plateau/plateau/index/internal/treeagg"
)

// Sentinel errors.
var (
	// ErrNotFound: no such game, or no such position in the database.
	ErrNotFound = errors.New("not found")
	// ErrQuery: a search criterion cannot be understood.
	ErrQuery = criteria.ErrQuery
	// ErrTextBusy: the text index is held by another process (an import).
	ErrTextBusy = textindex.ErrBusy
	// ErrSchema: the database was made with another layout version.
	ErrSchema = errors.New("database layout not supported")
	// ErrReadOnly: a writing command on a database that cannot be written.
	ErrReadOnly = errors.New("database is read-only")
	// ErrTextBroken: the text index cannot be opened (damaged files).
	ErrTextBroken = textindex.ErrBroken
)

// DefaultDir is the database directory used when none is given:
// $PLATEAU_DB, else $XDG_DATA_HOME/plateau, else ~/.local/share/plateau.
func DefaultDir() string {
	if d := os.Getenv("PLATEAU_DB"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "plateau")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "share", "plateau")
	}
	return "plateau-db"
}

// DB is an open database: the SQLite store, and the Bleve text index opened
// for each piece of work that needs it.
type DB struct {
	dir      string
	sql      *sql.DB
	readOnly bool
	notice   func(string)
	text     *textindex.Index // opened for each piece of work (text.go)

	names players.Names // the folded player names (players.go)
	// nameIndex: the database has name_games (layout 7; a read-only
	// handle on layout 6 has not).
	nameIndex bool
	// revisions: the database has the revisions table (layout 8; a
	// read-only handle on an older layout has not).
	revisions bool
	// treeWins: the opening tree's rows count each side's wins (layout 9;
	// a read-only handle on an older layout has not).
	treeWins bool
	// treeMonths: the opening tree is counted by month too (tree_months,
	// layout 10; a read-only handle on an older layout has not).
	treeMonths bool
	openings   bool // layout 11: opening names (internal/openings)
	// openingsFolded: the names have their folded form stored (layout 12).
	openingsFolded bool
	// playerLines: the players' opening lines (internal/playerlines,
	// layout 13; a read-only handle on an older layout has not).
	playerLines bool
	patSigs     bool // layout 14: pattern signatures (internal/patsig)
	// legacyBlocks: the position runs' blocks are of layout 14 or before
	// (a read-only handle on such a database).
	legacyBlocks bool
	// treeDeep: the opening tree counts the moves of TreeAggDepth plies
	// (layout 16; TreeDepth before: treeAggDepth).
	treeDeep bool
	// monthDates: tree_months keeps its dates in their stored form
	// (treeagg.StoredDate, layout 18; whole before).
	monthDates bool
	// eventIndex: the games are indexed by event (games_event, layout
	// 20), which an event's crosstable reads (events.go).
	eventIndex bool
	// linesSeveralElo: the players' lines keep every value of a rating
	// tag given several times (layout 21; the least before), so that they
	// answer a rating band (playerlines.go).
	linesSeveralElo bool

	counts criteria.Counts // list counts (list.go)
	lines  treeLines       // the opening lines of filtered trees (treelines.go)
	events eventNames      // the players' lines' events, folded (playerlines.go)
	// lineGames, if not 0, is maxLineGames (tests: -1 reads no lines).
	lineGames int
	// keepIdle is the number of idle connections kept (Options.MaxConns).
	keepIdle int

	blocks  gametext.Blocks // text blocks of list headers (records.go)
	pos     *posrun.Store   // the position runs (positions.go)
	changes changes         // the commits seen (Version, changes.go)
	// textCover: the text index's coverage of the store (textcover.go).
	textCover textCover
}

// Options for Open.
type Options struct {
	// ReadOnly opens for queries only: no schema creation, no text-index
	// catch-up. The directory must hold a database. When the directory or
	// the SQLite file cannot be written (a read-only mount, permissions),
	// SQLite is opened read-only or immutable, so that queries still work.
	ReadOnly bool
	// Unwritable treats the directory as unwritable whatever its
	// permissions say (as a read-only mount, where even root cannot
	// write): a read-only open is then immutable; a writable one fails with
	// ErrReadOnly.
	Unwritable bool
	// Notice receives what the database does by itself and a user should
	// know (a damaged text index rebuilt from SQLite). Nil: not told.
	Notice func(msg string)

	// MaxConns bounds the handle's SQLite connections, and keeps that many
	// when idle (0: no bound, two kept). Each connection has a page cache
	// of its own and SQLite answers a query on one core: a server gains
	// memory, not speed, from many more connections than cores.
	MaxConns int
	// ConnIdleTime closes a connection idle for that long, freeing its
	// page cache (0: idle connections are kept).
	ConnIdleTime time.Duration
	// SoftHeapLimit bounds the bytes of SQLite's heap, its page caches
	// mostly (PRAGMA soft_heap_limit; 0: no bound). SQLite holds one limit
	// for the whole process: the last handle opened with one sets it.
	SoftHeapLimit int64
}

const sqliteName = "plateau.sqlite"
const bleveName = "text.bleve"

// Open opens (creating it if needed) the database in dir. A writable open
// brings the text index up to date with SQLite when a previous import was
// killed before its text batches were flushed.
func Open(ctx context.Context, dir string, opts Options) (*DB, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	path := filepath.Join(dir, sqliteName)
	dsn, err := sqliteDSN(dir, opts)
	if err != nil {
		return nil, err
	}
	if !opts.ReadOnly && !exists(path) {
		if err := create(ctx, path); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	sdb, err := sql.Open(driverName, dsn) // fold.go
	if err != nil {
		return nil, err
	}
	db := &DB{dir: dir, sql: sdb, readOnly: opts.ReadOnly, notice: opts.Notice,
		text: textindex.New(filepath.Join(dir, bleveName), opts.ReadOnly), changes: changes{dsn: dsn}}
	if err := db.setUp(ctx, opts); err != nil {
		sdb.Close()
		if !errors.Is(err, ErrSchema) && !errors.Is(err, context.Canceled) {
			err = fmt.Errorf("%s: %w", path, err)
		}
		return nil, err
	}
	return db, nil
}

// setUp tunes a handle just opened, checks its layout (upgrading or
// creating it when writable, and finishing what a killed edit or bulk
// import left) and opens its position runs (posrun.Open).
func (db *DB) setUp(ctx context.Context, opts Options) error {
	if err := db.tune(ctx, opts); err != nil {
		return err
	}
	if opts.ReadOnly {
		if _, err := db.checkSchema(ctx); err != nil {
			return err
		}
	} else {
		if err := db.migrate(ctx); err != nil {
			return err
		}
		if err := db.openEdits(ctx); err != nil { // edit.go
			return err
		}
		if err := db.restoreAtOpen(ctx); err != nil { // bulk.go
			return err
		}
	}
	var err error
	db.pos, err = posrun.Open(ctx, db.sql, posrun.Config{Dir: db.dir, ReadOnly: opts.ReadOnly, LegacyBlocks: db.legacyBlocks, Notice: db.tell, Live: validGames})
	return err
}

// pageSize is the page size of a new database file. With 16 KiB pages
// instead of SQLite's 4 KiB, an import writes a quarter as many WAL frames
// (a write system call each, costly on a virtual machine) and the
// random-key B-trees (tree, tree_players, tags, the games hash) are
// shallower: an import takes less processor time and memory; larger pages
// cost memory for no more speed (docs/queries.md). A database made with
// another page size keeps it.
const pageSize = 16 << 10

// create makes a new, empty database file with pageSize pages in WAL mode:
// the page size of a WAL database cannot change, so it is set before the
// journal mode, on a connection of its own. Its auto_vacuum is
// INCREMENTAL, so that an import can give back the pages its merges freed
// (store.GiveBack).
func create(ctx context.Context, path string) error {
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: "_busy_timeout=30000"}
	sdb, err := sql.Open(driverName, u.String())
	if err != nil {
		return err
	}
	defer sdb.Close()
	conn, err := sdb.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, q := range []string{fmt.Sprintf("PRAGMA page_size = %d", pageSize), "PRAGMA auto_vacuum = INCREMENTAL", "PRAGMA journal_mode = WAL"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("create: %w", err)
		}
	}
	return nil
}

// tune applies the connection options of opts.
func (db *DB) tune(ctx context.Context, opts Options) error {
	db.keepIdle = 2 // database/sql's default
	if opts.MaxConns > 0 {
		db.sql.SetMaxOpenConns(opts.MaxConns)
		db.sql.SetMaxIdleConns(opts.MaxConns)
		db.keepIdle = opts.MaxConns
	}
	if opts.ConnIdleTime > 0 {
		db.sql.SetConnMaxIdleTime(opts.ConnIdleTime)
	}
	if opts.SoftHeapLimit > 0 {
		// A PRAGMA takes no parameter; any connection sets the process's.
		if _, err := db.sql.ExecContext(ctx, fmt.Sprintf("PRAGMA soft_heap_limit = %d", opts.SoftHeapLimit)); err != nil {
			return fmt.Errorf("soft heap limit: %w", err)
		}
	}
	return nil
}

// CloseIdle closes the handle's idle connections, freeing their page
// caches (a server calls it once a burst of requests is over); later
// queries open connections again as they need them.
func (db *DB) CloseIdle() {
	db.sql.SetMaxIdleConns(-1) // none: the idle ones are closed
	db.sql.SetMaxIdleConns(db.keepIdle)
}

// Dir is the database directory.
func (db *DB) Dir() string { return db.dir }

// Close closes the database (the text index is open only during a call).
func (db *DB) Close() error {
	if db.pos != nil {
		db.pos.Close()
	}
	cerr := db.changes.close()
	return errors.Join(db.text.Close(db.sql.Close), cerr)
}

// The schema. Decisions are in doc.go.
var schema = []string{
	`CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v) WITHOUT ROWID`,
	`CREATE TABLE IF NOT EXISTS sources(
		id INTEGER PRIMARY KEY,
		path TEXT NOT NULL UNIQUE,
		size INTEGER, mtime INTEGER,
		done INTEGER NOT NULL DEFAULT 0,
		games INTEGER NOT NULL DEFAULT 0)`,
	`CREATE TABLE IF NOT EXISTS players(
		id INTEGER PRIMARY KEY,
		name TEXT NOT NULL UNIQUE,
		folded TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS games(
		id INTEGER PRIMARY KEY,
		hash BLOB NOT NULL UNIQUE,
		game TEXT NOT NULL,
		valid INTEGER NOT NULL,
		p0 INTEGER, p1 INTEGER,
		event TEXT, site TEXT, date TEXT, result TEXT, termination TEXT,
		plies INTEGER NOT NULL,
		source INTEGER, offset INTEGER, line INTEGER, size INTEGER,
		err TEXT, err_line INTEGER, err_col INTEGER, err_ply INTEGER, err_move TEXT, err_rule TEXT,
		fen TEXT,
		final INTEGER,
		moves BLOB,
		tblock INTEGER NOT NULL, toff INTEGER NOT NULL, tlen INTEGER NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS texts(id INTEGER PRIMARY KEY, data BLOB NOT NULL)`,
	store.DictTable,
	store.Deferred[0].Def, // games_p0, games_p1, games_date, games_event (store.Deferred)
	store.Deferred[1].Def,
	store.Deferred[2].Def,
	store.Deferred[3].Def, // games_event (events.go)
	`CREATE INDEX IF NOT EXISTS games_invalid ON games(id) WHERE valid = 0`,
	// The words of players' folded names, and for each word the valid
	// games of its players in game order (internal/players).
	players.WordsTable,
	players.GamesTable,
	`CREATE TABLE IF NOT EXISTS tag_names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)`,
	`CREATE TABLE IF NOT EXISTS tags(
		tag INTEGER NOT NULL, value TEXT NOT NULL, game INTEGER NOT NULL,
		PRIMARY KEY(tag, value, game)) WITHOUT ROWID`,
	// Position occurrences in sorted runs of blocks, and their filters
	// (internal/posrun).
	posrun.Tables[0],
	posrun.Tables[1],
	posrun.Tables[2],
	posrun.Tables[3],
	posrun.GoneTable,
	posrun.CountsTable,
	// Every revision of the games edited (internal/revisions).
	revisions.Table,
	// The opening tree, and the players of the moves of more than
	// treeagg.TopLen players (internal/treeagg).
	treeagg.Table,
	treeagg.PlayersTable,
	// The tree's rows by month of the games' dates (internal/treeagg).
	treeagg.MonthsTable,
	// Named positions and the opening of each named game (internal/openings).
	openings.Tables[0],
	openings.Tables[1],
	openings.Tables[2],
	openings.Tables[3],
	// The opening line of each game per player and side (internal/playerlines).
	playerlines.Table,
	playerlines.EventsTable,
	// The games' pattern signatures (internal/patsig) and the games with
	// a start position of their own (internal/pattern).
	patsig.Table,
	pattern.FENIndex,
}

// schemaVersion is the layout version kept in meta "schema". Version 1
// (no meta entry) had positions(key, ply, game, var) and tags(name, value,
// game) tables; version 2 had no warnings table and dates as written;
// version 3 kept positions as rows of one B-tree (position_rows); version
// 4 had no top players in tree rows (tree.top, internal/treeagg); version 5 had
// a tree_players row per (key, move, player) and no tree.np; version 6 had
// no name_words and name_games (internal/players); version 7 had no
// revisions and pos_gone (internal/revisions, internal/posrun); version 8
// had no tree.w0 and tree.w1 (the games each side won, internal/treeagg);
// version 9 had no tree_months (the tree by month, internal/treeagg);
// version 10 had no openings and game_openings (internal/openings);
// version 11 had no openings.folded (the folded names the list sorts by);
// version 12 had no player_lines (internal/playerlines); version 13 had no
// pattern_sigs (internal/patsig) and games_fen; version 14 had the position
// runs' blocks in their legacy form (internal/posrun); version 15 counted
// the opening tree's moves of TreeDepth plies, not TreeAggDepth
// (tree_deep.go); version 16 had no events and ratings in player_lines,
// and no event_names; version 17 had tree_months' dates whole
// (tree_deep.go); version 18 had no text dictionary (internal/store);
// version 19 had no games_event (events.go); version 20 kept the least of
// several values of a rating tag in the players' lines (playerlines.go);
// version 21 stored the move lists in their legacy form
// (internal/movelist, moves_upgrade.go); version 22 had pattern
// signatures of version 1 (internal/patsig, patsig_upgrade.go); version
// 23 had games_event on the event alone (events.go); version 24 had
// filters of position runs up to 32 Mi occurrences (internal/posrun,
// posfilters_upgrade.go).
// Versions 5 to 24 are upgraded by a writable open; a database of an older
// version must be imported again.
const schemaVersion = 25

// checkSchema refuses a database made with another layout; fresh reports a
// database without tables.
func (db *DB) checkSchema(ctx context.Context) (fresh bool, err error) {
	var games int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'games'`).Scan(&games); err != nil {
		return false, err
	}
	if games == 0 {
		return true, nil
	}
	var v int64
	if _, terr := db.sql.ExecContext(ctx, `SELECT 1 FROM meta LIMIT 0`); terr == nil {
		if v, err = db.metaInt(ctx, db.sql, "schema"); err != nil {
			return false, err
		}
	}
	if v == 0 {
		v = 1
	}
	if v == upgradableVersion && !db.readOnly {
		if err := db.upgrade5(ctx); err != nil {
			return false, err
		}
		v = 6
	}
	if v == upgradableVersion {
		return false, fmt.Errorf("%w: the database in %s has layout version %d, this plateau reads version %d: open it once for writing (plateau reindex --db %s, or an import) to upgrade it",
			ErrSchema, db.dir, v, schemaVersion, db.dir)
	}
	if v == 6 && !db.readOnly {
		if err := db.upgrade6(ctx); err != nil {
			return false, err
		}
		v = 7
	}
	if v == 7 && !db.readOnly {
		if err := db.upgrade7(ctx); err != nil {
			return false, err
		}
		v = 8
	}
	if v == 8 && !db.readOnly {
		if err := db.upgrade8(ctx); err != nil {
			return false, err
		}
		v = 9
	}
	if v == 9 && !db.readOnly {
		if err := db.upgrade9(ctx); err != nil {
			return false, err
		}
		v = 10
	}
	if v == 10 && !db.readOnly {
		if err := db.upgrade10(ctx); err != nil {
			return false, err
		}
		v = 11
	}
	if v == 11 && !db.readOnly {
		if err := db.upgrade11(ctx); err != nil {
			return false, err
		}
		v = 12
	}
	if v == 12 && !db.readOnly {
		if err := db.upgrade12(ctx); err != nil { // playerlines.go
			return false, err
		}
		v = 13
	}
	if v == 13 && !db.readOnly {
		if err := db.upgrade13(ctx); err != nil { // patsig_upgrade.go
			return false, err
		}
		v = 14
	}
	if v == 14 && !db.readOnly {
		if err := db.upgrade14(ctx); err != nil { // posblocks_upgrade.go
			return false, err
		}
		v = 15
	}
	if v == 15 && !db.readOnly {
		if err := db.upgrade15(ctx); err != nil { // tree_deep.go
			return false, err
		}
		v = 16
	}
	if v == 16 && !db.readOnly {
		if err := db.upgrade16(ctx); err != nil { // playerlines.go
			return false, err
		}
		v = 17
	}
	if v == 17 && !db.readOnly {
		if err := db.upgrade17(ctx); err != nil { // tree_deep.go
			return false, err
		}
		v = 18
	}
	if v == 18 && !db.readOnly {
		if err := db.upgrade18(ctx); err != nil { // posblocks_upgrade.go
			return false, err
		}
		v = 19
	}
	if v == 19 && !db.readOnly {
		if err := db.upgrade19(ctx); err != nil { // events.go
			return false, err
		}
		v = 20
	}
	if v == 20 && !db.readOnly {
		if err := db.upgrade20(ctx); err != nil { // playerlines.go
			return false, err
		}
		v = 21
	}
	if v == 21 && !db.readOnly {
		if err := db.upgrade21(ctx); err != nil { // moves_upgrade.go
			return false, err
		}
		v = 22
	}
	if v == 22 && !db.readOnly {
		if err := db.upgrade22(ctx); err != nil { // patsig_upgrade.go
			return false, err
		}
		v = 23
	}
	if v == 23 && !db.readOnly {
		if err := db.upgrade23(ctx); err != nil { // events.go
			return false, err
		}
		v = 24
	}
	if v == 24 && !db.readOnly {
		if err := db.upgrade24(ctx); err != nil { // posfilters_upgrade.go
			return false, err
		}
		v = 25
	}
	// A read-only handle reads layouts 6 to 24 as they are: player pages
	// are read player by player without the name index (6), games have
	// their one revision (6 and 7), the opening tree has no wins (6 to 8),
	// a period's tree is counted from its games (6 to 9), no position
	// has a name (6 to 10), the names are folded when sorted by (11) and
	// a player's tree reads their games' rows (6 to 16: the lines of 13 to
	// 16 have no events and ratings), a pattern scan
	// replays every game (6 to 13), the position runs' blocks are read
	// in their legacy form (6 to 14), the trees of the positions of ply
	// TreeDepth read their games' rows (6 to 15) and a period's tree reads
	// the months' dates whole (10 to 17); no text block names a
	// dictionary (6 to 18); an event's crosstable scans the games (6 to
	// 19); a player's tree of a rating band reads their games' rows (6 to
	// 20); the move lists are read in their legacy form (6 to 21, as
	// movelist tells them apart), the pattern signatures in version 1 (14
	// to 22, as patsig tells them apart); an event's crosstable reads its
	// games' rows (20 to 23); the filters of the runs over the new bound
	// are left unread (6 to 24).
	db.nameIndex = v >= 7
	db.revisions = v >= 8
	db.treeWins = v >= 9
	db.treeMonths = v >= 10
	db.openings = v >= 11
	db.openingsFolded = v >= 12
	db.playerLines = v >= 17
	db.patSigs = v >= 14
	db.legacyBlocks = v < 15
	db.treeDeep = v >= 16
	db.monthDates = v >= 18
	db.eventIndex = v >= 20
	db.linesSeveralElo = v >= 21
	if v != schemaVersion && (v < 6 || v > 24) {
		return false, fmt.Errorf("%w: the database in %s has layout version %d, this plateau reads version %d: import the records again into a new database directory (or remove this one)",
			ErrSchema, db.dir, v, schemaVersion)
	}
	return false, nil
}

func (db *DB) migrate(ctx context.Context) error {
	fresh, err := db.checkSchema(ctx)
	if err != nil {
		return err
	}
	if !fresh {
		return nil // the engines add their newer tables (posrun.Open)
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, s := range schema {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("schema: %w", err)
		}
	}
	if err := setMeta(ctx, tx, "schema", schemaVersion); err != nil {
		return err
	}
	db.nameIndex, db.revisions, db.treeWins, db.treeMonths, db.openings, db.openingsFolded = true, true, true, true, true, true
	db.playerLines = true
	db.patSigs = true
	db.treeDeep = true
	db.monthDates = true
	db.eventIndex = true
	db.linesSeveralElo = true
	if err := posrun.Create(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

func (db *DB) metaInt(ctx context.Context, q queryer, k string) (int64, error) {
	return store.MetaInt(ctx, q, k)
}

func setMeta(ctx context.Context, e execer, k string, v any) error {
	return store.SetMeta(ctx, e, k, v)
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// DiskSize is the size of a database as it lies on disk: every file of its
// directory (the SQLite file, its WAL if one remains, the text index). It is
// the figure the benchmarks divide by the bytes of record text imported.
func DiskSize(dir string) (int64, error) {
	if _, err := os.Stat(dir); err != nil {
		return 0, err
	}
	return stats.DirSize(dir, nil), nil
}
