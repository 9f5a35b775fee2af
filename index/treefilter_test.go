package index_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// bruteMove is a move of a tree counted by replaying games.
type bruteMove struct {
	n, scored   int
	score       [2]float64
	wins        [2]int
	first, last string
	players     map[string]int
}

// bruteTree counts the moves of the main lines of games, by the key of
// the position they are played from (after any huff of their ply, as the
// aggregate counts them).
type bruteTree struct {
	moves     map[uint64]map[string]*bruteMove
	positions map[uint64]rules.Position
	deleted   bool // games were deleted: the aggregate's dates may be wider
}

func (b *bruteTree) add(g *replay.Game) {
	points := map[string][2]float64{"1-0": {1, 0}, "0-1": {0, 1}, "1/2-1/2": {0.5, 0.5}, "2-0": {2, 0}, "0-2": {0, 2}, "1-1": {1, 1}}
	rec := g.Record
	sides := g.Rules.Sides()
	players := [2]string{strings.TrimSpace(rec.Tag(sides[0])), strings.TrimSpace(rec.Tag(sides[1]))}
	date := index.NormalizeDate(rec.Tag("Date"))
	s, scored := points[rec.Tag("Result")]
	pos := g.Start.Clone()
	for _, st := range g.Main {
		if !st.Info.KeepsTurn {
			k := pos.Key()
			if b.moves[k] == nil {
				b.moves[k] = map[string]*bruteMove{}
				b.positions[k] = pos.Clone()
			}
			a := b.moves[k][st.Text]
			if a == nil {
				a = &bruteMove{first: date, last: date, players: map[string]int{}}
				b.moves[k][st.Text] = a
			}
			a.n++
			if scored {
				a.scored++
				a.score[0] += s[0]
				a.score[1] += s[1]
				if s[0] > s[1] {
					a.wins[0]++
				} else if s[1] > s[0] {
					a.wins[1]++
				}
			}
			if date != "" && (a.first == "" || date < a.first) {
				a.first = date
			}
			a.last = max(a.last, date)
			if p := players[pos.ToMove()]; p != "" {
				a.players[p]++
			}
		}
		pos.Play(st.Move)
	}
}

// check compares a tree with the count of its position; noTop: the tree
// names no players (a period's, counted by month).
func (b *bruteTree) check(t *testing.T, what string, pos rules.Position, tree []index.TreeMove, noTop bool) {
	t.Helper()
	want := b.moves[pos.Key()]
	if len(tree) != len(want) {
		t.Fatalf("%s, %s: %d moves %+v, want %d", what, pos, len(tree), tree, len(want))
	}
	for _, m := range tree {
		a := want[m.Move]
		if a == nil {
			t.Fatalf("%s, %s: move %s not played", what, pos, m.Move)
		}
		first, last := m.First, m.Last
		if b.deleted && first <= a.first && last >= a.last {
			// A delete does not narrow the aggregate's dates: they
			// bound the dates of the games counted.
			first, last = a.first, a.last
		}
		if m.Games != a.n || m.Scored != a.scored || m.Score != a.score || m.Wins != a.wins || m.WinsUnknown || first != a.first || last != a.last {
			t.Fatalf("%s, %s %s: %d games, %d scored, %v, wins %v, %s–%s; want %d, %d, %v, %v, %s–%s", what, pos, m.Move,
				m.Games, m.Scored, m.Score, m.Wins, m.First, m.Last, a.n, a.scored, a.score, a.wins, a.first, a.last)
		}
		if noTop {
			if len(m.Top) > 0 {
				t.Fatalf("%s, %s %s: top %v, want none", what, pos, m.Move, m.Top)
			}
			continue
		}
		var counts []int
		for _, n := range a.players {
			counts = append(counts, n)
		}
		slices.Sort(counts)
		slices.Reverse(counts)
		if len(m.Top) != min(len(counts), 3) {
			t.Fatalf("%s, %s %s: top %v, want %d of %v", what, pos, m.Move, m.Top, min(len(counts), 3), a.players)
		}
		for i, p := range m.Top {
			if p.Games != a.players[p.Name] || p.Games != counts[i] {
				t.Fatalf("%s, %s %s: top %v, players %v", what, pos, m.Move, m.Top, a.players)
			}
		}
	}
}

