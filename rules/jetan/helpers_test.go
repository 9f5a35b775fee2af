package jetan

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
)

// fen builds a position notation from a list of pieces such as
// "Ce5 Pa1 ce8 pj10" (upper case Black, lower case Orange) and the other
// fields ("b Ee 0").
func fen(t testing.TB, pieces, rest string) string {
	t.Helper()
	var g [10][10]byte
	for _, tok := range strings.Fields(pieces) {
		sq, n, ok := parseSquare(tok[1:])
		if !ok || n != len(tok)-1 {
			t.Fatalf("bad piece %q", tok)
		}
		g[sq/10][sq%10] = tok[0]
	}
	var b strings.Builder
	for r := 9; r >= 0; r-- {
		e := 0
		for f := range 10 {
			if g[r][f] == 0 {
				e++
				continue
			}
			if e > 0 {
				b.WriteString(strconv.Itoa(e))
				e = 0
			}
			b.WriteByte(g[r][f])
		}
		if e > 0 {
			b.WriteString(strconv.Itoa(e))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String() + " " + rest
}

// destsOf lists the legal destinations of the piece on square from.
func destsOf(p *Position, from string) []string {
	var out []string
	for _, m := range p.Legal(nil) {
		if SquareName(moveFrom(m)) == from {
			out = append(out, SquareName(moveTo(m)))
		}
	}
	sort.Strings(out)
	return out
}

func sorted(s string) []string {
	out := strings.Fields(s)
	sort.Strings(out)
	return out
}

// play parses and plays moves, failing the test on any error.
func play(t testing.TB, p *Position, moves ...string) {
	t.Helper()
	for _, mv := range moves {
		m, err := p.ParseMove(mv)
		if err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
		p.Play(m)
	}
}

// ruleOf returns the Rule of an illegal-move error, or "" for nil.
func ruleOf(t testing.TB, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var me *rules.MoveError
	if !errors.As(err, &me) {
		t.Fatalf("error %v is not a *rules.MoveError", err)
	}
	if !errors.Is(err, rules.ErrMove) {
		t.Fatalf("error %v does not wrap rules.ErrMove", err)
	}
	if me.Kind != rules.Illegal {
		return me.Kind.String()
	}
	return me.Rule
}
