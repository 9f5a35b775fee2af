package replay_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

func line(texts string) record.Line {
	var l record.Line
	for i, t := range strings.Fields(texts) {
		l = append(l, &record.Move{Text: t, Ply: i, Pos: record.Pos{File: "t.pdn", Line: 10 + i}})
	}
	return l
}

func game(id, fen, result, moves string) *record.Game {
	g := &record.Game{Moves: line(moves), Pos: record.Pos{File: "t.pdn", Line: 1}}
	if id != "" {
		g.SetTag("Game", id)
	}
	if fen != "" {
		g.SetTag("FEN", fen)
	}
	if result != "" {
		g.SetTag("Result", result)
	}
	return g
}

func TestReplay(t *testing.T) {
	tests := []struct {
		name    string
		rec     *record.Game
		wantErr error  // errors.Is target; nil for a valid record
		rule    string // rule of the illegal move, when wantErr is rules.ErrMove
		errPly  int
		term    string
		plies   int
	}{
		{name: "unfinished game", rec: game("race", "", "*", "+1 +2 +1"), plies: 3},
		{name: "win reached and Result agrees", rec: game("race", "", "1-0", "+2 +2 +2 +2 +2"), term: "reached ten", plies: 5},
		{name: "win reached and Result disagrees", rec: game("race", "", "0-1", "+2 +2 +2 +2 +2"), wantErr: rules.ErrResult, term: "reached ten", plies: 5},
		{name: "win reached and Result disagrees in a game without resignation", rec: game("race-strict", "", "0-1", "+2 +2 +2 +2 +2"), wantErr: rules.ErrResult, term: "reached ten", plies: 5},
		{name: "move after the end", rec: game("race", "", "1-0", "+2 +2 +2 +2 +2 +1"), wantErr: replay.ErrAfterEnd, errPly: 6, plies: 5},
		{name: "illegal move in a game where it is only an error", rec: game("race", "7", "0-1", "+2 +3"), wantErr: rules.ErrMove, rule: "too far", errPly: 2, plies: 1},
		{name: "closing illegal move loses, Result agrees", rec: game("race-loses", "8", "1-0", "+1 +2"), term: "illegal move (too far)", plies: 1},
		{name: "closing illegal move loses, Result disagrees", rec: game("race-loses", "8", "0-1", "+1 +2"), wantErr: rules.ErrMove, errPly: 2, term: "illegal move (too far)", plies: 1},
		{name: "illegal move followed by more moves", rec: game("race-loses", "7", "1-0", "+1 +3 +1"), wantErr: rules.ErrMove, rule: "too far", errPly: 2, plies: 1},
		{name: "syntax error", rec: game("race", "", "*", "+1 x"), wantErr: rules.ErrMove, errPly: 2, plies: 1},
		{name: "no Game tag", rec: game("", "", "*", "+1"), wantErr: replay.ErrNoGame},
		{name: "unknown game", rec: game("chess", "", "*", "+1"), wantErr: rules.ErrUnknownGame},
		{name: "bad FEN", rec: game("race", "12", "*", "+1"), wantErr: rules.ErrPosition},
		{name: "draw the position refuses (race has no draw by agreement)", rec: game("race", "", "1/2-1/2", "+1"), wantErr: rules.ErrResult, plies: 1},
		{name: "huff keeps the turn", rec: game("race", "", "*", "+1 h +1"), plies: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := replay.Replay(tt.rec, replay.Options{})
			if tt.wantErr == nil {
				if g.Err != nil {
					t.Fatalf("unexpected error: %v", g.Err)
				}
			} else {
				if g.Err == nil || !errors.Is(g.Err, tt.wantErr) {
					t.Fatalf("error = %v, want %v", g.Err, tt.wantErr)
				}
				if g.Err.Ply != tt.errPly {
					t.Errorf("error at ply %d, want %d", g.Err.Ply, tt.errPly)
				}
				if tt.rule != "" && g.Err.Rule() != tt.rule {
					t.Errorf("rule %q, want %q", g.Err.Rule(), tt.rule)
				}
				if tt.errPly > 0 && g.Err.Pos.Line != 10+tt.errPly-1 {
					t.Errorf("error line %d, want %d", g.Err.Pos.Line, 10+tt.errPly-1)
				}
			}
			if got := g.Termination(); got != tt.term {
				t.Errorf("termination %q, want %q", got, tt.term)
			}
			if got := g.Plies(); got != tt.plies {
				t.Errorf("plies %d, want %d", got, tt.plies)
			}
		})
	}
}

func TestDefaultGameAndGameType(t *testing.T) {
	rec := game("", "", "*", "+1")
	if g := replay.Replay(rec, replay.Options{DefaultGame: "race"}); g.Err != nil || g.Rules.ID() != "race" {
		t.Fatalf("default game: %v", g.Err)
	}
	rec.SetTag("GameType", "race-loses,W,10,10,N2,0")
	if g := replay.Replay(rec, replay.Options{DefaultGame: "race"}); g.Err != nil || g.Rules.ID() != "race-loses" {
		t.Fatalf("GameType long form: %v", g.Err)
	}
}

