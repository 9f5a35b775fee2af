package index_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// brute holds every position of every game, replayed independently of the
// index, to check its answers.
type brutePos struct {
	game  int64
	key   uint64
	ply   int
	vari  bool
	board []rules.Placement
}

func bruteWalk(steps []*replay.Step, pos rules.Position, ply int, vari bool, id int64, out *[]brutePos) {
	for _, s := range steps {
		for _, v := range s.Variations {
			bruteWalk(v, pos.Clone(), ply, true, id, out)
		}
		pos.Play(s.Move)
		if !s.Info.KeepsTurn {
			ply++
		}
		*out = append(*out, brutePos{id, pos.Key(), ply, vari, pos.Board()})
	}
}

func readAll(t *testing.T, text []byte) []*record.Game {
	t.Helper()
	r := record.NewReader(bytes.NewReader(text), "x")
	var gs []*record.Game
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return gs
		}
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
}

// TestSearchAgainstBruteForce compares position and pattern searches with a
// replay of every game (main lines and variations).
func TestSearchAgainstBruteForce(t *testing.T) {
	// "draughts, legacy keys": a database made before the deep salt was
	// kept in meta (its stored keys spread the two keys of a position).
	for _, game := range []string{"jetan", "draughts", "draughts, legacy keys"} {
		t.Run(game, func(t *testing.T) {
			game, legacy := strings.CutSuffix(game, ", legacy keys")
			f := newBruteFixture(t, game, legacy)
			f.replayAll(t)
			f.checkTrees(t)
			f.checkPositions(t)
			f.checkPatterns(t)
		})
	}
}

// bruteFixture is one generated collection imported into a database, with
// every position of its games replayed independently of the index; its
// steps are the checks of TestSearchAgainstBruteForce, in order.
type bruteFixture struct {
	ctx      context.Context
	game     string
	text     []byte
	db       *index.DB
	all      []brutePos                // every position, game by game
	treeWant map[uint64]map[string]int // key → move → games, from main lines
	treeKeys []rules.Position          // positions whose trees are checked
}

// newBruteFixture imports 150 games; with legacy, into a database whose
// deep salt was removed from meta, as made before the salt was kept.
func newBruteFixture(t *testing.T, game string, legacy bool) *bruteFixture {
	ctx := context.Background()
	dir := t.TempDir()
	text := genText(t, game, 150, 3)
	file := writeFile(t, dir, "g.pdn", text)
	db := openDB(t, dir+"/db")
	var salt sql.NullInt64
	if err := db.SQL().QueryRowContext(ctx, `SELECT v FROM meta WHERE k = 'deep_salt'`).Scan(&salt); err != nil || salt.Int64 != 1 {
		t.Fatalf("a new database's deep salt: %v %v, want 1", salt, err)
	}
	if legacy {
		if _, err := db.SQL().ExecContext(ctx, `DELETE FROM meta WHERE k = 'deep_salt'`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		db = openDB(t, dir+"/db")
	}
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	return &bruteFixture{ctx: ctx, game: game, text: text, db: db}
}

// replayAll replays every game of the record text: all its positions, the
// moves played from each main-line position, and a sample of positions for
// the trees. The collection must hold variations.
func (f *bruteFixture) replayAll(t *testing.T) {
	f.treeWant = map[uint64]map[string]int{}
	for i, rec := range readAll(t, f.text) {
		g := replay.Replay(rec, replay.Options{})
		if g.Err != nil {
			t.Fatalf("game %d: %v", i+1, g.Err)
		}
		pos := g.Start.Clone()
		for j, st := range g.Main {
			if f.treeWant[pos.Key()] == nil {
				f.treeWant[pos.Key()] = map[string]int{}
			}
			f.treeWant[pos.Key()][st.Text]++
			if i%10 == 0 && (j == 3 || j == index.TreeDepth+2 || j == 2*index.TreeDepth) {
				f.treeKeys = append(f.treeKeys, pos.Clone())
			}
			pos.Play(st.Move)
		}
		id := int64(i + 1)
		f.all = append(f.all, brutePos{id, g.Start.Key(), 0, false, g.Start.Board()})
		bruteWalk(g.Main, g.Start.Clone(), 0, false, id, &f.all)
	}
	variations := 0
	for _, p := range f.all {
		if p.vari {
			variations++
		}
	}
	if variations == 0 {
		t.Fatal("the collection has no variations: the test would not cover them")
	}
}

// checkTrees checks opening trees, from the aggregate (shallow) and from
// the positions table (deep).
func (f *bruteFixture) checkTrees(t *testing.T) {
	for _, pos := range f.treeKeys {
		tree, err := f.db.Tree(f.ctx, f.game, pos)
		if err != nil {
			t.Fatal(err)
		}
		want := f.treeWant[pos.Key()]
		if len(tree) != len(want) {
			t.Fatalf("tree of %s: %+v, want %v", pos, tree, want)
		}
		for _, m := range tree {
			if want[m.Move] != m.Games {
				t.Fatalf("tree of %s: %s %d games, want %d", pos, m.Move, m.Games, want[m.Move])
			}
		}
	}
}

// checkPositions checks exact positions: a sample of positions, from main
// lines and variations; the search must list exactly the (game, ply,
// variation) occurrences.
func (f *bruteFixture) checkPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sample := []brutePos{}
	for len(sample) < 40 {
		p := f.all[r.IntN(len(f.all))]
		if len(sample) < 10 && !p.vari {
			continue
		}
		sample = append(sample, p)
	}
	type occ struct {
		game int64
		ply  int
		vari bool
	}
	for _, p := range sample {
		want := map[occ]bool{}
		for _, q := range f.all {
			if q.key == p.key {
				want[occ{q.game, q.ply, q.vari}] = true
			}
		}
		pos := findPos(t, f.game, f.text, p)
		res, err := f.db.Search(f.ctx, index.Query{Game: f.game, Position: pos, Limit: -1, Count: true})
		if err != nil {
			t.Fatal(err)
		}
		got := map[occ]bool{}
		for _, h := range res.Hits {
			got[occ{h.ID, h.Ply, h.Variation}] = true
		}
		if len(got) != len(want) || res.Total != len(want) {
			t.Fatalf("position at game %d ply %d: got %v (total %d), want %v", p.game, p.ply, got, res.Total, want)
		}
		for o := range want {
			if !got[o] {
				t.Fatalf("position at game %d ply %d: missing %v", p.game, p.ply, o)
			}
		}
	}
}

