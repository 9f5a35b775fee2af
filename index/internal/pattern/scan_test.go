package pattern

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// scanDB is a games table of generated Ōgi games (more than two batches),
// every seventh stored stale (a wrong final key), with their records.
func scanDB(t *testing.T) (*sql.DB, rules.Game, map[int64]*record.Game) {
	t.Helper()
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, 3)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if _, err := gen.Write(context.Background(), &text, 2*batchGames+40, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "scan.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`PRAGMA synchronous = OFF; CREATE TABLE games(id INTEGER PRIMARY KEY, game TEXT, valid INT, fen TEXT, final INT, moves BLOB)`); err != nil {
		t.Fatal(err)
	}
	recs := map[int64]*record.Game{}
	r := record.NewReader(&text, "ogi")
	for id := int64(1); ; id++ {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rg := replay.Replay(rec, replay.Options{})
		if rg.Err != nil {
			t.Fatal(rg.Err)
		}
		pos := rg.Start.Clone()
		for _, s := range rg.Main {
			pos.Play(s.Move)
		}
		final := int64(pos.Key())
		if id%7 == 0 {
			final++ // stale: matched from its record
		}
		if _, err := db.Exec(`INSERT INTO games VALUES (?, 'ogi', 1, NULL, ?, ?)`, id, final, movelist.Encode(rg.Main)); err != nil {
			t.Fatal(err)
		}
		recs[id] = rec
	}
	return db, g, recs
}

// TestScan: the scan finds, in id order, the matches a worker finds game by
// game (stale games from their records), among the games its condition
// selects; it stops when told, and its errors name the game.
func TestScan(t *testing.T) {
	db, g, recs := scanDB(t)
	p, err := Parse("Gote:P@hand>=1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(p, g)
	if err != nil {
		t.Fatal(err)
	}
	var want []Match
	w := NewWorker(g, m)
	for id := int64(1); id <= int64(len(recs)); id++ {
		c := Cand{ID: id}
		w.MatchRecord(recs[id], &c)
		if c.Err != nil {
			t.Fatal(c.Err)
		}
		if c.OK && id%2 == 0 {
			want = append(want, Match{id, c.Ply, c.Var})
		}
	}
	if len(want) < 20 {
		t.Fatalf("only %d matches: the pattern tests little", len(want))
	}
	read := map[int64]bool{}
	s := &Scanner{Game: g, Matcher: m, Record: func(id int64) (*record.Game, error) {
		read[id] = true
		return recs[id], nil
	}}
	ctx := context.Background()
	var got []Match
	if err := s.Scan(ctx, db, "g.id % ? = 0", []any{2}, func(m Match) bool { got = append(got, m); return true }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scan found %v\nwant %v", got, want)
	}
	for id := range read {
		if id%14 != 0 {
			t.Errorf("record of game %d read, which is not stale or not selected", id)
		}
	}
	if len(read) == 0 {
		t.Error("no stale game matched from its record")
	}

	got = got[:0]
	if err := s.Scan(ctx, db, "g.id % ? = 0", []any{2}, func(m Match) bool { got = append(got, m); return len(got) < 3 }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want[:3]) {
		t.Errorf("stopped after 3: %v, want %v", got, want[:3])
	}

	bad := errors.New("no record")
	s.Record = func(int64) (*record.Game, error) { return nil, bad }
	err = s.Scan(ctx, db, "1", nil, func(Match) bool { return true })
	if !errors.Is(err, bad) || err.Error() != "game 7: no record" {
		t.Errorf("record error: %v", err)
	}
}

// TestLayouts: the boards of a ruleset's stored games are the start
// position's and those of the FENs of its valid games.
func TestLayouts(t *testing.T) {
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "layouts.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE games(id INTEGER PRIMARY KEY, game TEXT, valid INT, fen TEXT)`); err != nil {
		t.Fatal(err)
	}
	lm, err := rules.Lookup("loup-moutons")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	count := func() int {
		t.Helper()
		l, err := Layouts(ctx, db, lm)
		if err != nil {
			t.Fatal(err)
		}
		return len(l)
	}
	if n := count(); n != 1 {
		t.Fatalf("no game: %d layouts, want the start's", n)
	}
	big := "W:W46,47,48,49,50:B3" // a 10×10 board
	if _, err := lm.NewPosition(big); err != nil {
		t.Fatal(err)
	}
	for _, row := range [][]any{{1, "loup-moutons", 0, big}, {2, "dames", 1, big}, {3, "loup-moutons", 1, "not a position"}} {
		if _, err := db.Exec(`INSERT INTO games VALUES (?, ?, ?, ?)`, row...); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(); n != 1 {
		t.Errorf("an invalid game's FEN, another ruleset's, a bad one: %d layouts, want 1", n)
	}
	if _, err := db.Exec(`INSERT INTO games VALUES (4, 'loup-moutons', 1, ?)`, big); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 2 {
		t.Errorf("a valid game on a 10×10 board: %d layouts, want 2", n)
	}
}