func TestNotesAndHuffPlies(t *testing.T) {
	g := replay.Replay(game("race", "", "*", "+1! h +2 +1"), replay.Options{})
	if g.Err != nil {
		t.Fatal(g.Err)
	}
	if len(g.Notes) != 1 || g.Notes[0].Step.Text != "+1!" {
		t.Fatalf("notes %+v", g.Notes)
	}
	var plies []int
	for _, s := range g.Main {
		plies = append(plies, s.Ply)
	}
	if want := []int{0, 1, 1, 2}; !equal(plies, want) {
		t.Fatalf("plies %v, want %v", plies, want)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// withVariation is 1. +1 (1. +2 +2) +1 +2: a variation replacing the first move.
func withVariation() *record.Game {
	g := game("race", "", "*", "+1 +1 +2")
	g.Moves[0].Variations = []record.Line{line("+2 +2")}
	for _, m := range g.Moves[0].Variations[0] {
		m.Pos.Line = 50
	}
	return g
}

func TestVariationsAndPositions(t *testing.T) {
	g := replay.Replay(withVariation(), replay.Options{})
	if g.Err != nil {
		t.Fatal(g.Err)
	}
	type pk struct {
		key   uint64
		ply   int
		next  string
		depth int
	}
	var got []pk
	g.Positions(func(p replay.Position) {
		n := ""
		if p.Next != nil {
			n = p.Next.Text
		}
		got = append(got, pk{p.Key, p.Ply, n, p.Depth})
	})
	// keys: counter<<1 | side
	want := []pk{
		{0, 0, "+1", 0}, // start, main move
		{0, 0, "+2", 1}, // start again, the variation's move
		{5, 1, "+2", 1}, // 2, Black to move
		{8, 2, "", 1},   // 4, White to move
		{3, 1, "+1", 0}, // 1, Black to move
		{4, 2, "+2", 0}, // 2, White
		{9, 3, "", 0},   // 4, Black
	}
	if len(got) != len(want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("position %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestIllegalMoveInVariation(t *testing.T) {
	rec := withVariation()
	rec.Moves[0].Variations[0][1].Text = "+3"
	g := replay.Replay(rec, replay.Options{})
	if g.Err == nil || g.Err.Pos.Line != 50 || g.Err.Rule() != "too far" {
		t.Fatalf("got %v", g.Err)
	}
}

func TestCanonical(t *testing.T) {
	rec := withVariation()
	rec.SetTag("FEN", "0")
	g := replay.Replay(rec, replay.Options{})
	c := g.Canonical()
	if c.Tag("Game") != "race" || c.Tag("Result") != "*" || c.Result != "*" || c.Tag("FEN") != "0" {
		t.Fatalf("tags %v result %q", c.Tags, c.Result)
	}
	if len(c.Moves) != 3 || len(c.Moves[0].Variations) != 1 || c.Moves[0].Variations[0][1].Ply != 1 {
		t.Fatalf("moves not copied: %+v", c.Moves)
	}
	// The copy is independent of the record.
	c.Moves[0].Text = "changed"
	if rec.Moves[0].Text != "+1" {
		t.Fatal("Canonical changed the record")
	}
}

func TestCursor(t *testing.T) {
	g := replay.Replay(withVariation(), replay.Options{})
	c := g.Cursor()
	if err := c.Back(); !errors.Is(err, replay.ErrNoMove) {
		t.Fatalf("back at start: %v", err)
	}
	steps := []struct {
		do   func() error
		want string // position after
		ply  int
	}{
		{c.Forward, "1", 1},
		{c.Forward, "2", 2},
		{c.Back, "1", 1},
		{c.Back, "0", 0},
		{func() error { return c.Enter(0) }, "0", 0},
		{c.Forward, "2", 1},
		{c.Forward, "4", 2},
		{c.Exit, "0", 0},
		{func() error { return c.ToPly(3) }, "4", 3},
		{func() error { return c.ToPly(1) }, "1", 1},
	}
	for i, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got := c.Position().String(); got != s.want || c.Ply() != s.ply {
			t.Fatalf("step %d: position %s ply %d, want %s ply %d", i, got, c.Ply(), s.want, s.ply)
		}
	}
	if err := c.ToPly(9); !errors.Is(err, replay.ErrNoMove) {
		t.Fatalf("ToPly past the end: %v", err)
	}
	if err := c.Enter(3); !errors.Is(err, replay.ErrNoMove) {
		t.Fatalf("Enter a missing variation: %v", err)
	}
}

func TestAssumedGameIsNamedInErrors(t *testing.T) {
	g := replay.Replay(game("", "", "*", "+1 +3"), replay.Options{DefaultGame: "race"})
	if !g.Assumed || g.Err == nil || !strings.Contains(g.Err.Error(), "no Game or GameType tag: read as race") || g.Err.Rule() != "too far" {
		t.Fatalf("got %v", g.Err)
	}
	g = replay.Replay(game("race", "", "*", "+1 +3"), replay.Options{DefaultGame: "race"})
	if g.Assumed || strings.Contains(g.Err.Error(), "read as") {
		t.Fatalf("named game: %v", g.Err)
	}
}

func TestAmbiguousMoveSettledByTheRestOfTheLine(t *testing.T) {
	// From 7: "?" is +1 or +2; only +1 lets "+2" follow (7+2+2 > 10).
	g := replay.Replay(game("race", "7", "0-1", "? +2"), replay.Options{})
	if g.Err != nil || g.Main[0].Text != "+1" {
		t.Fatalf("got %v, first move %v", g.Err, g.Main)
	}
	// "? +1": both candidates play through; the record stays valid, the
	// first candidate read, with a warning (issue 41: "if it is the last
	// move, or all candidates go on, the game stays valid with a warning
	// naming the candidates and the one chosen").
	g = replay.Replay(game("race", "7", "*", "? +1"), replay.Options{})
	if g.Err != nil || g.Main[0].Text != "+1" || len(g.Warnings) != 1 || g.Warnings[0].Kind != replay.WarnAmbiguous {
		t.Fatalf("got %v, first move %v, warnings %v", g.Err, g.Main, g.Warnings)
	}
}
