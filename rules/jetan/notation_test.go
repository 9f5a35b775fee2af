package jetan

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/plateau/plateau/rules"
)

func TestRegistered(t *testing.T) {
	g, err := rules.Lookup("Jetan")
	if err != nil {
		t.Fatal(err)
	}
	if g.ID() != "jetan" || g.Name() != "Jetan" || g.Sides() != [2]string{"Black", "Orange"} || g.IllegalMoveLoses() {
		t.Errorf("game %v %v %v %v", g.ID(), g.Name(), g.Sides(), g.IllegalMoveLoses())
	}
	p, err := g.NewPosition("")
	if err != nil || p.String() != StartFEN {
		t.Errorf("NewPosition(\"\") = %v, %v", p, err)
	}
	if _, err := g.NewPosition("nonsense"); !errors.Is(err, rules.ErrPosition) {
		t.Errorf("NewPosition(nonsense) error %v", err)
	}
}

func TestParseMoveForms(t *testing.T) {
	start := StartFEN
	mid := fen(t, "Ca1 Pj1 ca10 pj10 We5 Wg5 ne7 Nc2", "b Ee 0")
	cases := []struct {
		fen, text string
		want      string // canonical form, or "" when an error is expected
		kind      rules.MoveErrorKind
		cands     []string
	}{
		{start, "e2-e3", "e2-e3", 0, nil},
		{start, "e2e3", "e2-e3", 0, nil},
		{start, "Ne2-e3", "e2-e3", 0, nil},
		{start, "Fd1-a4", "d1-a4", 0, nil},
		{start, "a2-b4", "a2-b4", 0, nil},
		{mid, "e5xe7", "e5xe7", 0, nil},
		{mid, "e5-e7", "e5xe7", 0, nil},
		{mid, "Wxe7", "e5xe7", 0, nil},
		{mid, "We7", "e5xe7", 0, nil},
		{mid, "Wf6", "", rules.Ambiguous, []string{"e5-f6", "g5-f6"}},
		{mid, "Nc3", "c2-c3", 0, nil},
		{mid, "Dd4", "", rules.Illegal, nil},
		{mid, "e5-e7+", "", rules.Syntax, nil},
		{mid, "", "", rules.Syntax, nil},
		{mid, "e5", "", rules.Syntax, nil},
		{mid, "k5-e7", "", rules.Syntax, nil},
		{mid, "e11-e7", "", rules.Syntax, nil},
		{mid, "e0-e1", "", rules.Syntax, nil},
		{mid, "e5--e7", "", rules.Syntax, nil},
		{mid, "Wx", "", rules.Syntax, nil},
		{mid, "Ne5-e6", "", rules.Illegal, nil},
		{mid, "a10-a9", "", rules.Illegal, nil},
		{mid, "j1-j10", "", rules.Illegal, nil},
		{fen(t, "Ca1 Pj1 ca10 pj10 Wa8", "b Ee 0"), "a8xa10", "a8xa10", 0, nil},
		{fen(t, "Ca1 Pj1 ca10 pj10 Wa8", "b Ee 0"), "a8-a10", "a8xa10", 0, nil},
	}
	for _, c := range cases {
		p := mustParse(t, c.fen)
		m, err := p.ParseMove(c.text)
		if c.want != "" {
			if err != nil {
				t.Errorf("%q: %v", c.text, err)
			} else if got := p.FormatMove(m); got != c.want {
				t.Errorf("%q: canonical %q, want %q", c.text, got, c.want)
			}
			continue
		}
		var me *rules.MoveError
		if !errors.As(err, &me) {
			t.Errorf("%q: error %v, want a *MoveError", c.text, err)
			continue
		}
		if me.Kind != c.kind || (c.cands != nil && !reflect.DeepEqual(me.Candidates, c.cands)) {
			t.Errorf("%q: %v (kind %v, candidates %v), want kind %v candidates %v", c.text, err, me.Kind, me.Candidates, c.kind, c.cands)
		}
	}
}

