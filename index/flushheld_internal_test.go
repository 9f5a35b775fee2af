package index

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"testing"
)

// tagRows lists every stored tag as "name value game".
func tagRows(t *testing.T, db *DB) []string {
	t.Helper()
	rows, err := db.sql.Query(`SELECT n.name || ' ' || t.value || ' ' || t.game FROM tags t JOIN tag_names n ON n.id = t.tag ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// TestFlushHeld: a transaction whose rows outgrow MaxTxHeld stores them
// before its commit (positions as runs of their own, tags, tree rows)
// instead of committing early, and the database then holds exactly what an
// import holding every row until the commit stores.
func TestFlushHeld(t *testing.T) {
	ctx := context.Background()
	// Ten chunks (chunkSize): flushHeld runs between chunks.
	db, dir, file := interruptedImport(t, 640, 7)
	ref, err := Open(ctx, filepath.Join(dir, "ref"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	if _, err := importFiles(ctx, ref, []string{file}, ImportOptions{TxGames: 640, Workers: 2}); err != nil {
		t.Fatal(err)
	}

	writeTuning.MaxTxHeld = 10 << 10 // less than a chunk of generated Ōgi games
	defer func() { writeTuning.MaxTxHeld = 0 }()
	flushes, commits, runsAtCommit := 0, 0, 0
	writeTuning.AfterFlushHeld = func() { flushes++ }
	writeTuning.AfterCommit = func() {
		commits++
		db.sql.QueryRow(`SELECT COUNT(*) FROM pos_runs`).Scan(&runsAtCommit)
	}
	defer func() { writeTuning.AfterFlushHeld, writeTuning.AfterCommit = nil, nil }()
	if _, err := importFiles(ctx, db, []string{file}, ImportOptions{TxGames: 640, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if commits != 1 || flushes < 8 || runsAtCommit != flushes+1 {
		t.Fatalf("%d commits, %d flushes before the commit, %d runs committed: want 1 commit holding a run per flush and the commit's own", commits, flushes, runsAtCommit)
	}
	checkRuns(t, db, "after the import")
	if got, want := scanAll(t, db), scanAll(t, ref); !slices.Equal(got, want) {
		t.Errorf("%d occurrences, %d held until the commit", len(got), len(want))
	}
	gotTree, err := TreeRows(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	wantTree, err := TreeRows(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(gotTree, wantTree) || len(wantTree) == 0 {
		t.Errorf("%d tree rows, %d held until the commit", len(gotTree), len(wantTree))
	}
	if got, want := tagRows(t, db), tagRows(t, ref); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("%d tags, %d held until the commit", len(got), len(want))
	}
}

// TestFlushHeldRolledBack: rows stored before the commit are undone with
// the transaction when the import stops before it: no game, occurrence,
// tag or tree row is left.
func TestFlushHeldRolledBack(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, _, file := interruptedImport(t, 300, 8)
	writeTuning.MaxTxHeld = 10 << 10
	defer func() { writeTuning.MaxTxHeld = 0 }()
	flushes := 0
	writeTuning.AfterFlushHeld = func() {
		if flushes++; flushes == 3 {
			cancel()
		}
	}
	defer func() { writeTuning.AfterFlushHeld = nil }()
	_, err := importFiles(ctx, db, []string{file}, ImportOptions{TxGames: 300, Workers: 2})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("import: %v, want context.Canceled", err)
	}
	if flushes < 3 {
		t.Fatalf("%d flushes", flushes)
	}
	for _, table := range []string{"games", "pos_runs", "pos_blocks", "tags", "tree", "tree_players"} {
		var n int
		if err := db.sql.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%s: %d rows after the import stopped before its commit", table, n)
		}
	}
}

// TestTextTurns: the text documents of a commit are indexed a turn
// (Tuning.TextTurn) at a time, the index released between turns for readers in other processes,
// and every game is found by a text query after the import.
func TestTextTurns(t *testing.T) {
	ctx := context.Background()
	db, _, file := interruptedImport(t, 640, 9)
	writeTuning.TextTurn = 100
	var turns []int
	writeTuning.TextTurnDone = func(n int) { turns = append(turns, n) }
	defer func() { writeTuning.TextTurn, writeTuning.TextTurnDone = 0, nil }()
	if _, err := importFiles(ctx, db, []string{file}, ImportOptions{TxGames: 640, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if want := []int{100, 100, 100, 100, 100, 100, 40}; !slices.Equal(turns, want) {
		t.Errorf("turns of %v documents, want %v (one commit of 640)", turns, want)
	}
	res, err := db.Search(ctx, Query{Game: "ogi", Text: "game:ogi", Limit: 1, Count: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 640 {
		t.Errorf("text query game:ogi: %d games, want 640", res.Total)
	}
}
