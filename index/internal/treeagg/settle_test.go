package treeagg

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mattn/go-sqlite3"
)

// treeTables are the tables of the opening-tree aggregate, as index/db.go
// makes them, and the spool's.
var treeTables = []string{
	Table,
	PlayersTable,
	MonthsTable,
	SpoolTable,
}

// treeTx is a transaction on a new database holding treeTables.
func treeTx(t *testing.T, name string) *sql.Tx {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range treeTables {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback() })
	return tx
}

// txGames is one transaction's games and entries (sorted), as a flush
// gets them.
type txGames struct {
	es    []Entry
	games []Game
}

// genTxs makes n transactions of games whose moves share positions,
// moves and players: many moves have more than TopLen players, over
// several chunks; dates and results of every kind.
func genTxs(r *rand.Rand, n int) []txGames {
	dates := []string{"", "2026.07.14", "2026.07.01", "1999.??.??", "2026", "2026.é7.01", "1931.02.28"}
	moves := []string{"P-e4", "S*d4", "Kxd5+", "32-28", "19x28x37", "o1-i1"}
	out := make([]txGames, n)
	for i := range out {
		tg := &out[i]
		for g := range 5 + r.IntN(40) {
			game := Game{Date: dates[r.IntN(len(dates))]}
			switch r.IntN(4) {
			case 0:
				game.S0, game.Scored = 1, true
			case 1:
				game.S1, game.Scored = 1, true
			case 2:
				game.S0, game.S1, game.Scored = 0.5, 0.5, true
			}
			tg.games = append(tg.games, game)
			for range 1 + r.IntN(12) {
				var pl int64
				if r.IntN(8) > 0 {
					pl = 1 + int64(r.IntN(30))*int64(1+r.IntN(700)) // over several chunks
				}
				pos := int64(r.IntN(25)) - 12
				if r.IntN(5) == 0 {
					pos = r.Int64() - 1<<62 // a deep, rare position
				}
				tg.es = append(tg.es, Entry{Pos: pos, Move: moves[r.IntN(len(moves))], Player: pl, Game: int32(g)})
			}
		}
		slices.SortFunc(tg.es, EntryCmp)
	}
	return out
}

// tableRows is every row of the tree's tables, as text, in key order.
func tableRows(t *testing.T, tx *sql.Tx) []string {
	t.Helper()
	var out []string
	for _, q := range []string{
		`SELECT 'tree', key, move, n, scored, s0, s1, first, last, np, hex(top), w0, w1 FROM tree ORDER BY key, move`,
		`SELECT 'players', key, move, chunk, hex(data) FROM tree_players ORDER BY key, move, chunk`,
		`SELECT 'months', key, month, move, n, scored, s0, s1, w0, w1, first, last FROM tree_months ORDER BY key, month, move`,
	} {
		rows, err := tx.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, strings.TrimSpace(fmt.Sprintln(vals...)))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestSettleAsFlush: settling a spool, a group at a time, its batches
// prepared on one goroutine and written on another, leaves the tree,
// its players' chunks and its months row for row as one Flush of every
// entry does, on top of a tree already holding moves; whatever the group
// and batch sizes (a batch of one entry is cut between moves only).
func TestSettleAsFlush(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 1))
	before, spooled := genTxs(r, 6), genTxs(r, 40)
	t.Run("stored", func(t *testing.T) { settleAsFlush(t, before, spooled) })
	// Into empty tables: the first group's rows are inserted, nothing
	// read (fresh), the next groups' upserted.
	t.Run("empty", func(t *testing.T) { settleAsFlush(t, nil, spooled) })
}

