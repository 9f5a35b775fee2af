package record_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
)

func readAll(t *testing.T, src string) ([]*record.Game, []error) {
	t.Helper()
	r := record.NewReader(strings.NewReader(src), "t.pdn")
	var gs []*record.Game
	var errs []error
	for i := 0; i < 10000; i++ {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return gs, errs
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		gs = append(gs, g)
	}
	t.Fatal("reader does not end")
	return nil, nil
}

func TestSimpleRoundTrip(t *testing.T) {
	src := `[Game "ogi"]
[Event "Osaka open"] [Site "Ōsaka"] [Date "2026.07.14"] [Round "3"]
[Sente "Komayō"] [Gote "Veltin, Cyril"]
[Result "0-1"] [Termination "illegal move"]
1. P-e4 P-d5 2. Bb2xg7+ {a comment} (2. S*d4 $2) 2... Sf8xg7 0-1
`
	gs, errs := readAll(t, src)
	if len(errs) != 0 || len(gs) != 1 {
		t.Fatalf("games %d errors %v", len(gs), errs)
	}
	g := gs[0]
	if g.Result != "0-1" || len(g.Moves) != 4 || g.Moves[2].Text != "Bb2xg7+" {
		t.Fatalf("bad game %+v", g)
	}
	want := `[Game "ogi"]
[Event "Osaka open"]
[Site "Ōsaka"]
[Date "2026.07.14"]
[Round "3"]
[Sente "Komayō"]
[Gote "Veltin, Cyril"]
[Result "0-1"]
[Termination "illegal move"]

1. P-e4 P-d5 2. Bb2xg7+ {a comment} (2. S*d4 $2) 2... Sf8xg7 0-1

`
	if got := string(record.Format(g)); got != want {
		t.Fatalf("Format:\n%s\nwant:\n%s", got, want)
	}
	if record.Hash(g) != record.Hash(gs[0]) {
		t.Fatal("hash not stable")
	}
}

// The player tags are written in Game.Sides' order when it is set, in the
// canonical order otherwise; other tags keep their places.
func TestSidesOrder(t *testing.T) {
	tags := []record.Tag{{"White", "W"}, {"Game", "checkers"}, {"Black", "B"}, {"Round", "1"}, {"WhiteElo", "2000"}}
	tests := []struct {
		sides [2]string
		want  string
	}{
		{[2]string{}, "Game Round White Black Result WhiteElo"},
		{[2]string{"White", "Black"}, "Game Round White Black Result WhiteElo"},
		{[2]string{"Black", "White"}, "Game Round Black White Result WhiteElo"},
		{[2]string{"Black", "Orange"}, "Game Round White Black Result WhiteElo"},
		{[2]string{"Sente", "Gote"}, "Game Round White Black Result WhiteElo"},
	}
	for _, tc := range tests {
		g := &record.Game{Tags: tags, Sides: tc.sides}
		var got []string
		for _, line := range strings.Split(string(record.Format(g)), "\n") {
			if name, _, ok := strings.Cut(strings.TrimPrefix(line, "["), " "); ok && strings.HasPrefix(line, "[") {
				got = append(got, name)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("Sides %q: tags %v, want %s", tc.sides, got, tc.want)
		}
	}
}
