package playerlines_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/plateau/plateau/index/internal/playerlines"
	"github.com/plateau/plateau/rules"
)

// TestRoundTrip: a line decodes to what was encoded, in the coded forms
// and as written.
func TestRoundTrip(t *testing.T) {
	moves := []rules.Move{1, 300, 1 << 40, 0}
	for _, l := range []playerlines.Line{
		{Game: "ogi", Opponent: 7, Result: "1-0", Date: "1988.09.15", Moves: moves},
		{Game: "ogi", Event: 1 << 35, Elo: [2]string{"2100", "0"}, Result: "1-0"},
		{Game: "ogi", Event: 3, Elo: [2]string{"", "+2100"}, Result: "1-0"},       // one side unrated, one not a number
		{Game: "ogi", Elo: [2]string{"02100", "21.5"}, Date: "1988.09.15"},        // leading zero, not whole
		{Game: "ogi", Elo: [2]string{"99999999999999999999", "1 2"}, Result: "*"}, // too great for a code
		{Game: "dames", Result: "0-1", Date: "2003.??.??"},
		{Game: "draughts", Opponent: 1 << 33, Result: "1/2-1/2", Date: "2003.07.??", FEN: "W:W31-50:B1-20"},
		{Game: "jetan", Result: "*", Date: "0000.00.00", Moves: moves[:1]},
		{Game: "sauts", Result: "", Date: ""},
		{Game: "dejarik", Result: "3-0", Date: "2003.13.01"}, // a month the packed form has not
		{Game: "checkers", Result: "2-0", Date: "2003.1.01"}, // not YYYY.MM.DD
		{Game: "shogi", Result: "1-0", Date: "around 1900"},  // a ruleset of no code
		{Game: "", Result: "0-1", Date: "12345.01.01"},       // no ruleset; a five-digit year
		{Game: "ogi", Result: "1-0", Date: "2003.02.32"},     // a day the packed form has not
		{Game: "ogi", Result: "1-0", Date: "-003.02.03"},     // not digits
		{Game: "ogi", Result: "1-0", Date: "2003.??.05"},     // an unknown month, a known day
	} {
		b := playerlines.Append(nil, &l)
		var got playerlines.Line
		if err := playerlines.Decode(b, &got); err != nil {
			t.Fatalf("%+v: %v", l, err)
		}
		if len(got.Moves) == 0 {
			got.Moves = nil
		}
		if !reflect.DeepEqual(got, l) {
			t.Errorf("decoded %+v, want %+v", got, l)
		}
	}
}

// TestSize: a usual line takes a few bytes besides its moves.
func TestSize(t *testing.T) {
	l := playerlines.Line{Game: "ogi", Opponent: 1000, Result: "1/2-1/2", Date: "1988.09.15"}
	if n := len(playerlines.Append(nil, &l)); n != 8 {
		t.Errorf("%d bytes, want 8 (event, flags, date 3, opponent 2, moves 1)", n)
	}
	l.Event, l.Elo = 200, [2]string{"2710", "1850"}
	if n := len(playerlines.Append(nil, &l)); n != 13 {
		t.Errorf("%d bytes, want 13 (event 2, flags, date 3, ratings 2 each, opponent 2, moves 1)", n)
	}
}

// TestCorrupt: a line cut short or followed by more does not decode.
func TestCorrupt(t *testing.T) {
	l := playerlines.Line{Game: "shogi", Opponent: 3, Result: "5-0", Date: "x", Moves: []rules.Move{1 << 20, 5}, Elo: [2]string{"x", "2000"}, Event: 9}
	b := playerlines.Append(nil, &l)
	for n := range len(b) {
		if err := playerlines.Decode(b[:n], &playerlines.Line{}); !errors.Is(err, playerlines.ErrCorrupt) {
			t.Errorf("%d of %d bytes: %v", n, len(b), err)
		}
	}
	if err := playerlines.Decode(append(b, 0), &playerlines.Line{}); !errors.Is(err, playerlines.ErrCorrupt) {
		t.Errorf("a byte more: %v", err)
	}
	if err := playerlines.Decode([]byte{0, 0xff, 0x7f}, &playerlines.Line{}); !errors.Is(err, playerlines.ErrCorrupt) {
		t.Errorf("a ruleset code out of the list: %v", err)
	}
}

// TestRows: a game has a row for each side with a player, naming the
// other as opponent.
func TestRows(t *testing.T) {
	l := playerlines.Line{Game: "ogi", Result: "1-0"}
	l.Event = 5 // not Rows': Put's
	rows := playerlines.Rows(nil, 9, [2]int64{4, 0}, "Open", &l)
	rows = playerlines.Rows(rows, 10, [2]int64{4, 5}, "", &l)
	rows = playerlines.Rows(rows, 11, [2]int64{0, 0}, "Open", &l)
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	want := []struct {
		player   int64
		side     int
		game     int64
		opponent int64
	}{{4, 0, 9, 0}, {4, 0, 10, 5}, {5, 1, 10, 4}}
	for i, r := range rows {
		var got playerlines.Line
		if err := playerlines.Decode(r.Line, &got); err != nil {
			t.Fatal(err)
		}
		w := want[i]
		if r.Player != w.player || r.Side != w.side || r.Game != w.game || got.Opponent != w.opponent || got.Event != 0 ||
			r.Event != map[int64]string{9: "Open", 10: ""}[r.Game] {
			t.Errorf("row %d: %d %d %d opponent %d, want %+v", i, r.Player, r.Side, r.Game, got.Opponent, w)
		}
	}
}
