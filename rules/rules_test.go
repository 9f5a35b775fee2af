package rules_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

func TestLookup(t *testing.T) {
	for _, tt := range []struct{ id, want string }{
		{"ogi", "ogi"}, {"OGI", "ogi"}, {" dames ", "dames"}, {"20", "draughts"},
		{"international", "draughts"}, {"sauts", "sauts"}, {"jetan", "jetan"}, {"dejarik", "dejarik"},
		{"loup-moutons", "loup-moutons"}, {"dames-brigand", "dames-brigand"},
	} {
		g, err := rules.Lookup(tt.id)
		if err != nil || g.ID() != tt.want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", tt.id, g, err, tt.want)
		}
	}
	if _, err := rules.Lookup("chess"); !errors.Is(err, rules.ErrUnknownGame) {
		t.Errorf("Lookup(chess): %v", err)
	}
}

func TestGamesSortedAndComplete(t *testing.T) {
	var ids []string
	for _, g := range rules.Games() {
		ids = append(ids, g.ID())
	}
	if got := strings.Join(ids, " "); got != "antidraughts brazilian breakthrough canadian checkers czech dames dames-brigand dejarik draughts frisian frysk italian jetan loup-moutons ogi pool portuguese russian sauts spanish spantsiretti thai turkish" {
		t.Fatalf("games: %s", got)
	}
}

func TestRegisterTwicePanics(t *testing.T) {
	g, _ := rules.Lookup("ogi")
	defer func() {
		if recover() == nil {
			t.Fatal("registering a game twice did not panic")
		}
	}()
	rules.Register(g)
}

// TestStartPositionsRoundTrip: every game's start position notation reads
// back to the same position and key.
func TestStartPositionsRoundTrip(t *testing.T) {
	for _, g := range rules.Games() {
		p, err := g.NewPosition("")
		if err != nil {
			t.Fatalf("%s: %v", g.ID(), err)
		}
		q, err := g.NewPosition(p.String())
		if err != nil || q.String() != p.String() || q.Key() != p.Key() {
			t.Errorf("%s: %q does not round-trip (%v)", g.ID(), p.String(), err)
		}
		if _, err := g.NewPosition("not a position"); !errors.Is(err, rules.ErrPosition) {
			t.Errorf("%s: bad notation gives %v", g.ID(), err)
		}
	}
}

// TestPerftConsistent: the generic Perft counts the legal moves at depth 1 and
// agrees with summing depth-1 counts below each move at depth 2.
func TestPerftConsistent(t *testing.T) {
	for _, g := range rules.Games() {
		p, _ := g.NewPosition("")
		moves := p.Legal(nil)
		if got := rules.Perft(p, 1); got != uint64(len(moves)) {
			t.Errorf("%s: perft 1 = %d, legal moves %d", g.ID(), got, len(moves))
		}
		var sum uint64
		for _, m := range moves {
			c := p.Clone()
			c.Play(m)
			sum += rules.Perft(c, 1)
		}
		if got := rules.Perft(p, 2); got != sum {
			t.Errorf("%s: perft 2 = %d, sum of children %d", g.ID(), got, sum)
		}
	}
}
