package rules_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/plateau/plateau/rules"
)

// same reports whether two positions are equal as far as the rules can
// tell: notation, key, and the legal moves (which the repetition rules of
// Ōgi and Dejarik read from the history).
func same(a, b rules.Position) bool {
	return a.String() == b.String() && a.Key() == b.Key() && slices.Equal(a.Legal(nil), b.Legal(nil))
}

// TestCopyInto copies the positions of random games into reused memory and
// checks that each copy plays on as a Clone does, and that neither the
// source nor an earlier clone used as dst is changed by a copy.
func TestCopyInto(t *testing.T) {
	for _, g := range rules.Games() {
		t.Run(g.ID(), func(t *testing.T) {
			start, err := g.NewPosition("")
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := start.(rules.Copier); !ok {
				t.Fatalf("%T is not a rules.Copier", start)
			}
			r := rand.New(rand.NewPCG(uint64(len(g.ID())), 11))
			var slot rules.Position // reused for every copy
			copies := 0
			for game := 0; game < 10; game++ {
				p := start.Clone()
				for ply := 0; ply < 150 && !p.Outcome().Over; ply++ {
					legal := p.Legal(nil)
					if len(legal) == 0 {
						break
					}
					if ply%3 == 0 {
						ref := p.Clone()
						slot = rules.CopyInto(slot, p, r.IntN(4))
						copies++
						if !same(slot, ref) {
							t.Fatalf("game %d ply %d: copy %s, want %s", game, ply, slot, ref)
						}
						// Both play on, the copy in its reused memory.
						cp, rp := slot, ref.Clone()
						for k := 0; k < 12 && !rp.Outcome().Over; k++ {
							lm := rp.Legal(nil)
							if len(lm) == 0 {
								break
							}
							m := lm[r.IntN(len(lm))]
							cp.Play(m)
							rp.Play(m)
							if !same(cp, rp) {
								t.Fatalf("game %d ply %d+%d: the copy plays to %s, a clone to %s", game, ply, k+1, cp, rp)
							}
						}
						if !same(p, ref) {
							t.Fatalf("game %d ply %d: playing the copy changed its source", game, ply)
						}
						// A clone given as dst: its source must not change.
						c := ref.Clone()
						before := ref.Clone()
						rules.CopyInto(c, start, 0)
						if !same(ref, before) {
							t.Fatalf("game %d ply %d: a copy into a clone changed the clone's source", game, ply)
						}
					}
					p.Play(legal[r.IntN(len(legal))])
				}
			}
			if copies < 50 {
				t.Errorf("only %d copies", copies)
			}
		})
	}
}
