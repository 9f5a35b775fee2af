package ogi

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
)

func TestNotationForms(t *testing.T) {
	for _, tc := range []struct {
		fen, text, canon string
	}{
		{"", "P-e4", "Pe3-e4"},
		{"", "Pe3-e4", "Pe3-e4"},
		{"", "Pe4", "Pe3-e4"},
		{"", "Pe3e4", "Pe3-e4"},
		{"", "Pe3xe4", "Pe3-e4"}, // 'x' accepted on a quiet move
		{"", "R-h2", "Rg2-h2"},
		{"ka8 Kh1 Rd4 pd5", "Rd4-d5", "Rd4xd5"}, // '-' accepted on a capture
		{"ka8 Kh1 Rd4 pd6", "Rxd6", "Rd4xd6="},
		{"ka8 Kh1 Sd5", "S-d6+", "Sd5-d6+"},
		{"ka8 Kh1 Sd5", "S-d6=", "Sd5-d6="},
		{"ka8 Kh1 Sd5", "S-d6", "Sd5-d6="},   // no suffix: does not promote
		{"ka8 Kh1 Sd4", "Sd4-d5=", "Sd4-d5"}, // '=' where no promotion is possible
		{"ka8 Kh1 +Rd4", "+R-d8", "+Rd4-d8"},
		{"ka8 Kd4 +pd5", "Kxd5+", "Kd4xd5+"},
		{"ka8 Kd4 +pd5", "Kxd5", "Kd4xd5"},
		{"ka8 Kd4 +pd5", "Kxd5=", "Kd4xd5"},
		{"ka8 Kd4 pd5", "Kxd5", "Kd4xd5"},
	} {
		var p *Position
		if tc.fen == "" {
			p = mustParse(t, "")
		} else {
			p = setup(t, tc.fen, "b", "")
		}
		m, err := p.ParseMove(tc.text)
		if err != nil {
			t.Errorf("%s: %v", tc.text, err)
			continue
		}
		if got := p.FormatMove(m); got != tc.canon {
			t.Errorf("%s: formatted %s, want %s", tc.text, got, tc.canon)
		}
	}
	p := setup(t, "ka8 Kh1", "b", "S+P")
	for text, canon := range map[string]string{"S*d4": "S*d4", "+P*c5": "+P*c5", "S*d4=": "S*d4"} {
		m, err := p.ParseMove(text)
		if err != nil || p.FormatMove(m) != canon {
			t.Errorf("%s: %v %s", text, err, p.FormatMove(m))
		}
	}
}

func TestAmbiguous(t *testing.T) {
	p := setup(t, "ka8 Kh1 Sc4 Se4", "b", "")
	_, err := p.ParseMove("S-d5")
	var me *rules.MoveError
	if !errors.As(err, &me) || me.Kind != rules.Ambiguous {
		t.Fatalf("got %v, want ambiguous", err)
	}
	if strings.Join(me.Candidates, " ") != "Sc4-d5 Se4-d5" {
		t.Errorf("candidates %v", me.Candidates)
	}
	if !errors.Is(err, rules.ErrMove) {
		t.Error("does not wrap ErrMove")
	}
	// An origin settles it; so does a single legal candidate.
	if _, err := p.ParseMove("Sc4-d5"); err != nil {
		t.Error(err)
	}
	q := setup(t, "ka8 Kh1 Sc4 Se4 Pd5", "b", "")
	if _, err := q.ParseMove("S-c5"); err != nil {
		t.Error(err)
	}
	// Short form failing for every piece: the most telling reason.
	r := setup(t, "ka8 Kh1 Rd4 Pd6", "b", "")
	if _, err := r.ParseMove("R-d7"); !isRule(err, RulePathBlocked) {
		t.Errorf("R-d7: %v", err)
	}
	if _, err := r.ParseMove("R-e5"); !isRule(err, RuleNotDestination) {
		t.Errorf("R-e5: %v", err)
	}
	if _, err := r.ParseMove("B-e5"); !isRule(err, RuleNoSuchPiece) {
		t.Errorf("B-e5: %v", err)
	}
}

func TestSyntaxErrors(t *testing.T) {
	p := mustParse(t, "")
	for _, s := range []string{"", "+", "e4", "pe3-e4", "Pe3-", "Pe3-e4++", "P*", "P*e9", "Xe3-e4", "Pe3-e4!", "+Ke1-e2", "Pe3--e4", "P e4"} {
		_, err := p.ParseMove(s)
		var me *rules.MoveError
		if !errors.As(err, &me) || me.Kind != rules.Syntax {
			t.Errorf("%q: got %v, want syntax error", s, err)
		}
	}
}

