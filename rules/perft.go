package rules

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Perft counts the leaf nodes of the legal-move tree of depth d below p, the
// move-generator test of chess engines. Moves that do not hand over the turn
// are not produced by Legal, so every level is one ply. At a game's end
// (Outcome().Over) a node has no children.
//
// It plays each move in a copy of the position made in memory kept for its
// level (CopyInto), and lists moves into a buffer kept for its level, so
// that a count allocates nothing once those have grown when the positions
// are Copiers. A position that is OverWhenStuck is not asked its Outcome:
// its legal moves say it.
func Perft(p Position, depth int) uint64 {
	var w perfter
	return w.count(p, depth)
}

// perfter holds the memory of a count, level by level: pos[d] and moves[d]
// are those of the nodes with d plies left to count.
type perfter struct {
	pos   []Position
	moves [][]Move
}

func (w *perfter) count(p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if len(w.moves) <= depth {
		w.pos = append(w.pos, make([]Position, depth+1-len(w.pos))...)
		w.moves = append(w.moves, make([][]Move, depth+1-len(w.moves))...)
	}
	return w.node(p, depth, isStuck(p))
}

func isStuck(p Position) bool {
	_, ok := p.(OverWhenStuck)
	return ok
}

// node is Perft(p, depth) for depth >= 1, in w's memory.
func (w *perfter) node(p Position, depth int, stuck bool) uint64 {
	if !stuck && p.Outcome().Over {
		return 0
	}
	moves := p.Legal(w.moves[depth][:0])
	w.moves[depth] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := CopyInto(w.pos[depth], p, 1)
		w.pos[depth] = c
		c.Play(m)
		n += w.node(c, depth-1, stuck)
	}
	return n
}

// PerftParallel is Perft on workers goroutines (0: GOMAXPROCS). It stops
// early with ctx's error when ctx ends.
func PerftParallel(ctx context.Context, p Position, depth, workers int) (uint64, error) {
	if depth <= 2 || p.Outcome().Over {
		return Perft(p, depth), ctx.Err()
	}
	_, counts, err := Divide(ctx, p, depth, workers)
	var n uint64
	for _, c := range counts {
		n += c
	}
	return n, err
}

// Divide counts, on workers goroutines (0: GOMAXPROCS), the leaves of depth
// depth-1 below each legal move of p: the moves of p.Legal in their order,
// and Perft of the position after each. It stops early with ctx's error when
// ctx ends.
//
// The work is cut into subtrees of the same depth, a ply or more below p,
// until there are many more of them than workers (divideTasks), and each
// worker takes the next subtree left: a worker that drew small subtrees
// takes more, so that the workers end together whatever the shape of the
// tree. Each worker counts in memory of its own (Perft's).
func Divide(ctx context.Context, p Position, depth, workers int) ([]Move, []uint64, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	moves := p.Legal(nil)
	counts := make([]uint64, len(moves))
	if depth < 1 {
		return moves, counts, ctx.Err()
	}
	tasks := make([]perftTask, len(moves))
	for i, m := range moves {
		c := p.Clone()
		c.Play(m)
		tasks[i] = perftTask{root: i, pos: c, depth: depth - 1}
	}
	for len(tasks) < divideTasks*workers && len(tasks) > 0 && tasks[0].depth >= 3 {
		tasks = split(tasks)
	}
	var next atomic.Int64
	sums := make([][]uint64, workers)
	var wg sync.WaitGroup
	for k := range workers {
		sums[k] = make([]uint64, len(moves))
		wg.Add(1)
		go func(sum []uint64) {
			defer wg.Done()
			var w perfter
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) {
					return
				}
				t := tasks[i]
				sum[t.root] += w.count(t.pos, t.depth)
			}
		}(sums[k])
	}
	wg.Wait()
	for _, sum := range sums {
		for i, n := range sum {
			counts[i] += n
		}
	}
	return moves, counts, ctx.Err()
}

// divideTasks is how many subtrees a worker has to take, at least, before
// Divide cuts them a ply deeper.
const divideTasks = 16

// perftTask is a subtree of Divide: Perft(pos, depth), counted for the
// root move of index root.
type perftTask struct {
	root  int
	pos   Position
	depth int
}

// split cuts every task a ply deeper: a task's position that is over has no
// subtree (Perft counts it 0).
func split(tasks []perftTask) []perftTask {
	var out []perftTask
	for _, t := range tasks {
		if t.pos.Outcome().Over {
			continue
		}
		for _, m := range t.pos.Legal(nil) {
			c := t.pos.Clone()
			c.Play(m)
			out = append(out, perftTask{root: t.root, pos: c, depth: t.depth - 1})
		}
	}
	return out
}