// TestFormatParseRoundTrip: every legal move of random positions formats
// and parses back to itself, and Describe agrees with the board.
func TestFormatParseRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for game := range 20 {
		p := mustParse(t, "")
		for ply := 0; ply < 200 && !p.Outcome().Over; ply++ {
			moves := p.Legal(nil)
			for _, m := range moves {
				text := p.FormatMove(m)
				back, err := p.ParseMove(text)
				if err != nil || back != m {
					t.Fatalf("game %d ply %d: %s parses to %v, %v", game, ply, text, back, err)
				}
				info := p.Describe(m)
				if info.From+"-"+info.To != text && info.From+"x"+info.To != text || (info.Captures == 1) != (text[len(info.From)] == 'x') {
					t.Fatalf("Describe(%s) = %+v", text, info)
				}
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

func TestPositionNotation(t *testing.T) {
	good := []string{
		StartFEN,
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW o - 0",
		fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "b E 7"),
		fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "o e 10"),
		fen(t, "Ca1 Pj1 We5 ca10 ae8 Wj10", "o Ee 0 1-0"),
		fen(t, "Pj1 ae8 pj10 Ca10", "o Ee 0 1-0"),
		fen(t, "Ca1 Pj1 ae8 pj10 Wa10", "o Ee 0 1/2-1/2"),
		fen(t, "Pj1 ae8 pj10 ca1", "b Ee 0 0-1"),
	}
	for _, f := range good {
		p, err := Parse(f)
		if err != nil {
			t.Errorf("Parse(%q): %v", f, err)
			continue
		}
		if p.String() != f {
			t.Errorf("round trip %q -> %q", f, p.String())
		}
	}
	bad := []string{
		"x",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT b Ee 0",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDA b Ee 0",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAWW b Ee 0",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAX b Ee 0",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW w Ee 0",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b EE 0",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Ee -1",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Ee 11",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Ee 01",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Ee 3",   // counter without equal forces
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Ee 0 *", // result while not over
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Ee 0 1-0",
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPNDAW b Ee 0", // nine Panthans
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCCFDAW b Ee 0", // two Chiefs
		fen(t, "Ca1 Pj1 We5 ca10 ae8", "b Ee 0 1-0"),                           // missing Orange Princess but Black to move
		fen(t, "Ca1 Pj1 We5 ca10 ae8", "o Ee 0"),                               // result field required
		fen(t, "Ca1 Pj1 We5 ca10 ae8", "o Ee 0 1/2-1/2"),                       // a Princess taken is a win
		fen(t, "Ca1 We5 ca10 ae8", "o Ee 0 1-0"),                               // two royals missing
		fen(t, "Ca1 Pj1 ae8 pj10 Wa10", "o Ee 3 1/2-1/2"),                      // draw plies after a capture
		"wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Ee 0 1-0 x",
	}
	for _, f := range bad {
		if _, err := Parse(f); !errors.Is(err, rules.ErrPosition) {
			t.Errorf("Parse(%q) error %v, want ErrPosition", f, err)
		}
	}
}

func TestCheckResult(t *testing.T) {
	start := mustParse(t, "")
	for _, r := range []string{"*", "1-0", "0-1", "1/2-1/2"} {
		if err := start.CheckResult(r); err != nil {
			t.Errorf("start CheckResult(%q): %v (resignation and agreed draws are allowed)", r, err)
		}
	}
	for _, r := range []string{"", "2-0", "1-1", "½-½"} {
		if err := start.CheckResult(r); !errors.Is(err, rules.ErrResult) {
			t.Errorf("start CheckResult(%q) = %v, want ErrResult", r, err)
		}
	}
	drawn := mustParse(t, fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "o - 10"))
	if o := drawn.Outcome(); !o.Over || o.Result != "1/2-1/2" || o.Reason != ReasonEqualForces {
		t.Errorf("counter 10: outcome %+v", o)
	}
	for _, r := range []string{"*", "1-0", "0-1"} {
		if err := drawn.CheckResult(r); !errors.Is(err, rules.ErrResult) {
			t.Errorf("drawn CheckResult(%q) = %v, want ErrResult", r, err)
		}
	}
}