// checkPatterns checks a few patterns of each game against bruteMatch of
// every position.
func (f *bruteFixture) checkPatterns(t *testing.T) {
	var patterns []string
	switch f.game {
	case "jetan":
		patterns = []string{"Black:C@e1 Orange:P@e10", "empty@e2,f2,g2", "Black:N<=6", "P@e5,f5,e6,f6", "Orange:*<=12 Black:*>=14", "T@a2,j2,a9"}
	case "draughts":
		patterns = []string{"+K@1,2,3,4,5,46,47,48,49,50", "White:M@28 Black:M@23", "empty@46,47,48,49,50", "Black:M<=12 White:M>=13", "K>=1"}
	}
	g, _ := rules.Lookup(f.game)
	for _, ptext := range patterns {
		pat, err := index.ParsePattern(ptext)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int64]bool{}
		for _, q := range f.all {
			if bruteMatch(g, pat, q.board) {
				want[q.game] = true
			}
		}
		res, err := f.db.Search(f.ctx, index.Query{Game: f.game, Pattern: pat, Limit: -1, Count: true})
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, h := range res.Hits {
			got = append(got, h.ID)
			// The reported ply holds a matching position.
			ok := false
			for _, q := range f.all {
				if q.game == h.ID && q.ply == h.Ply && q.vari == h.Variation && bruteMatch(g, pat, q.board) {
					ok = true
				}
			}
			if !ok {
				t.Fatalf("pattern %q: game %d ply %d does not match", ptext, h.ID, h.Ply)
			}
		}
		if len(got) != len(want) || res.Total != len(want) {
			sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
			t.Fatalf("pattern %q: %d games (total %d), want %d", ptext, len(got), res.Total, len(want))
		}
		t.Logf("pattern %q: %d games", ptext, len(got))
	}
}

// bruteMatch is an independent reading of the pattern terms.
func bruteMatch(g rules.Game, p *index.Pattern, board []rules.Placement) bool {
	sides := g.Sides()
	for _, t := range p.Terms {
		side := -1
		for i, s := range sides {
			if t.Side == s {
				side = i
			}
		}
		fits := func(pl rules.Placement) bool {
			return (side < 0 || int(pl.Side) == side) && (t.Piece == 0 || pl.Kind == t.Piece) &&
				(t.Promo < 0 || pl.Promoted == (t.Promo == 1))
		}
		in := func(sq string) bool {
			for _, s := range t.Squares {
				if s == sq {
					return true
				}
			}
			return false
		}
		switch t.Kind {
		case index.OnSquares:
			ok := false
			for _, pl := range board {
				if pl.Square != "" && in(pl.Square) && fits(pl) {
					ok = true
				}
			}
			if !ok {
				return false
			}
		case index.Empty:
			for _, pl := range board {
				if pl.Square != "" && in(pl.Square) {
					return false
				}
			}
		default:
			n := 0
			for _, pl := range board {
				if (pl.Square == "") == (t.Kind == index.InHand) && fits(pl) {
					n += pl.Count
				}
			}
			ok := map[string]bool{"=": n == t.N, "!=": n != t.N, "<": n < t.N, "<=": n <= t.N, ">": n > t.N, ">=": n >= t.N}[t.Op]
			if !ok {
				return false
			}
		}
	}
	return true
}

// findPos rebuilds the position of a brute-force entry through the
// position notation (so the search starts from text, as the CLI does).
func findPos(t *testing.T, game string, text []byte, p brutePos) rules.Position {
	t.Helper()
	recs := readAll(t, text)
	g := replay.Replay(recs[p.game-1], replay.Options{})
	var found rules.Position
	var walk func(steps []*replay.Step, pos rules.Position)
	walk = func(steps []*replay.Step, pos rules.Position) {
		if pos.Key() == p.key && found == nil {
			found = pos.Clone()
		}
		for _, s := range steps {
			for _, v := range s.Variations {
				walk(v, pos.Clone())
			}
			pos.Play(s.Move)
			if pos.Key() == p.key && found == nil {
				found = pos.Clone()
			}
		}
	}
	walk(g.Main, g.Start.Clone())
	if found == nil {
		t.Fatal("position not found")
	}
	pos, err := index.Position(game, found.String())
	if err != nil {
		t.Fatalf("position %q: %v", found.String(), err)
	}
	if pos.Key() != p.key {
		t.Fatalf("position %q does not round-trip its key", found.String())
	}
	return pos
}
