package index_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// TestTreeAggregate compares every opening-tree row of collections
// imported in small transactions (the positions of the first
// TreeAggDepth plies) with a tree counted by replaying the games: games,
// scored games, points, first and last dates, and the top players'
// counts.
func TestTreeAggregate(t *testing.T) {
	ctx := context.Background()
	type agg struct {
		n, scored   int
		score       [2]float64
		first, last string
		players     map[string]int
	}
	points := map[string][2]float64{"1-0": {1, 0}, "0-1": {0, 1}, "1/2-1/2": {0.5, 0.5}, "2-0": {2, 0}, "0-2": {0, 2}, "1-1": {1, 1}}
	for _, game := range []string{"ogi", "draughts"} {
		t.Run(game, func(t *testing.T) {
			dir := t.TempDir()
			db := openDB(t, filepath.Join(dir, "db"))
			text := genText(t, game, 500, 11)
			f := writeFile(t, dir, game+".pdn", text)
			if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{TxGames: 37}); err != nil {
				t.Fatal(err)
			}
			want := map[uint64]map[string]*agg{}
			positions := map[uint64]rules.Position{}
			unscored := 0
			for i, rec := range readAll(t, text) {
				g := replay.Replay(rec, replay.Options{})
				if g.Err != nil {
					t.Fatalf("game %d: %v", i+1, g.Err)
				}
				sides := g.Rules.Sides()
				players := [2]string{strings.TrimSpace(rec.Tag(sides[0])), strings.TrimSpace(rec.Tag(sides[1]))}
				date := index.NormalizeDate(rec.Tag("Date"))
				s, scored := points[rec.Tag("Result")]
				if !scored {
					unscored++
				}
				pos := g.Start.Clone()
				for j, st := range g.Main {
					if j >= index.TreeAggDepth {
						break
					}
					k := pos.Key()
					if want[k] == nil {
						want[k] = map[string]*agg{}
						positions[k] = pos.Clone()
					}
					a := want[k][st.Text]
					if a == nil {
						a = &agg{first: date, last: date, players: map[string]int{}}
						want[k][st.Text] = a
					}
					a.n++
					if scored {
						a.scored++
						a.score[0] += s[0]
						a.score[1] += s[1]
					}
					if date != "" && (a.first == "" || date < a.first) {
						a.first = date
					}
					a.last = max(a.last, date)
					if p := players[pos.ToMove()]; p != "" {
						a.players[p]++
					}
					pos.Play(st.Move)
				}
			}
			if unscored == len(want) {
				t.Fatal("no scored game: the test would not cover scores")
			}
			moves, multi := 0, 0
			for k, ms := range want {
				tree, err := db.Tree(ctx, game, positions[k])
				if err != nil {
					t.Fatal(err)
				}
				if len(tree) != len(ms) {
					t.Fatalf("%s: %d moves, want %d", positions[k], len(tree), len(ms))
				}
				for _, m := range tree {
					a := ms[m.Move]
					if a == nil {
						t.Fatalf("%s: move %s not played", positions[k], m.Move)
					}
					moves++
					if a.n > 1 {
						multi++
					}
					if m.Games != a.n || m.Scored != a.scored || m.Score != a.score || m.First != a.first || m.Last != a.last {
						t.Fatalf("%s %s: %d games, %d scored, %v, %s–%s; want %d, %d, %v, %s–%s", positions[k], m.Move,
							m.Games, m.Scored, m.Score, m.First, m.Last, a.n, a.scored, a.score, a.first, a.last)
					}
					counts := slices.Sorted(func(yield func(int) bool) {
						for _, n := range a.players {
							if !yield(n) {
								return
							}
						}
					})
					slices.Reverse(counts)
					if len(m.Top) != min(len(counts), 3) {
						t.Fatalf("%s %s: top %v, want %d players of %v", positions[k], m.Move, m.Top, min(len(counts), 3), a.players)
					}
					for i, p := range m.Top {
						if p.Games != a.players[p.Name] || p.Games != counts[i] {
							t.Fatalf("%s %s: top %v, players %v", positions[k], m.Move, m.Top, a.players)
						}
					}
				}
			}
			if multi < 20 {
				t.Fatalf("%d of %d moves played more than once: the test would not cover aggregation", multi, moves)
			}
		})
	}
}