func TestKeys(t *testing.T) {
	// Transposition: the same position by two move orders has one key.
	a, b := mustParse(t, ""), mustParse(t, "")
	play(t, a, "e2-e3", "e9-e8", "d2-d3", "d9-d8")
	play(t, b, "d2-d3", "d9-d8", "e2-e3", "e9-e8")
	if a.Key() != b.Key() || a.String() != b.String() {
		t.Errorf("transposition: keys %x %x", a.Key(), b.Key())
	}
	// Every field of the notation changes the key.
	base := fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "b Ee 1")
	variants := []string{
		fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "o Ee 1"),
		fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "b E 1"),
		fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "b e 1"),
		fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "b - 1"),
		fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "b Ee 2"),
		fen(t, "Ca1 Pj1 We6 ca10 pj10 ae8", "b Ee 1"),
		fen(t, "Ca1 Pj1 Ae5 ca10 pj10 we8", "b Ee 1"),
	}
	keys := map[uint64]string{mustParse(t, base).Key(): base}
	for _, v := range variants {
		k := mustParse(t, v).Key()
		if prev, dup := keys[k]; dup {
			t.Errorf("%s and %s share key %x", v, prev, k)
		}
		keys[k] = v
	}
	// The end of a game is part of the key: Chief takes Chief or another piece does.
	w := mustParse(t, fen(t, "Pj1 ae8 pj10 Ca10", "o Ee 0 1-0"))
	d := mustParse(t, fen(t, "Pj1 ae8 pj10 Ca10", "o Ee 0 1/2-1/2"))
	if w.Key() == d.Key() {
		t.Errorf("a win and a draw on the same board share a key")
	}
	// Keys survive notation round trips and Clone.
	p := mustParse(t, "")
	rng := rand.New(rand.NewPCG(1, 2))
	for ply := 0; ply < 300 && !p.Outcome().Over; ply++ {
		moves := p.Legal(nil)
		c := p.Clone().(*Position)
		p.Play(moves[rng.IntN(len(moves))])
		if c.Key() == p.Key() {
			t.Fatalf("ply %d: key unchanged by a move", ply)
		}
		q := mustParse(t, p.String())
		if q.Key() != p.Key() || q.computeKey() != p.Key() {
			t.Fatalf("ply %d: %s key %x, reparsed %x", ply, p, p.Key(), q.Key())
		}
	}
}

func TestDiagram(t *testing.T) {
	d := mustParse(t, "").Diagram()
	for _, want := range []string{" 10 w a d f p c f d a w 10", "  1 W A D F C P F D A W 1", "Black to move"} {
		if !contains(d, want) {
			t.Errorf("diagram lacks %q:\n%s", want, d)
		}
	}
}

func contains(s, sub string) bool { return len(s) >= len(sub) && (s == sub || indexOf(s, sub) >= 0) }

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e2-e3", "e2xe5", "Ne3", "Wxe7", "a10-j1", "f1-f6", "x", ""} {
		f.Add(s)
	}
	p := mustParse(f, "")
	f.Fuzz(func(t *testing.T, text string) {
		q := p.Clone().(*Position)
		m, err := q.ParseMove(text)
		if err != nil {
			var me *rules.MoveError
			if !errors.As(err, &me) {
				t.Fatalf("%q: error %v is not a *MoveError", text, err)
			}
			return
		}
		canon := q.FormatMove(m)
		if back, err := q.ParseMove(canon); err != nil || back != m {
			t.Fatalf("%q -> %q does not parse back: %v", text, canon, err)
		}
		q.Play(m)
		if q.Key() != q.computeKey() {
			t.Fatalf("%q: key mismatch", text)
		}
	})
}

func FuzzNewPosition(f *testing.F) {
	for _, s := range []string{StartFEN, "10/10/10/10/10/10/10/10/10/10 b - 0", "c9/p9/10/10/10/10/10/10/P9/C9 o Ee 10", "1010/ b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			if !errors.Is(err, rules.ErrPosition) {
				t.Fatalf("%q: error %v does not wrap ErrPosition", s, err)
			}
			return
		}
		q, err := Parse(p.String())
		if err != nil || q.String() != p.String() || q.Key() != p.Key() {
			t.Fatalf("%q: %q does not round-trip: %v", s, p.String(), err)
		}
		for _, m := range p.Legal(nil) {
			c := p.Clone()
			c.Play(m)
			_ = c.Outcome()
		}
		_ = p.Diagram()
	})
}

func TestShortFormErrors(t *testing.T) {
	p := mustParse(t, fen(t, "Ca1 Pj1 ca10 pj10 We5 Wg5 ne7 Nc2 Te6", "b Ee 0"))
	cases := []struct{ text, rule string }{
		{"Dd4", RuleEmptySquare}, // no Dwar
		{"Wd9", RuleUnreachable}, // two Warriors, neither reaches d9
		{"Nc4", RuleUnreachable}, // the one Panthan: its own reason
		{"Ta2", RuleUnreachable}, // the one Thoat
		{"We6", RuleOccupied},    // both Warriors stopped... e5 by its own Thoat
		{"Cxb1", RuleNothingCaptured},
	}
	for _, c := range cases {
		_, err := p.ParseMove(c.text)
		if got := ruleOf(t, err); got != c.rule {
			t.Errorf("%s: %q (%v), want %q", c.text, got, err, c.rule)
		}
	}
}