// TestFormatParseRoundTrip: every legal move, formatted, parses back to
// itself, in positions from random games; and its short form either gives
// it back or is ambiguous with it among the candidates.
func TestFormatParseRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for g := 0; g < 20; g++ {
		p := mustParse(t, "")
		randomPlayout(p, r, 120, func(rules.Move) {})
		for _, m := range p.Legal(nil) {
			s := p.FormatMove(m)
			back, err := p.ParseMove(s)
			if err != nil || back != m {
				t.Fatalf("%s in %s: %v (%x vs %x)", s, p.String(), err, back, m)
			}
			d := p.Describe(m)
			if d.Drop {
				continue
			}
			short := strings.Replace(s, d.From, "", 1)
			back, err = p.ParseMove(short)
			var me *rules.MoveError
			switch {
			case err == nil && back != m:
				t.Fatalf("%s (short %s) gave %s", s, short, p.FormatMove(back))
			case err != nil && (!errors.As(err, &me) || me.Kind != rules.Ambiguous):
				t.Fatalf("%s (short %s): %v", s, short, err)
			case err != nil && !strings.Contains(strings.Join(me.Candidates, " "), s):
				t.Fatalf("%s (short %s): candidates %v", s, short, me.Candidates)
			}
		}
	}
}

// TestParseMoveMatchesLegal: over random positions, ParseMove accepts a
// long-form text exactly when Legal has that move, for every origin and
// destination pair and suffix.
func TestParseMoveMatchesLegal(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for g := 0; g < 12; g++ {
		p := mustParse(t, "")
		randomPlayout(p, r, 20+r.Intn(150), func(rules.Move) {})
		if p.Outcome().Over {
			continue
		}
		legal := map[string]bool{}
		for _, m := range p.Legal(nil) {
			legal[p.FormatMove(m)] = true
		}
		accepted := 0
		for from := 0; from < 64; from++ {
			c := p.board[from]
			if c == 0 || sideOf(c) != p.side {
				continue
			}
			for to := 0; to < 64; to++ {
				for _, suf := range []string{"", "+", "="} {
					text := pieceText(c&^goteBit) + sqName(from) + "-" + sqName(to) + suf
					m, err := p.ParseMove(text)
					if err != nil {
						var me *rules.MoveError
						if !errors.As(err, &me) || me.Kind != rules.Illegal || me.Rule == "" {
							t.Fatalf("%s: %v", text, err)
						}
						continue
					}
					accepted++
					if !legal[p.FormatMove(m)] {
						t.Fatalf("%s accepted but not legal in %s", text, p.String())
					}
				}
			}
		}
		if accepted == 0 {
			t.Errorf("game %d: nothing accepted", g)
		}
	}
}

func TestDescribe(t *testing.T) {
	p := setup(t, "ka8 Kh1 Sd5 pd6", "b", "N")
	m, _ := p.ParseMove("Sd5xd6+")
	if d := p.Describe(m); d.From != "d5" || d.To != "d6" || d.Captures != 1 || !d.Promotes || d.Drop {
		t.Errorf("%+v", d)
	}
	m, _ = p.ParseMove("N*c4")
	if d := p.Describe(m); d.From != "" || d.To != "c4" || d.Captures != 0 || d.Promotes || !d.Drop {
		t.Errorf("%+v", d)
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"P-e4", "Pe3-e4", "Bb2xg7+", "Bxg7=", "S*d4", "+P*c5", "Kxd5+", "+Rb7-b8", "", "+", "*"} {
		f.Add(s)
	}
	positions := []*Position{mustParse(f, ""), mustParse(f, "8/3k4/8/2+p+r+b3/3K4/2+sp1+n2/8/8 b +PI 1"), mustParse(f, "4k3/8/8/3p4/8/8/8/4K3 b SNL+Prbnl+s 1")}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range positions {
			m, err := p.ParseMove(s)
			if err != nil {
				var me *rules.MoveError
				if !errors.As(err, &me) {
					t.Fatalf("%q: error %v is not a *MoveError", s, err)
				}
				continue
			}
			c := p.Clone().(*Position)
			back, err := c.ParseMove(c.FormatMove(m))
			if err != nil || back != m {
				t.Fatalf("%q: canonical form does not parse back: %v", s, err)
			}
			c.Play(m)
			if c.key != c.computeKey() {
				t.Fatalf("%q: key drift", s)
			}
		}
	})
}

func FuzzNewPosition(f *testing.F) {
	for _, s := range []string{StartSFEN, "4k3/8/8/3p4/8/8/8/4K3 b SNL+Prbnl+s 1", "k7/8/8/8/8/8/8/8 w K 30", "8/8/8/8/8/8/8/8 b - 1", "4k3/8/8/8/8/8/8/4K3 b 16P 1 7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			if !errors.Is(err, rules.ErrPosition) {
				t.Fatalf("%q: %v does not wrap ErrPosition", s, err)
			}
			return
		}
		q, err := Parse(p.String())
		if err != nil || q.String() != p.String() || q.Key() != p.Key() {
			t.Fatalf("%q: %q does not round-trip: %v", s, p.String(), err)
		}
		_ = p.Diagram()
		_ = p.Outcome()
		for _, m := range p.Legal(nil) {
			c := p.Clone()
			c.Play(m)
		}
	})
}
