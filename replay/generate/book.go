package generate

import (
	"math/rand/v2"
	"slices"

	"github.com/plateau/plateau/rules"
)

// node is a position of the opening book: the book moves played from it,
// most popular first, and the node each leads to.
type node struct {
	moves []rules.Move
	kids  []*node
}

// buildBook makes the opening tree of the generator's seed: at each depth
// the policy ranks the legal moves (with moderate noise, from the book's own
// random stream) and the best bookWidth[depth] become book moves.
func (g *Generator) buildBook() *node {
	r := rand.New(rand.NewPCG(g.seed, saltBook))
	st := state{targets: g.targets, noise: [2]int{80, 80}}
	return g.bookNode(r, g.start.Clone(), 0, st)
}

func (g *Generator) bookNode(r *rand.Rand, pos rules.Position, depth int, st state) *node {
	p := &g.prof
	if depth >= p.bookDepth || depth >= len(p.bookWidth) || pos.Outcome().Over {
		return nil
	}
	legal := pos.Legal(nil)
	side := pos.ToMove()
	n := &node{}
	w := g.NewWorker()
	for len(n.moves) < p.bookWidth[depth] && len(legal) > 0 {
		m := choose(r, p, pos, legal, &st, side, st.noise[side], noMove)
		if m == noMove {
			break
		}
		legal = slices.DeleteFunc(legal, func(x rules.Move) bool { return x == m })
		if w.hangs(pos, m, w.factsOf(pos, m), &st, side) {
			continue // no book move leaves the King or Princess en prise
		}
		n.moves = append(n.moves, m)
	}
	for _, m := range n.moves {
		c := pos.Clone()
		cst := st
		cst.played(side, w.factsOf(c, m))
		c.Play(m)
		n.kids = append(n.kids, g.bookNode(r, c, depth+1, cst))
	}
	return n
}

// bookMove follows the book from *at at ply: it returns the book move
// chosen (Zipf-like: the k-th move with weight 1/k) and moves *at to its
// node, or reports false and leaves the book (with a probability growing
// with the ply, or when the book has no move here).
//
// A game reaches a node only by playing the book moves from the start, so
// its position is the one the node's moves were chosen in; legal (w.legal
// of that position, or nil when not computed) double-checks it.
func (w *Worker) bookMove(at **node, ply int, legal []rules.Move) (rules.Move, bool) {
	n := *at
	if n == nil || len(n.moves) == 0 {
		*at = nil
		return 0, false
	}
	r := w.r
	if r.Float64() < 0.02+0.03*float64(ply) {
		*at = nil
		return 0, false
	}
	k := zipf(r, len(n.moves))
	m := n.moves[k]
	if legal != nil && !slices.Contains(legal, m) {
		*at = nil
		return 0, false
	}
	*at = n.kids[k]
	return m, true
}

// zipf picks k in [0, n) with weight 1/(k+1).
func zipf(r *rand.Rand, n int) int {
	var total float64
	for k := 1; k <= n; k++ {
		total += 1 / float64(k)
	}
	x := r.Float64() * total
	for k := 1; k <= n; k++ {
		x -= 1 / float64(k)
		if x < 0 {
			return k - 1
		}
	}
	return n - 1
}
