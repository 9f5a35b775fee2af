package jetan

import "github.com/plateau/plateau/rules"

// Movement tables, computed once at start-up by enumerating every step
// sequence of every piece (they are read-only afterwards).
//
// A movement class is a piece kind, except that the Panthan has one class per
// side (its "forward" depends on its owner).
const (
	mkPanthanBlack  = panthan
	mkPanthanOrange = panthan + 1
	numMK           = panthan + 2
)

func moveClass(kind int, side rules.Side) int {
	if kind == panthan {
		return panthan + int(side)
	}
	return kind
}

// jumps reports whether a kind passes over pieces.
func jumps(kind int) bool { return kind == flier || kind == princess }

// escapeRange is the escape's length in king steps: any square at most ten
// king steps away, which on a 10×10 board is every square.
const escapeRange = 10

type step struct{ df, dr int }

var (
	orthSteps = []step{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
	diagSteps = []step{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}
	kingSteps = append(append([]step{}, orthSteps...), diagSteps...)
)

// patterns lists, for each movement class, the allowed step sets of each
// step; a class may have several patterns (the Thoat: straight then
// diagonal, or diagonal then straight).
func patterns(mk int) [][][]step {
	switch mk {
	case chief, princess:
		return [][][]step{{kingSteps, kingSteps, kingSteps}}
	case flier:
		return [][][]step{{diagSteps, diagSteps, diagSteps}}
	case dwar:
		return [][][]step{{orthSteps, orthSteps, orthSteps}}
	case warrior:
		return [][][]step{{orthSteps, orthSteps}}
	case padwar:
		return [][][]step{{diagSteps, diagSteps}}
	case thoat:
		return [][][]step{{orthSteps, diagSteps}, {diagSteps, orthSteps}}
	case mkPanthanBlack:
		return [][][]step{{{{0, 1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}}}}
	case mkPanthanOrange:
		return [][][]step{{{{0, -1}, {1, 0}, {-1, 0}, {1, -1}, {-1, -1}}}}
	}
	return nil
}

// dest is one destination of a movement class from one square, with every
// distinct set of intermediate squares a path to it crosses (-1 = unused).
type dest struct {
	to    int8
	paths [][2]int8
}

var (
	geo [numMK][squares][]dest
	// reach[mk][from][to] is 1 + the index of to in geo[mk][from], or 0.
	reach [numMK][squares][squares]uint8
	// escapes[from] are the Princess's escape destinations: within
	// escapeRange king steps and outside her ordinary reach.
	escapes [squares][]int8
)

func init() {
	for mk := 1; mk < numMK; mk++ {
		for from := 0; from < squares; from++ {
			buildFrom(mk, from)
		}
	}
	for from := 0; from < squares; from++ {
		for to := 0; to < squares; to++ {
			if to == from || reach[princess][from][to] != 0 {
				continue
			}
			if chebyshev(from, to) <= escapeRange {
				escapes[from] = append(escapes[from], int8(to))
			}
		}
	}
}

func chebyshev(a, b int) int {
	df, dr := a%size-b%size, a/size-b/size
	if df < 0 {
		df = -df
	}
	if dr < 0 {
		dr = -dr
	}
	return max(df, dr)
}

func buildFrom(mk, from int) {
	var path [4]int
	var visited [squares]bool
	var walk func(pat [][]step, n int)
	walk = func(pat [][]step, n int) {
		sq := path[n]
		if n == len(pat) {
			var mid [2]int8 = [2]int8{-1, -1}
			for i := 1; i < n; i++ {
				mid[i-1] = int8(path[i])
			}
			if mid[1] >= 0 && mid[1] < mid[0] {
				mid[0], mid[1] = mid[1], mid[0]
			}
			addPath(mk, from, sq, mid)
			return
		}
		f, r := sq%size, sq/size
		for _, s := range pat[n] {
			nf, nr := f+s.df, r+s.dr
			if nf < 0 || nf >= size || nr < 0 || nr >= size {
				continue
			}
			next := nr*size + nf
			if visited[next] {
				continue
			}
			visited[next] = true
			path[n+1] = next
			walk(pat, n+1)
			visited[next] = false
		}
	}
	visited[from] = true
	path[0] = from
	for _, pat := range patterns(mk) {
		walk(pat, 0)
	}
}

func addPath(mk, from, to int, mid [2]int8) {
	i := reach[mk][from][to]
	if i == 0 {
		geo[mk][from] = append(geo[mk][from], dest{to: int8(to)})
		i = uint8(len(geo[mk][from]))
		reach[mk][from][to] = i
	}
	d := &geo[mk][from][i-1]
	for _, p := range d.paths {
		if p == mid {
			return
		}
	}
	d.paths = append(d.paths, mid)
}
