package posrun

import (
	"context"
	"testing"
)

// countFixture is TestCount's database: games 1..games, each reaching the
// hot key 7 at ply 0 (and key 8, 1 at ply 1 in one game in three), the
// occurrences of games [from, to) committed as a run each time.
type countFixture struct {
	goneFixture
}

// game is the occurrences of game g.
func (f countFixture) game(g int64) []Pos {
	ps := []Pos{{7, PackAt(g, 0, 0)}}
	if g%3 == 0 {
		ps = append(ps, Pos{8, PackAt(g, 1, 0)}, Pos{1, PackAt(g, 1, 1)})
	}
	return ps
}

// commit stores the games [from, to) as one run.
func (f countFixture) commit(from, to int64) {
	f.t.Helper()
	var ps []Pos
	for g := from; g < to; g++ {
		ps = append(ps, f.game(g)...)
	}
	commitRun(f.t, f.db, ps)
}

// counts compares Count with the occurrences the iterator gives, for
// each key, and with want when it is not negative.
func (f countFixture) counts(stage string, want map[int64]int64) {
	f.t.Helper()
	r, err := f.db.Snapshot(f.ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	defer r.Close()
	for key, w := range want {
		var iterated int64
		it := r.Occurrences(f.ctx, key)
		for it.Next() {
			iterated++
		}
		got, err := r.Count(f.ctx, key)
		if err != nil || it.Err() != nil {
			f.t.Fatalf("%s: key %d: %v %v", stage, key, err, it.Err())
		}
		if got != iterated || w >= 0 && got != w {
			f.t.Errorf("%s: key %d counted %d, iterated %d, want %d", stage, key, got, iterated, w)
		}
	}
}

// stored is the stored count rows of key in listed runs, and of unlisted
// runs.
func (f countFixture) stored(key int64) (listed, stray int) {
	f.db.sql.QueryRow(`SELECT COUNT(*) FROM pos_counts WHERE key = ? AND run IN (SELECT run FROM pos_runs)`, key).Scan(&listed)
	f.db.sql.QueryRow(`SELECT COUNT(*) FROM pos_counts WHERE run NOT IN (SELECT run FROM pos_runs)`).Scan(&stray)
	return listed, stray
}

// TestCount: Count agrees with the occurrences Occurrences gives over
// runs with and without stored counts, across merges, gone occurrences,
// an edit undone (an occurrence in two runs) and deleted games, and reads
// the stored counts where they hold.
func TestCount(t *testing.T) {
	ctx := context.Background()
	f := countFixture{goneFixture{t, ctx, openTemp(t)}}
	const games = 4 * hotMin
	addGames(t, f.db, games, func(int64) bool { return true })
	// Three runs of which two hold key 7 at least hotMin times.
	f.commit(1, hotMin+1)
	f.commit(hotMin+1, 2*hotMin+50)
	f.commit(2*hotMin+50, 2*hotMin+60)
	if listed, _ := f.stored(7); listed != 2 {
		t.Errorf("key 7 has stored counts in %d runs, want 2 (the runs of at least hotMin)", listed)
	}
	if listed, _ := f.stored(8); listed != 0 {
		t.Errorf("key 8 has stored counts in %d runs, want none", listed)
	}
	f.counts("three runs", map[int64]int64{7: 2*hotMin + 59, 8: (2*hotMin + 59) / 3, 1: (2*hotMin + 59) / 3, 99: 0})

	// A stored count is what Count adds: a wrong one shows.
	f.db.sql.Exec(`UPDATE pos_counts SET n = n + 1000 WHERE key = 7`)
	r, err := f.db.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := r.Count(ctx, 7); err != nil || n != 2*hotMin+59+2000 {
		t.Errorf("Count with stored counts raised by 2×1000: %d, %v", n, err)
	}
	r.Close()
	if problems, err := f.db.CheckCounts(ctx); err != nil || len(problems) != 2 {
		t.Errorf("CheckCounts with two wrong counts: %q, %v", problems, err)
	}
	f.db.sql.Exec(`UPDATE pos_counts SET n = n - 1000 WHERE key = 7`)
	checkRuns(t, f.db, "counts put back")

	// A merge of every run: one count, none left of the merged runs.
	if _, err := f.db.Compact(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if listed, stray := f.stored(7); listed != 1 || stray != 0 {
		t.Errorf("after the compaction: %d stored counts of key 7, %d of unlisted runs; want 1, 0", listed, stray)
	}
	f.counts("compacted", map[int64]int64{7: 2*hotMin + 59})

	// An edit: game 3 loses key 7 (gone), then gets it back (written
	// again: the occurrence is in two runs until a merge).
	f.replace(f.game(3), f.game(3)[1:])
	f.counts("game 3 without key 7", map[int64]int64{7: 2*hotMin + 58, 8: -1})
	f.replace(f.game(3)[1:], f.game(3))
	if d, err := Deleted(ctx, f.db.sql); err != nil || d == 0 {
		t.Errorf("an edit undone left pos_deleted at %d (%v): its repeat must be told", d, err)
	}
	f.counts("game 3 with key 7 again", map[int64]int64{7: 2*hotMin + 59})
	if _, err := f.db.Compact(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if d, _ := Deleted(ctx, f.db.sql); d != 0 {
		t.Errorf("pos_deleted %d after a merge of every run", d)
	}
	f.counts("compacted again", map[int64]int64{7: 2*hotMin + 59})

	// Runs without stored counts (written by an older program) are read.
	f.commit(2*hotMin+60, games+1)
	f.db.sql.Exec(`DELETE FROM pos_counts`)
	f.counts("no stored counts", map[int64]int64{7: games, 8: games / 3})
	checkRuns(t, f.db, "end")
}