// storedGames replays every valid game of db, by id.
func storedGames(t *testing.T, db *index.DB, game string) map[int64]*replay.Game {
	t.Helper()
	ctx := context.Background()
	res, err := db.Search(ctx, index.Query{Game: game, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]*replay.Game{}
	for _, h := range res.Hits {
		text, err := db.Text(ctx, h.ID)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := record.NewReader(bytes.NewReader(text), "stored").Next()
		if err != nil {
			t.Fatal(err)
		}
		g := replay.Replay(rec, replay.Options{})
		if g.Err != nil {
			t.Fatalf("game %d: %v", h.ID, g.Err)
		}
		out[h.ID] = g
	}
	return out
}

// elo is a side's rating as the band reads it.
func elo(rec *record.Game, side string) (int, bool) {
	v := rec.Tag(side + "Elo")
	n, err := strconv.Atoi(v)
	return n, err == nil && strconv.Itoa(n) == v
}

// treeCase is a query of a filtered tree and, when the selection can be
// told from the records alone, its predicate over them.
type treeCase struct {
	name  string
	v     url.Values
	pred  func(rec *record.Game) bool
	noTop bool // a period in whole months: its tree names no players
}

// treeCases are the queries of TestFilteredTree over games.
func treeCases(rg rules.Game, games map[int64]*replay.Game) []treeCase {
	sides := rg.Sides()
	count := map[string]int{}
	results := map[string]int{}
	for _, g := range games {
		count[strings.TrimSpace(g.Record.Tag(sides[0]))]++
		results[g.Record.Tag("Result")]++
	}
	top := func(m map[string]int) string {
		best := ""
		for k, n := range m {
			if n > m[best] || n == m[best] && k < best {
				best = k
			}
		}
		return best
	}
	player, result := top(count), top(results)
	date := func(rec *record.Game) string { return index.NormalizeDate(rec.Tag("Date")) }
	band := func(lo, hi int) func(rec *record.Game) bool {
		return func(rec *record.Game) bool {
			a, ok1 := elo(rec, sides[0])
			b, ok2 := elo(rec, sides[1])
			return ok1 && ok2 && a >= lo && b >= lo && (hi == 0 || a <= hi && b <= hi)
		}
	}
	return []treeCase{
		{"every game", url.Values{"min-plies": {"1"}}, func(*record.Game) bool { return true }, false},
		{"a player as side 0", url.Values{"player": {player}, "side": {sides[0]}},
			func(rec *record.Game) bool { return strings.TrimSpace(rec.Tag(sides[0])) == player }, false},
		{"a player as side 1", url.Values{"player": {player}, "side": {"1"}},
			func(rec *record.Game) bool { return strings.TrimSpace(rec.Tag(sides[1])) == player }, false},
		{"a player either side", url.Values{"player": {player}}, nil, false},
		{name: "a period", v: url.Values{"from": {"1990"}, "to": {"2009.06"}}, noTop: true,
			pred: func(rec *record.Game) bool { d := date(rec); return d >= "1990" && d <= "2009.06~" }},
		{name: "a period from", v: url.Values{"from": {"2001.03"}}, noTop: true,
			pred: func(rec *record.Game) bool { return date(rec) >= "2001.03" }},
		{name: "a period to", v: url.Values{"to": {"1999"}}, noTop: true,
			pred: func(rec *record.Game) bool { d := date(rec); return d != "" && d <= "1999~" }},
		{name: "a period of days", v: url.Values{"from": {"1990.03.15"}, "to": {"2009.06.20"}},
			pred: func(rec *record.Game) bool { d := date(rec); return d >= "1990.03.15" && d <= "2009.06.20~" }},
		{"a result", url.Values{"result": {result}}, func(rec *record.Game) bool { return rec.Tag("Result") == result }, false},
		{"a rating band", url.Values{"min-elo": {"1500"}, "max-elo": {"2100"}}, band(1500, 2100), false},
		{"a rating floor", url.Values{"min-elo": {"2000"}}, band(2000, 0), false},
		{"a rating ceiling", url.Values{"max-elo": {"1800"}}, band(0, 1800), false},
		{"a period and a band", url.Values{"from": {"1980"}, "min-elo": {"1200"}},
			func(rec *record.Game) bool { return date(rec) >= "1980" && band(1200, 0)(rec) }, false},
		{"nobody", url.Values{"player": {"Zzyzx Qwv"}}, func(*record.Game) bool { return false }, false},
	}
}

// TestFilteredTree compares the trees of the games a query selects with a
// count made by replaying those games, at the start, at the positions most
// played and at every position of the games that begin elsewhere or hold
// huffs; the games a query selects are those its search lists, and, where
// the records tell, those a predicate over them selects. A query that
// selects every game gives the unfiltered tree.
func TestFilteredTree(t *testing.T) {
	ctx := context.Background()
	for _, game := range []string{"ogi", "dames"} {
		t.Run(game, func(t *testing.T) {
			rg, _ := rules.Lookup(game)
			dir := t.TempDir()
			db := openDB(t, filepath.Join(dir, "db"))
			files := []string{writeFile(t, dir, "gen.pdn", genText(t, game, 300, 5))}
			samples, _ := filepath.Glob(filepath.Join("..", "samples", game, "*.pdn"))
			if len(samples) == 0 {
				t.Fatal("no sample files")
			}
			files = append(files, samples...)
			if _, err := importFiles(ctx, db, files, index.ImportOptions{TxGames: 41}); err != nil {
				t.Fatal(err)
			}
			games := storedGames(t, db, game)
			start, _ := rg.NewPosition("")
			cases := treeCases(rg, games)
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					checkFilteredTree(t, db, rg, games, tc, start, false)
				})
			}
			// The same from the occurrences alone (no opening lines read).
			t.Run("from the occurrences", func(t *testing.T) {
				index.SetTreeLineGames(db, -1)
				defer index.SetTreeLineGames(db, 0)
				for _, tc := range cases[1:4] {
					checkFilteredTree(t, db, rg, games, tc, start, false)
				}
			})
			// Deleted games leave the trees, their months' too.
			var gone []int64
			for id := range games {
				if id%7 == 0 {
					gone = append(gone, id)
				}
			}
			if n, err := db.Delete(ctx, gone, nil); err != nil || n != len(gone) {
				t.Fatalf("deleted %d of %d: %v", n, len(gone), err)
			}
			for _, id := range gone {
				delete(games, id)
			}
			for _, tc := range cases[:7] {
				t.Run(tc.name+" after deletions", func(t *testing.T) {
					checkFilteredTree(t, db, rg, games, tc, start, true)
				})
			}
		})
	}
}

