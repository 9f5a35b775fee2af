package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The benchmarks below run the shapes of the writer's statements — the
// tags' multi-row insert (3 values a row), tree_months' multi-row upsert
// (11), a game's row (28) — through database/sql's statement (Stmt) and
// through a RawStmt (Raw), in transactions of benchTxRows rows on a
// connection of its own. Each reports the process's CPU time a row.

const benchTxRows = 25600

// benchConn is a new database holding schema, and a connection to it.
func benchConn(b *testing.B, schema string) *sql.Conn {
	b.Helper()
	db, err := sql.Open("sqlite3", "file:"+b.TempDir()+"/b.db?_journal_mode=WAL&_synchronous=NORMAL&_cache_size=-1000000")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if _, err := db.Exec(schema); err != nil {
		b.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	return conn
}

// benchRows runs query (rows rows a statement, args appending the it-th
// statement's values) on conn, in transactions of benchTxRows rows,
// through a RawStmt (raw) or database/sql's statement prepared in each
// transaction, and reports the CPU time a row.
func benchRows(b *testing.B, conn *sql.Conn, query string, raw bool, rows int, args func(args []any, it int) []any) {
	ctx := context.Background()
	var rawSt *RawStmt
	if raw {
		var err error
		if rawSt, err = PrepareRaw(ctx, conn, query); err != nil {
			b.Fatal(err)
		}
		defer rawSt.Close()
	}
	var tx *sql.Tx
	var st Prepared
	var a []any
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	b.ReportAllocs()
	it := 0
	for b.Loop() {
		if it%(benchTxRows/rows) == 0 {
			if tx != nil {
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
			}
			var err error
			if tx, err = conn.BeginTx(ctx, nil); err != nil {
				b.Fatal(err)
			}
			if st = rawSt; !raw {
				if st, err = tx.PrepareContext(ctx, query); err != nil {
					b.Fatal(err)
				}
			}
		}
		a = args(a[:0], it)
		if _, err := st.ExecContext(ctx, a...); err != nil {
			b.Fatal(err)
		}
		it++
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(it*rows), "cpu-ns/row")
}

func benchTags(b *testing.B, raw bool) {
	conn := benchConn(b, `CREATE TABLE tags(tag INTEGER NOT NULL, value TEXT NOT NULL, game INTEGER NOT NULL, PRIMARY KEY(tag, value, game)) WITHOUT ROWID`)
	values := make([]string, RowsPerInsert)
	for i := range values {
		values[i] = fmt.Sprintf("Value %d of a tag", i)
	}
	benchRows(b, conn, RowsQuery(`INSERT OR IGNORE INTO tags(tag, value, game)`, `(?,?,?)`, ``, RowsPerInsert), raw, RowsPerInsert,
		func(args []any, it int) []any {
			for i, v := range values {
				args = append(args, int64(it), v, int64(it*RowsPerInsert+i))
			}
			return args
		})
}

func BenchmarkTagsStmt(b *testing.B) { benchTags(b, false) }
func BenchmarkTagsRaw(b *testing.B)  { benchTags(b, true) }

func benchMonths(b *testing.B, raw bool) {
	conn := benchConn(b, `CREATE TABLE tree_months(
	key INTEGER NOT NULL, month TEXT NOT NULL, move TEXT NOT NULL,
	n INTEGER NOT NULL, scored INTEGER NOT NULL, s0 REAL NOT NULL, s1 REAL NOT NULL,
	w0 INTEGER NOT NULL, w1 INTEGER NOT NULL, first TEXT NOT NULL, last TEXT NOT NULL,
	PRIMARY KEY(key, month, move)) WITHOUT ROWID`)
	q := RowsQuery(`INSERT INTO tree_months(key, month, move, n, scored, s0, s1, w0, w1, first, last)`, `(?,?,?,?,?,?,?,?,?,?,?)`,
		`ON CONFLICT(key, month, move) DO UPDATE SET n = n + excluded.n, scored = scored + excluded.scored,
		s0 = s0 + excluded.s0, s1 = s1 + excluded.s1, w0 = w0 + excluded.w0, w1 = w1 + excluded.w1,
		first = CASE WHEN first = '' OR (excluded.first <> '' AND excluded.first < first) THEN excluded.first ELSE first END,
		last = CASE WHEN excluded.last > last THEN excluded.last ELSE last END`, RowsPerInsert)
	months := make([]string, 120)
	for i := range months {
		months[i] = fmt.Sprintf("20%02d.%02d", 10+i/12, 1+i%12)
	}
	benchRows(b, conn, q, raw, RowsPerInsert, func(args []any, it int) []any {
		for i := range RowsPerInsert {
			k := it*RowsPerInsert + i
			args = append(args, int64(k%50000), months[k%len(months)], "Pe3-e4", int64(1), int64(1), 0.5, 0.5, int64(0), int64(0), "01", "28")
		}
		return args
	})
}

func BenchmarkMonthsStmt(b *testing.B) { benchMonths(b, false) }
func BenchmarkMonthsRaw(b *testing.B)  { benchMonths(b, true) }

func benchGames(b *testing.B, raw bool) {
	conn := benchConn(b, `CREATE TABLE games(id INTEGER PRIMARY KEY, hash BLOB NOT NULL UNIQUE, game TEXT NOT NULL, valid INTEGER NOT NULL,
		p0 INTEGER, p1 INTEGER, event TEXT, site TEXT, date TEXT, result TEXT, termination TEXT, plies INTEGER NOT NULL,
		source INTEGER, offset INTEGER, line INTEGER, size INTEGER, err TEXT, err_line INTEGER, err_col INTEGER, err_ply INTEGER,
		err_move TEXT, err_rule TEXT, fen TEXT, final INTEGER, moves BLOB, tblock INTEGER, toff INTEGER, tlen INTEGER)`)
	q := `INSERT INTO games(id, hash, game, valid, p0, p1, event, site, date, result, termination, plies,
		source, offset, line, size, err, err_line, err_col, err_ply, err_move, err_rule, fen, final, moves, tblock, toff, tlen)
		VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(hash) DO NOTHING`
	moves := []byte(strings.Repeat("m", 120))
	benchRows(b, conn, q, raw, 1, func(args []any, it int) []any {
		h := sha256.Sum256(fmt.Appendf(nil, "%d", it))
		return append(args, nil, h[:], "ogi", true, int64(it%5000), int64(it%4999), "Osaka open", "Ōsaka", "2026.07.14", "1-0", nil, 81,
			int64(1), int64(it*1000), it*30, 1000, nil, 0, 0, 0, nil, nil, nil, int64(0), moves, int64(it/10), int64(it%10*900), 900)
	})
}

func BenchmarkGamesStmt(b *testing.B) { benchGames(b, false) }
func BenchmarkGamesRaw(b *testing.B)  { benchGames(b, true) }
