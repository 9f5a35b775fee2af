package treeagg

import (
	"errors"
	"slices"
	"testing"
)

// TestSpoolRow: a spool row gives back its entries in order, each with
// its game; a row cut short or with bytes after its entries is refused.
func TestSpoolRow(t *testing.T) {
	games := []Game{{Date: "2026.07.14", S0: 1, Scored: true}, {Date: ""}, {Date: "1999.??.??", S0: 0.5, S1: 0.5, Scored: true}}
	es := []Entry{
		{Pos: -9e18, Move: "P-e4", Player: 3, Game: 0},
		{Pos: -5, Move: "P-e4", Player: 0, Game: 1},
		{Pos: -5, Move: "S*d4", Player: 1 << 40, Game: 2},
		{Pos: 7, Move: "P-e4", Player: 3, Game: 2},
		{Pos: 9e18, Move: "Kxd5+", Player: 2, Game: 0},
	}
	data := EncodeSpool(nil, es, games)
	texts := map[string]string{}
	c, ok, err := openSpool(data, texts)
	var got []Entry
	var gotGames []Game
	for ok && err == nil {
		got = append(got, c.e)
		gotGames = append(gotGames, c.games[c.e.Game])
		ok, err = c.next()
	}
	if err != nil || !slices.Equal(got, es) {
		t.Fatalf("decoded %v (%v), want %v", got, err, es)
	}
	for i, e := range es {
		if gotGames[i] != games[e.Game] {
			t.Errorf("entry %d: game %+v, want %+v", i, gotGames[i], games[e.Game])
		}
	}
	if len(texts) != 3 {
		t.Errorf("%d move texts shared, want 3", len(texts))
	}
	for _, bad := range [][]byte{data[:len(data)-1], append(slices.Clip(data), 0)} {
		c, ok, err := openSpool(bad, map[string]string{})
		for ok && err == nil {
			ok, err = c.next()
		}
		if !errors.Is(err, ErrSpool) {
			t.Errorf("a row of %d bytes of %d: %v, want ErrSpool", len(bad), len(data), err)
		}
	}
}
