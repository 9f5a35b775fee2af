package sauts_test

import (
	"errors"
	"testing"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/sauts"
)

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"G2-E2", "G6-E4-C4-A2-A4", "G6-A4", "g2-e2", "G2-G2", "A1-H8-A1", "F1E1", "-", "Z9-A1", "G2-G4-E2-G4"} {
		f.Add(0, s)
		f.Add(1, s)
	}
	f.Fuzz(func(t *testing.T, which int, text string) {
		fens := append([]string{fig3, fig2Jump}, trickyFENs...)
		if which < 0 {
			which = -which
		}
		p := mustPos(t, fens[which%len(fens)])
		m, err := p.ParseMove(text)
		if err != nil {
			var me *rules.MoveError
			if !errors.As(err, &me) || !errors.Is(err, rules.ErrMove) {
				t.Fatalf("%q: error %v is not a *MoveError", text, err)
			}
			return
		}
		canon := p.FormatMove(m)
		back, err := p.ParseMove(canon)
		if err != nil || back != m {
			t.Fatalf("%q -> %q -> %v, %v", text, canon, back, err)
		}
		p.Play(m)
		if fresh := mustPos(t, p.String()); fresh.Key() != p.Key() {
			t.Fatalf("key after %q", text)
		}
	})
}

func FuzzNewPosition(f *testing.F) {
	for _, s := range append([]string{fig2, fig3, "8/8/8/8/8/8/8/8 w", "2b5/w7/w7/1b6/8/8/8/b7 w", "8/8 w"}, trickyFENs...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := sauts.NewPosition(fen)
		if err != nil {
			if !errors.Is(err, rules.ErrPosition) {
				t.Fatalf("%q: %v does not wrap ErrPosition", fen, err)
			}
			return
		}
		s := p.String()
		q, err := sauts.NewPosition(s)
		if err != nil || q.String() != s || q.Key() != p.Key() {
			t.Fatalf("%q -> %q does not round-trip: %v", fen, s, err)
		}
		p.Outcome()
		p.Diagram()
		for _, m := range p.Legal(nil) {
			if back, err := p.ParseMove(p.FormatMove(m)); err != nil || back != m {
				t.Fatalf("%s: %s: %v", s, p.FormatMove(m), err)
			}
		}
	})
}