// checkFilteredTree checks the trees of one query.
func checkFilteredTree(t *testing.T, db *index.DB, rg rules.Game, games map[int64]*replay.Game, tc treeCase, start rules.Position, deleted bool) {
	ctx := context.Background()
	v := url.Values{"game": {rg.ID()}}
	for name, vs := range tc.v {
		v[name] = vs
	}
	q, err := index.ParseQuery(v)
	if err != nil {
		t.Fatal(err)
	}
	sq := q
	sq.Game, sq.Limit = rg.ID(), -1
	res, err := db.Search(ctx, sq)
	if err != nil {
		t.Fatal(err)
	}
	b := bruteTree{moves: map[uint64]map[string]*bruteMove{}, positions: map[uint64]rules.Position{}, deleted: deleted}
	picked := map[int64]bool{}
	for _, h := range res.Hits {
		picked[h.ID] = true
		b.add(games[h.ID])
	}
	if tc.pred != nil {
		for id, g := range games {
			if tc.pred(g.Record) != picked[id] {
				t.Fatalf("game %d (%v): searched %v", id, g.Record.Tags, picked[id])
			}
		}
	}
	if tc.name != "nobody" && (len(picked) == 0 || len(picked) == len(games) && tc.name != "every game") {
		t.Fatalf("%d of %d games: the query would not filter", len(picked), len(games))
	}
	// The positions: the start, the most played, and every one of the
	// games that begin elsewhere or hold huffs (picked or not).
	positions := []rules.Position{start}
	keys := slices.Collect(func(yield func(uint64) bool) {
		for k := range b.moves {
			if !yield(k) {
				return
			}
		}
	})
	games0 := func(k uint64) (n int) {
		for _, m := range b.moves[k] {
			n += m.n
		}
		return n
	}
	slices.SortFunc(keys, func(x, y uint64) int {
		if d := games0(y) - games0(x); d != 0 {
			return d
		}
		return strings.Compare(fmt.Sprint(x), fmt.Sprint(y))
	})
	for _, k := range keys[:min(len(keys), 40)] {
		positions = append(positions, b.positions[k])
	}
	special := 0
	for _, g := range games {
		if g.Record.Tag("FEN") == "" && !slices.ContainsFunc(g.Main, func(s *replay.Step) bool { return s.Info.KeepsTurn }) {
			continue
		}
		special++
		pos := g.Start.Clone()
		positions = append(positions, pos.Clone())
		for _, st := range g.Main {
			pos.Play(st.Move)
			positions = append(positions, pos.Clone())
		}
	}
	// Positions inside variations, which a tree does not count.
	inside := 0
	for _, g := range games {
		pos := g.Start.Clone()
		for _, st := range g.Main {
			for _, v := range st.Variations {
				vp := pos.Clone()
				for _, vs := range v {
					vp.Play(vs.Move)
					positions = append(positions, vp.Clone())
					inside++
				}
			}
			pos.Play(st.Move)
		}
		if inside > 100 {
			break
		}
	}
	if special == 0 || inside == 0 {
		t.Fatalf("%d games begin elsewhere or hold a huff, %d positions inside variations: the test would not cover them", special, inside)
	}
	for _, pos := range positions {
		tree, err := db.FilteredTree(ctx, rg.ID(), pos, q)
		if err != nil {
			t.Fatal(err)
		}
		b.check(t, tc.name, pos, tree, tc.noTop)
		if tc.name == "every game" {
			all, err := db.Tree(ctx, rg.ID(), pos)
			if err != nil {
				t.Fatal(err)
			}
			b.check(t, "unfiltered", pos, all, false)
		}
	}
}

// TestFilteredTreeCriteria: a tree takes the criteria of games, not those
// of positions, nor invalid games, nor another ruleset's.
func TestFilteredTreeCriteria(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "db"))
	rg, _ := rules.Lookup("ogi")
	start, _ := rg.NewPosition("")
	pat, err := index.ParsePattern("K@e1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q    index.Query
		name string
	}{
		{index.Query{Position: start}, "position"},
		{index.Query{Pattern: pat}, "pattern"},
		{index.Query{Invalid: true}, "invalid"},
		{index.Query{Game: "draughts", Event: "x"}, "game"},
	} {
		_, err := db.FilteredTree(ctx, "ogi", start, tc.q)
		var ce *index.CriterionError
		if !errors.As(err, &ce) || ce.Name != tc.name || !errors.Is(err, index.ErrQuery) {
			t.Errorf("%+v: %v, want a criterion error naming %s", tc.q, err, tc.name)
		}
	}
	if _, err := db.FilteredTree(ctx, "ogi", start, index.Query{Game: "ogi", Event: "x"}); err != nil {
		t.Errorf("the tree's own ruleset: %v", err)
	}
}
