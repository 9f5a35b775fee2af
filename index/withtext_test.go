package index_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/plateau/plateau/index"
)

// TestWithText: the text WithText gives is Text's, for every game of
// several blocks, whether the block is decoded for it (up to the game) or
// kept decoded by a list's headers; a missing game is ErrNotFound.
func TestWithText(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, dir+"/db")
	// Some 1,500 draughts games: many text blocks (store.BlockSize).
	if _, err := importFiles(ctx, db, []string{writeFile(t, dir, "g.pdn", genText(t, "draughts", 1500, 3))}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	var blocks int
	if err := db.SQL().QueryRow(`SELECT COUNT(*) FROM texts`).Scan(&blocks); err != nil || blocks < 3 {
		t.Fatalf("%d text blocks (%v): too few for the test", blocks, err)
	}
	last, err := db.LastID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	check := func(id int64) {
		t.Helper()
		want, err := db.Text(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		if err := db.WithText(ctx, id, func(text []byte) error { got = bytes.Clone(text); return nil }); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("game %d: WithText %q…, Text %q…", id, got[:min(len(got), 60)], want[:min(len(want), 60)])
		}
	}
	for id := last; id >= 1; id -= 37 { // decoded for the game, buffers reused
		check(id)
	}
	// Blocks kept by a list's headers.
	if _, err := db.Headers(ctx, []int64{1, 2, last}, "Round"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{1, 2, 3, last - 1, last} {
		check(id)
	}
	err = db.WithText(ctx, last+1, func([]byte) error { t.Error("called for a missing game"); return nil })
	if !errors.Is(err, index.ErrNotFound) {
		t.Errorf("missing game: %v", err)
	}
}
