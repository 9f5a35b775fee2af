package index_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"

	"github.com/plateau/plateau/internal/longtest"
	_ "github.com/plateau/plateau/rules/sauts"
)

// naiveTerm is a pattern term read independently of index.ParsePattern's
// compiled forms: a side resolved by name, prefix or number.
type naiveTerm struct {
	t    index.Term
	side int
}

func naiveSide(sides [2]string, s string) int {
	switch s {
	case "":
		return -1
	case "0", "1":
		return int(s[0] - '0')
	}
	side := -1
	for i, name := range sides {
		if strings.HasPrefix(strings.ToLower(name), strings.ToLower(s)) {
			side = i
		}
	}
	return side
}

// naiveMatch tests a board (rules.Position.Board) the slow, obvious way.
func naiveMatch(sides [2]string, p *index.Pattern, board []rules.Placement) bool {
	for _, t := range p.Terms {
		side := naiveSide(sides, t.Side)
		fits := func(pl rules.Placement) bool {
			return (side < 0 || int(pl.Side) == side) && (t.Piece == 0 || pl.Kind == t.Piece) &&
				(t.Promo < 0 || pl.Promoted == (t.Promo == 1))
		}
		switch t.Kind {
		case index.OnSquares:
			ok := false
			for _, pl := range board {
				if pl.Square != "" && slices.Contains(t.Squares, pl.Square) && fits(pl) {
					ok = true
				}
			}
			if !ok {
				return false
			}
		case index.Empty:
			for _, pl := range board {
				if pl.Square != "" && slices.Contains(t.Squares, pl.Square) {
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
			var ok bool
			switch t.Op {
			case "=":
				ok = n == t.N
			case "!=":
				ok = n != t.N
			case "<":
				ok = n < t.N
			case "<=":
				ok = n <= t.N
			case ">":
				ok = n > t.N
			case ">=":
				ok = n >= t.N
			default:
				panic("op " + t.Op)
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

// sideText writes a side as a pattern may: by name in any case, by prefix,
// by number, or not at all (either side).
func sideText(r *rand.Rand, sides [2]string, s rules.Side) string {
	name := sides[s]
	// The shortest prefix that tells the sides apart.
	k := 1
	for strings.HasPrefix(strings.ToLower(sides[1-s]), strings.ToLower(name[:k])) {
		k++
	}
	switch r.IntN(6) {
	case 0:
		return ""
	case 1:
		return fmt.Sprint(int(s)) + ":"
	case 2:
		return strings.ToLower(name) + ":"
	case 3:
		return name[:k+r.IntN(len(name)-k+1)] + ":"
	}
	return name + ":"
}

// randomPattern makes a pattern from a position of the collection, so that
// some positions match it and most do not.
func randomPattern(r *rand.Rand, sides [2]string, board []rules.Placement, squares []string) string {
	var terms []string
	ops := []string{"=", "==", "!=", "<", "<=", ">", ">="}
	someSquares := func(n int) []string {
		var out []string
		for range n {
			out = append(out, squares[r.IntN(len(squares))])
		}
		// (A square the game does not have is an error: TestSearchWithoutTraps.)
		return out
	}
	for range 1 + r.IntN(3) {
		pl := board[r.IntN(len(board))]
		piece := string(pl.Kind)
		if r.IntN(6) == 0 {
			piece = "*"
		}
		switch r.IntN(5) {
		case 0:
		case 1, 2:
			if pl.Promoted {
				piece = "+" + piece
			} else {
				piece = "-" + piece
			}
		case 3: // the wrong state, sometimes
			if pl.Promoted {
				piece = "-" + piece
			} else {
				piece = "+" + piece
			}
		}
		spec := sideText(r, sides, pl.Side) + piece
		switch k := r.IntN(5); {
		case k == 0 && pl.Square != "":
			terms = append(terms, spec+"@"+strings.Join(append(someSquares(r.IntN(3)), pl.Square), ","))
		case k == 0:
			terms = append(terms, spec+"@"+strings.Join(someSquares(1+r.IntN(3)), ","))
		case k == 1:
			terms = append(terms, "empty@"+strings.Join(someSquares(1+r.IntN(3)), ","))
		case k == 2 || pl.Square == "":
			h := spec + "@hand"
			if r.IntN(3) > 0 {
				h += ops[r.IntN(len(ops))] + fmt.Sprint(r.IntN(pl.Count+3))
			}
			terms = append(terms, h)
		default:
			n := 0
			for _, q := range board {
				if q.Square != "" && q.Kind == pl.Kind && q.Side == pl.Side {
					n++
				}
			}
			terms = append(terms, spec+ops[r.IntN(len(ops))]+fmt.Sprint(max(0, n-1+r.IntN(3))))
		}
	}
	return strings.Join(terms, " ")
}

// TestPatternAgainstNaiveReplay imports generated collections (with the
// hand-made samples, for set-up starts, huffs and endings) of every
// ruleset, and checks random patterns made from their positions (pieces of
// a side, a kind, promoted or not, on squares; empty squares; hands;
// material counts; sides by name, prefix or number) against a naive test of
// every position replayed from the record text: the same games, each at its
// first matching position in play order (variations before the move they
// replace), counted, and paged.
func TestPatternAgainstNaiveReplay(t *testing.T) {
	longtest.Skip(t)
	games, patterns := 100, 60
	if testing.Short() {
		games, patterns = 20, 10
	}
	for _, game := range []string{"ogi", "dames", "dames-brigand", "loup-moutons", "draughts", "jetan", "dejarik", "sauts"} {
		t.Run(game, func(t *testing.T) {
			f := newNaiveFixture(t, game, games)
			f.replayAll(t)
			r := rand.New(rand.NewPCG(uint64(len(game)), 99))
			for range patterns {
				f.checkRandomPattern(t, r)
			}
			f.checkTally(t, patterns)
		})
	}
}

// naiveFixture is one ruleset's collection (generated games, then the
// samples) imported into a database, with every position replayed from
// the record text; its steps are the checks of
// TestPatternAgainstNaiveReplay, in order.
type naiveFixture struct {
	ctx     context.Context
	game    string
	sides   [2]string
	text    []byte
	db      *index.DB
	recs    []*record.Game // the records, in id order
	all     []brutePos     // every position, game by game, in play order
	squares []string       // every square a piece stands on, sorted

	// The tally of the patterns tried.
	kinds                    map[index.TermKind]int
	matchedSome, inVariation int
}

// newNaiveFixture imports the given number of generated games of game, then
// its samples. Every record must be valid, so that ids follow the records.
func newNaiveFixture(t *testing.T, game string, games int) *naiveFixture {
	ctx := context.Background()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	text := genText(t, game, games, 11)
	samples, err := filepath.Glob(filepath.Join("..", "samples", game, "*.pdn"))
	if err != nil || len(samples) == 0 {
		t.Fatalf("no samples for %s: %v", game, err)
	}
	for _, f := range samples {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text = append(append(text, '\n'), b...)
	}
	dir := t.TempDir()
	file := writeFile(t, dir, "g.pdn", text)
	db := openDB(t, filepath.Join(dir, "db"))
	recs := readAll(t, text)
	st, err := importFiles(ctx, db, []string{file}, index.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Valid != len(recs) {
		t.Fatalf("%d valid games of %d (%+v): ids would not follow the records", st.Valid, len(recs), st)
	}
	return &naiveFixture{ctx: ctx, game: game, sides: g.Sides(), text: text, db: db, recs: recs,
		kinds: map[index.TermKind]int{}}
}

// replayAll replays every record, and lists the squares pieces stand on.
func (f *naiveFixture) replayAll(t *testing.T) {
	for i, rec := range f.recs {
		rg := replay.Replay(rec, replay.Options{})
		if rg.Err != nil {
			t.Fatalf("game %d: %v", i+1, rg.Err)
		}
		id := int64(i + 1)
		f.all = append(f.all, brutePos{id, rg.Start.Key(), 0, false, rg.Start.Board()})
		bruteWalk(rg.Main, rg.Start.Clone(), 0, false, id, &f.all)
	}
	squareSet := map[string]bool{}
	for _, p := range f.all {
		for _, pl := range p.board {
			if pl.Square != "" {
				squareSet[pl.Square] = true
			}
		}
	}
	for s := range squareSet {
		f.squares = append(f.squares, s)
	}
	slices.Sort(f.squares)
}

// checkRandomPattern makes a pattern from a random position and checks the
// search's hits against naiveMatch of every position.
func (f *naiveFixture) checkRandomPattern(t *testing.T, r *rand.Rand) {
	p := f.all[r.IntN(len(f.all))]
	if len(p.board) == 0 {
		return
	}
	ptext := randomPattern(r, f.sides, p.board, f.squares)
	pat, err := index.ParsePattern(ptext)
	if err != nil {
		t.Fatalf("pattern %q: %v", ptext, err)
	}
	for _, term := range pat.Terms {
		f.kinds[term.Kind]++
	}
	// The first matching position of each game, in play order.
	var want []index.Hit
	for _, q := range f.all {
		if (len(want) == 0 || want[len(want)-1].ID != q.game) && naiveMatch(f.sides, pat, q.board) {
			want = append(want, index.Hit{ID: q.game, Ply: q.ply, Variation: q.vari})
		}
	}
	res, err := f.db.Search(f.ctx, index.Query{Game: f.game, Pattern: pat, Limit: -1, Count: true})
	if err != nil {
		t.Fatalf("pattern %q: %v", ptext, err)
	}
	if res.Total != len(want) || len(res.Hits) != len(want) {
		t.Fatalf("pattern %q: %d hits (total %d), want %d", ptext, len(res.Hits), res.Total, len(want))
	}
	for i, h := range res.Hits {
		if h.ID != want[i].ID || h.Ply != want[i].Ply || h.Variation != want[i].Variation {
			t.Fatalf("pattern %q: hit %d is game %d ply %d variation %v, want game %d ply %d variation %v",
				ptext, i, h.ID, h.Ply, h.Variation, want[i].ID, want[i].Ply, want[i].Variation)
		}
		if h.Game != f.game || h.Plies == 0 && h.Ply > 0 {
			t.Fatalf("pattern %q: hit %+v lacks its game's columns", ptext, h)
		}
		if h.Variation {
			f.inVariation++
		}
	}
	if len(want) > 0 {
		f.matchedSome++
	}
	f.checkPage(t, ptext, pat, want)
}

// checkPage checks that a page without a count stops early and agrees.
func (f *naiveFixture) checkPage(t *testing.T, ptext string, pat *index.Pattern, want []index.Hit) {
	if len(want) < 3 {
		return
	}
	page, err := f.db.Search(f.ctx, index.Query{Game: f.game, Pattern: pat, Offset: 1, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != -1 || len(page.Hits) != 2 || page.Hits[0].ID != want[1].ID || page.Hits[1].ID != want[2].ID ||
		page.Hits[1].Ply != want[2].Ply {
		t.Fatalf("pattern %q: page %+v, want games %d, %d", ptext, page, want[1].ID, want[2].ID)
	}
}

// checkTally checks that the patterns tried could see a wrong match, and
// that Ōgi's tried a hand term.
func (f *naiveFixture) checkTally(t *testing.T, patterns int) {
	t.Logf("%d patterns, %d matching some game, %d first matches in variations; terms %v", patterns, f.matchedSome, f.inVariation, f.kinds)
	if f.matchedSome == 0 {
		t.Fatal("no pattern matched: the test would not see a wrong match")
	}
	if f.game == "ogi" && f.kinds[index.InHand] == 0 {
		t.Fatal("no hand term was tried")
	}
}

// TestPatternStaleMovesUseRecord spoils the stored moves of some games (a
// wrong final key; move values the rules do not know) and checks that the
// answers are those of the intact database: such games are matched from
// their record text.
func TestPatternStaleMovesUseRecord(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	text := genText(t, "ogi", 40, 5)
	file := writeFile(t, dir, "g.pdn", text)
	db := openDB(t, filepath.Join(dir, "db"))
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	patterns := []string{"Sente:+*>=1", "Gote:P@hand>=2", "empty@e3,e6", "Sente:R@g2 Gote:B@g7", "*<=30"}
	search := func() string {
		var b bytes.Buffer
		for _, p := range patterns {
			pat, err := index.ParsePattern(p)
			if err != nil {
				t.Fatal(err)
			}
			res, err := db.Search(ctx, index.Query{Game: "ogi", Pattern: pat, Limit: -1, Count: true})
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			fmt.Fprintf(&b, "%s: %d:", p, res.Total)
			for _, h := range res.Hits {
				fmt.Fprintf(&b, " %d/%d/%v", h.ID, h.Ply, h.Variation)
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	want := search()
	// Wrong final keys, and main lines replaced by a valid encoding of
	// moves the rules never made (a move value of 1, repeated).
	if _, err := db.SQL().ExecContext(ctx, `UPDATE games SET final = final + 1 WHERE id % 3 = 0`); err != nil {
		t.Fatal(err)
	}
	bogus := []byte{10}
	for range 10 {
		bogus = append(bogus, 1, 0)
	}
	if _, err := db.SQL().ExecContext(ctx, `UPDATE games SET moves = ? WHERE id % 3 = 1`, bogus); err != nil {
		t.Fatal(err)
	}
	if got := search(); got != want {
		t.Fatalf("with stale moves:\n%s\nwant:\n%s", got, want)
	}
}
