package posrun

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"testing"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver
)

// testDB is a database of the engine's tables, a meta table and a games
// table (id, valid) whose valid games are the live ones, with its Store.
type testDB struct {
	*Store
	sql *sql.DB
	dir string
}

// openTemp opens a new writable test database in a temporary directory,
// closed when the test ends.
func openTemp(t testing.TB) *testDB {
	t.Helper()
	db := openTestDB(t, t.TempDir(), false)
	t.Cleanup(func() { db.Close() })
	return db
}

// openTestDB opens the test database of dir, creating it unless readOnly
// (16 KiB pages, WAL, as a database's handle opens it).
func openTestDB(t testing.TB, dir string, readOnly bool) *testDB {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(dir, "test.sqlite")
	v := url.Values{}
	v.Set("_busy_timeout", "30000")
	if readOnly {
		v.Set("mode", "ro")
		v.Set("_txlock", "deferred")
	} else {
		v.Set("_txlock", "immediate")
		v.Set("_synchronous", "NORMAL")
	}
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: v.Encode()}
	sdb, err := sql.Open("sqlite3", u.String())
	if err != nil {
		t.Fatal(err)
	}
	if !readOnly {
		if err := createTestTables(ctx, sdb); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(ctx, sdb, Config{Dir: dir, ReadOnly: readOnly, Live: liveTestGames})
	if err != nil {
		t.Fatal(err)
	}
	return &testDB{Store: s, sql: sdb, dir: dir}
}

// createTestTables makes the tables of a new test database, once.
func createTestTables(ctx context.Context, sdb *sql.DB) error {
	var n int
	if err := sdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE name = 'meta'`).Scan(&n); err != nil || n > 0 {
		return err
	}
	conn, err := sdb.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, q := range []string{`PRAGMA page_size = 16384`, `PRAGMA journal_mode = WAL`} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	tables := append([]string{
		`CREATE TABLE meta(k TEXT PRIMARY KEY, v) WITHOUT ROWID`,
		`CREATE TABLE games(id INTEGER PRIMARY KEY, valid INTEGER NOT NULL)`,
	}, Tables...)
	for _, q := range tables {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return Create(ctx, conn)
}

// liveTestGames is the valid games of the test database.
func liveTestGames(ctx context.Context, q Querier) (IDSet, error) {
	var maxID int64
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM games`).Scan(&maxID); err != nil {
		return nil, err
	}
	s := NewIDSet(maxID)
	rows, err := q.QueryContext(ctx, `SELECT id FROM games WHERE valid = 1`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		s.Add(id)
	}
	return s, rows.Err()
}

// Close closes the Store and its database.
func (db *testDB) Close() error {
	db.Store.Close()
	return db.sql.Close()
}

// addGames stores games 1..n, valid as valid says.
func addGames(t testing.TB, db *testDB, n int64, valid func(id int64) bool) {
	t.Helper()
	tx, err := db.sql.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for id := int64(1); id <= n; id++ {
		if _, err := tx.Exec(`INSERT INTO games(id, valid) VALUES(?, ?)`, id, valid(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// commitRun stores ps as a run in a transaction of its own.
func commitRun(t testing.TB, db *testDB, ps []Pos) {
	t.Helper()
	ctx := context.Background()
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(ctx, tx, ps); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// scanAll lists every stored occurrence of a live game, in order.
func scanAll(t testing.TB, db *testDB) []Pos {
	t.Helper()
	var all []Pos
	if err := db.Scan(context.Background(), func(key, at int64) error {
		all = append(all, Pos{key, at})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return all
}

// checkRuns fails when CheckRuns finds a problem; it returns the runs.
func checkRuns(t testing.TB, db *testDB, stage string) int {
	t.Helper()
	runs, problems, err := db.CheckRuns(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", stage, p)
	}
	return runs
}

// checkFilters fails when CheckFilters finds a problem.
func checkFilters(t testing.TB, db *testDB, stage string) {
	t.Helper()
	problems, err := db.CheckFilters(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", stage, p)
	}
}
