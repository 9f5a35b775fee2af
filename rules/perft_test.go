package rules_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/plateau/plateau/rules"
)

// naivePerft is Perft as first written: a clone of the position for every
// move, the Outcome asked at every node.
func naivePerft(p rules.Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if p.Outcome().Over {
		return 0
	}
	moves := p.Legal(nil)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := p.Clone()
		c.Play(m)
		n += naivePerft(c, depth-1)
	}
	return n
}

// perftPositions are, for every game, its start and positions a few random
// plies into a game (hands filled, pieces promoted, repetitions near), with
// the depth that keeps the naive count quick.
func perftPositions(t *testing.T) map[string][]rules.Position {
	t.Helper()
	out := map[string][]rules.Position{}
	for _, g := range rules.Games() {
		start, err := g.NewPosition("")
		if err != nil {
			t.Fatal(err)
		}
		out[g.ID()] = append(out[g.ID()], start)
		r := rand.New(rand.NewPCG(uint64(len(g.ID())), 3))
		for game := 0; game < 3; game++ {
			p := start.Clone()
			for ply := 0; ply < 10+20*game && !p.Outcome().Over; ply++ {
				legal := p.Legal(nil)
				if len(legal) == 0 {
					break
				}
				p.Play(legal[r.IntN(len(legal))])
			}
			out[g.ID()] = append(out[g.ID()], p)
		}
	}
	return out
}

// TestPerftSame: Perft, in reused memory, counts what the naive perft
// counts, and PerftParallel and Divide count the same on any number of
// workers, every level, every game.
func TestPerftSame(t *testing.T) {
	ctx := context.Background()
	for id, ps := range perftPositions(t) {
		t.Run(id, func(t *testing.T) {
			for i, p := range ps {
				before := p.String()
				for d := 0; d <= 3; d++ {
					want := naivePerft(p, d)
					if got := rules.Perft(p, d); got != want {
						t.Errorf("position %d depth %d: Perft %d, want %d", i, d, got, want)
					}
					for _, workers := range []int{1, 2, 3, 7} {
						got, err := rules.PerftParallel(ctx, p, d, workers)
						if err != nil || got != want {
							t.Errorf("position %d depth %d, %d workers: PerftParallel %d, %v; want %d", i, d, workers, got, err, want)
						}
					}
				}
				moves, counts, err := rules.Divide(ctx, p, 3, 3)
				if err != nil {
					t.Fatal(err)
				}
				legal := p.Legal(nil)
				if len(moves) != len(legal) || len(counts) != len(legal) {
					t.Fatalf("position %d: Divide gives %d moves and %d counts, want %d", i, len(moves), len(counts), len(legal))
				}
				for k, m := range legal {
					c := p.Clone()
					c.Play(m)
					if moves[k] != m || counts[k] != naivePerft(c, 2) {
						t.Errorf("position %d move %s: Divide %d, want %d", i, p.FormatMove(m), counts[k], naivePerft(c, 2))
					}
				}
				if p.String() != before {
					t.Errorf("position %d: counting changed it to %s", i, p)
				}
			}
		})
	}
}

// TestPerftParallelSplits: a count deep enough to be cut into subtrees two
// plies down (few first moves) is the serial count.
func TestPerftParallelSplits(t *testing.T) {
	g, err := rules.Lookup("draughts")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := g.NewPosition("")
	want := rules.Perft(p, 5)
	for _, workers := range []int{2, 5} {
		if got, err := rules.PerftParallel(context.Background(), p, 5, workers); err != nil || got != want {
			t.Errorf("%d workers: %d, %v; want %d", workers, got, err, want)
		}
	}
}

// TestPerftParallelCancel: an ended context stops the count with its error.
func TestPerftParallelCancel(t *testing.T) {
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := g.NewPosition("")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := rules.PerftParallel(ctx, p, 6, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled count: %v, want context.Canceled", err)
	}
}