func settleAsFlush(t *testing.T, before, spooled []txGames) {
	ctx := context.Background()
	var all txGames // every spooled entry, its games numbered in one list
	for _, tg := range spooled {
		for _, e := range tg.es {
			e.Game += int32(len(all.games))
			all.es = append(all.es, e)
		}
		all.games = append(all.games, tg.games...)
	}
	slices.SortFunc(all.es, EntryCmp)
	start := func(name string) *sql.Tx {
		tx := treeTx(t, name)
		st := &txStmts{tx: tx, stmts: map[string]*sql.Stmt{}}
		defer st.close()
		for _, tg := range before {
			if err := Flush(ctx, st, tg.es, tg.games); err != nil {
				t.Fatal(err)
			}
		}
		return tx
	}
	ref := start("ref.sqlite")
	st := &txStmts{tx: ref, stmts: map[string]*sql.Stmt{}}
	if err := Flush(ctx, st, all.es, all.games); err != nil {
		t.Fatal(err)
	}
	st.close()
	want := tableRows(t, ref)
	if len(want) < 500 || !slices.ContainsFunc(want, func(s string) bool { return strings.HasPrefix(s, "players") }) {
		t.Fatalf("%d rows, players' chunks among them or not: the test compares too little", len(want))
	}
	for _, c := range []struct{ group, batch int }{
		{0, flushEntries}, // one group, one batch
		{0, 1},
		{0, 7},
		{150, 1},
		{150, 40},
		{1000, 333},
	} {
		tx := start(fmt.Sprintf("settled-%d-%d.sqlite", c.group, c.batch))
		for _, tg := range spooled {
			if _, err := tx.Exec(`INSERT INTO tree_spool(data) VALUES(?)`, EncodeSpool(nil, tg.es, tg.games)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := settle(ctx, tx, nil, c.group, c.batch, false); err != nil {
			t.Fatalf("group %d, batch %d: %v", c.group, c.batch, err)
		}
		if got := tableRows(t, tx); !slices.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("group %d, batch %d: %d rows, want %d; row %d %q, want %q", c.group, c.batch, len(got), len(want), i,
				strings.Join(got[i:min(i+1, len(got))], ""), strings.Join(want[i:min(i+1, len(want))], ""))
		}
		var left int
		if err := tx.QueryRow(`SELECT count(*) FROM tree_spool`).Scan(&left); err != nil || left != 0 {
			t.Errorf("group %d, batch %d: %d spool rows left (%v)", c.group, c.batch, left, err)
		}
	}
}

// TestFreshInserts: a fresh flush (prepared for an empty tree) inserts
// its rows: should one be stored after all, it fails instead of counting
// it twice; the same flush not fresh adds to it.
func TestFreshInserts(t *testing.T) {
	ctx := context.Background()
	tg := genTxs(rand.New(rand.NewPCG(45, 4)), 1)[0]
	for _, c := range []struct {
		name  string
		es    []Entry
		games []Game
	}{
		{"tree", tg.es[:1], tg.games},
		{"months", tg.es, tg.games},
	} {
		tx := treeTx(t, c.name+".sqlite")
		st := &txStmts{tx: tx, stmts: map[string]*sql.Stmt{}}
		if err := Flush(ctx, st, tg.es, tg.games); err != nil {
			t.Fatal(err)
		}
		if c.name == "months" {
			if _, err := tx.Exec(`DELETE FROM tree; DELETE FROM tree_players`); err != nil {
				t.Fatal(err)
			}
		}
		var serr sqlite3.Error
		if err := prepare(c.es, c.games, true, nil).apply(ctx, st); !errors.As(err, &serr) || serr.Code != sqlite3.ErrConstraint {
			t.Errorf("%s: fresh flush onto a stored row: %v, want a constraint error", c.name, err)
		}
		if err := prepare(c.es, c.games, false, nil).apply(ctx, st); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		st.close()
	}
}

// TestTreeEmpty: the tree is empty while none of its three tables holds
// a row.
func TestTreeEmpty(t *testing.T) {
	ctx := context.Background()
	tx := treeTx(t, "empty.sqlite")
	for _, c := range []struct {
		stmt string
		want bool
	}{
		{``, true},
		{`INSERT INTO tree_months VALUES(1, '2026.07', 'P-e4', 1, 0, 0, 0, 0, 0, '', '')`, false},
		{`DELETE FROM tree_months; INSERT INTO tree_players VALUES(1, 'P-e4', 0, x'01')`, false},
		{`DELETE FROM tree_players; INSERT INTO tree VALUES(1, 'P-e4', 1, 0, 0, 0, '', '', 0, NULL, 0, 0)`, false},
		{`DELETE FROM tree; INSERT INTO tree_spool(data) VALUES(x'00')`, true},
	} {
		if c.stmt != "" {
			if _, err := tx.Exec(c.stmt); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := treeEmpty(ctx, tx); err != nil || got != c.want {
			t.Errorf("after %q: %v (%v), want %v", c.stmt, got, err, c.want)
		}
	}
}

// TestSettleBadRow: a spool row that does not decode, after good ones in
// its group, stops the settle with ErrSpool (the merging goroutine
// stops too) and deletes no spool row.
func TestSettleBadRow(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(45, 2))
	tx := treeTx(t, "bad.sqlite")
	txs := genTxs(r, 5)
	for i, tg := range txs {
		data := EncodeSpool(nil, tg.es, tg.games)
		if i == 3 {
			data = data[:len(data)-1]
		}
		if _, err := tx.Exec(`INSERT INTO tree_spool(data) VALUES(?)`, data); err != nil {
			t.Fatal(err)
		}
	}
	for _, batch := range []int{1, 5, flushEntries} {
		if _, err := settle(ctx, tx, nil, 0, batch, false); !errors.Is(err, ErrSpool) {
			t.Errorf("batch %d: %v, want ErrSpool", batch, err)
		}
		var left int
		if err := tx.QueryRow(`SELECT count(*) FROM tree_spool`).Scan(&left); err != nil || left != len(txs) {
			t.Errorf("batch %d: %d spool rows left, want %d (%v)", batch, left, len(txs), err)
		}
	}
}

// BenchmarkSettle settles a spool of about 330,000 entries (2,000
// transactions of generated games) into an empty tree, in batches of
// flushEntries: with -cpu 1,2, on one core and on two.
func BenchmarkSettle(b *testing.B) {
	ctx := context.Background()
	txs := genTxs(rand.New(rand.NewPCG(45, 3)), 2000)
	rows := make([][]byte, len(txs))
	n := 0
	for i, tg := range txs {
		rows[i] = EncodeSpool(nil, tg.es, tg.games)
		n += len(tg.es)
	}
	db, err := sql.Open("sqlite3", filepath.Join(b.TempDir(), "bench.sqlite"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range treeTables {
		if _, err := db.Exec(q); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rows {
			if _, err := tx.Exec(`INSERT INTO tree_spool(data) VALUES(?)`, r); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		if _, err := Settle(ctx, tx, nil, 0, false); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		tx.Rollback()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
}
