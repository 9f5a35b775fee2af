package gametext

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	_ "github.com/mattn/go-sqlite3"
)

// texts are the records of the test database: games 1 and 2 in block 1,
// game 3 in block 2; game 4 points past the end of block 2.
var texts = map[int64]string{
	1: "[Game \"ogi\"]\n[Round \"1\"]\n\n1. Pe3-e4 *\n",
	2: "[Game \"ogi\"]\n[Round \"2\"]\n\n1. Pd3-d4 *\n",
	3: "[Game \"sauts\"]\n[Round \"3\"]\n\n1. G2-E2 *\n",
}

// open returns a database of the games of texts, their blocks compressed
// as the writer stores them.
func open(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE games(id INTEGER PRIMARY KEY, tblock INTEGER NOT NULL, toff INTEGER NOT NULL, tlen INTEGER NOT NULL)`)
	exec(`CREATE TABLE texts(id INTEGER PRIMARY KEY, data BLOB NOT NULL)`)
	b1 := texts[1] + texts[2]
	exec(`INSERT INTO texts VALUES(1, ?), (2, ?)`, enc.EncodeAll([]byte(b1), nil), enc.EncodeAll([]byte(texts[3]), nil))
	exec(`INSERT INTO games VALUES(1, 1, 0, ?), (2, 1, ?, ?), (3, 2, 0, ?), (4, 2, 10, 1000)`,
		len(texts[1]), len(texts[1]), len(texts[2]), len(texts[3]))
	return db
}

func TestRead(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	var c Cache
	for _, id := range []int64{1, 2, 3, 1} {
		got, err := Read(ctx, db, id, &c)
		if err != nil || string(got) != texts[id] {
			t.Fatalf("game %d: %q, %v", id, got, err)
		}
	}
	if c.id != 1 {
		t.Errorf("the cache holds block %d, want the last read, 1", c.id)
	}
	// A cached block is not read again: its stored copy may go.
	if _, err := db.Exec(`DELETE FROM texts WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(ctx, db, 2, &c); err != nil || string(got) != texts[2] {
		t.Fatalf("game 2 from the cache: %q, %v", got, err)
	}
	if _, err := Read(ctx, db, 2, &Cache{}); err == nil || !strings.HasPrefix(err.Error(), "game 2 text: ") {
		t.Errorf("a missing block: %v", err)
	}
	if _, err := Read(ctx, db, 9, &c); !errors.Is(err, ErrNoGame) {
		t.Errorf("no game 9: %v, want ErrNoGame", err)
	}
	if _, err := Read(ctx, db, 4, &c); err == nil || err.Error() != "game 4 text: bad block reference" {
		t.Errorf("game 4 out of its block: %v", err)
	}
}

func TestHeaders(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	var b Blocks
	got, err := b.Headers(ctx, db, []int64{1, 2, 3, 9}, "Round", "Game")
	want := map[int64]map[string]string{
		1: {"Game": "ogi", "Round": "1"},
		2: {"Game": "ogi", "Round": "2"},
		3: {"Game": "sauts", "Round": "3"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Headers: %v, %v; want %v", got, err, want)
	}
	// The blocks read are kept: the stored copies are not read again.
	if _, err := db.Exec(`DELETE FROM texts`); err != nil {
		t.Fatal(err)
	}
	if again, err := b.Headers(ctx, db, []int64{2, 3}, "Round"); err != nil || again[2]["Round"] != "2" || again[3]["Round"] != "3" {
		t.Fatalf("Headers from the kept blocks: %v, %v", again, err)
	}
	if _, err := b.Headers(ctx, db, []int64{4}, "Round"); err == nil || err.Error() != "game 4 text: bad block reference" {
		t.Errorf("game 4 out of its block: %v", err)
	}
	if none, err := b.Headers(ctx, db, nil, "Round"); err != nil || none == nil || len(none) != 0 {
		t.Errorf("no ids: %v, %v", none, err)
	}
}

func TestWithText(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	var b Blocks
	read := func(id int64) (string, error) {
		var s string
		err := b.WithText(ctx, db, id, func(text []byte) error {
			s = string(text)
			return nil
		})
		return s, err
	}
	// Decoded up to the game's end (the block is not kept), then from a
	// block Headers kept.
	for _, id := range []int64{2, 1, 3} {
		if got, err := read(id); err != nil || got != texts[id] {
			t.Fatalf("game %d: %q, %v", id, got, err)
		}
	}
	if len(b.m) != 0 {
		t.Fatalf("WithText kept %d blocks, want none", len(b.m))
	}
	if _, err := b.Headers(ctx, db, []int64{3}, "Round"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM texts WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	if got, err := read(3); err != nil || got != texts[3] {
		t.Fatalf("game 3 from a kept block: %q, %v", got, err)
	}
	if _, err := read(9); !errors.Is(err, ErrNoGame) {
		t.Errorf("no game 9: %v, want ErrNoGame", err)
	}
	if _, err := read(4); err == nil || err.Error() != "game 4 text: bad block reference" {
		t.Errorf("game 4 out of its kept block: %v", err)
	}
	want := errors.New("fn's error")
	if err := b.WithText(ctx, db, 1, func([]byte) error { return want }); err != want {
		t.Errorf("fn's error: %v", err)
	}
}

// TestBlocksLRU: at most maxBlocks are kept, the least recently used
// dropped first.
func TestBlocksLRU(t *testing.T) {
	var b Blocks
	for id := range int64(maxBlocks) {
		b.put(id, []byte(fmt.Sprint(id)))
	}
	if _, ok := b.get(0); !ok { // 0 is now the most recently used
		t.Fatal("block 0 not kept")
	}
	b.put(maxBlocks, nil)
	if _, ok := b.get(1); ok {
		t.Error("block 1, the least recently used, was kept")
	}
	for _, id := range []int64{0, 2, maxBlocks} {
		if _, ok := b.get(id); !ok {
			t.Errorf("block %d dropped", id)
		}
	}
	if len(b.m) != maxBlocks || len(b.order) != maxBlocks {
		t.Errorf("%d blocks kept (%d in order), want %d", len(b.m), len(b.order), maxBlocks)
	}
}
