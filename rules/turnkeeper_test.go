package rules_test

import (
	"math/rand/v2"
	"testing"

	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

// hideTK hides a position's optional interfaces: rules.KeepsTurn must then
// fall back to Describe.
type hideTK struct{ rules.Position }

// TestKeepsTurn checks that every game's KeepsTurn agrees with Describe on
// every legal move of the positions of random games, through the game's own
// TurnKeeper and through the fallback.
func TestKeepsTurn(t *testing.T) {
	for _, g := range rules.Games() {
		t.Run(g.ID(), func(t *testing.T) {
			start, err := g.NewPosition("")
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := start.(rules.TurnKeeper); !ok {
				t.Fatalf("%T is not a rules.TurnKeeper", start)
			}
			r := rand.New(rand.NewPCG(uint64(len(g.ID())), 7))
			tested := 0
			for game := 0; game < 20; game++ {
				p := start.Clone()
				for ply := 0; ply < 120 && !p.Outcome().Over; ply++ {
					legal := p.Legal(nil)
					if len(legal) == 0 {
						break
					}
					for _, m := range legal {
						want := p.Describe(m).KeepsTurn
						if got := rules.KeepsTurn(p, m); got != want {
							t.Fatalf("%s: KeepsTurn(%s) = %v, Describe says %v", p, p.FormatMove(m), got, want)
						}
						if got := rules.KeepsTurn(hideTK{p}, m); got != want {
							t.Fatalf("%s: the fallback says KeepsTurn(%s) = %v, Describe %v", p, p.FormatMove(m), got, want)
						}
						tested++
					}
					p.Play(legal[r.IntN(len(legal))])
				}
			}
			if tested < 1000 {
				t.Errorf("only %d moves tested", tested)
			}
		})
	}
}

// TestKeepsTurnHuff: in dames a huff keeps the turn (Legal never lists one).
func TestKeepsTurnHuff(t *testing.T) {
	g, err := rules.Lookup("dames")
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.NewPosition("B:W28,45:B22,1")
	if err != nil {
		t.Fatal(err)
	}
	fault, err := p.ParseMove("1-6") // ignores the capture 22x33
	if err != nil {
		t.Fatal(err)
	}
	if rules.KeepsTurn(p, fault) || p.Describe(fault).KeepsTurn {
		t.Errorf("a fault keeps the turn")
	}
	p.Play(fault)
	h, err := p.ParseMove("H22")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Describe(h).KeepsTurn {
		t.Fatalf("Describe: the huff does not keep the turn")
	}
	if !rules.KeepsTurn(p, h) || !rules.KeepsTurn(hideTK{p}, h) {
		t.Errorf("KeepsTurn(H22) = false")
	}
	for _, m := range p.Legal(nil) {
		if rules.KeepsTurn(p, m) {
			t.Errorf("KeepsTurn(%s) after the fault", p.FormatMove(m))
		}
	}
}
