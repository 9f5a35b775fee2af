package dejarik_test

// A second, deliberately naive Dejarik: a map from cell name to 'W' or 'B',
// ring arithmetic on strings, and every rule sentence checked directly. It
// shares no code with the package.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

type naive struct {
	board   map[string]byte
	toMove  byte          // 'W' or 'B'
	first   map[byte]bool // first turn still to come
	history []string      // every position so far, the current one last
}

func other(s byte) byte {
	if s == 'W' {
		return 'B'
	}
	return 'W'
}

func wrap(k int) int {
	for k < 1 {
		k += 12
	}
	for k > 12 {
		k -= 12
	}
	return k
}

func in(k int) string  { return "i" + strconv.Itoa(wrap(k)) }
func out(k int) string { return "o" + strconv.Itoa(wrap(k)) }

// order is the canonical cell order of the notation.
func order() []string {
	names := []string{"c"}
	for k := 1; k <= 12; k++ {
		names = append(names, in(k))
	}
	for k := 1; k <= 12; k++ {
		names = append(names, out(k))
	}
	return names
}

func naiveFromFEN(fen string) *naive {
	n := &naive{board: map[string]byte{}, first: map[byte]bool{'W': true, 'B': true}}
	parts := strings.Split(fen, ":")
	n.toMove = parts[0][0]
	for _, f := range parts[1:] {
		if f[0] == 'F' {
			n.first = map[byte]bool{}
			for _, r := range f[1:] {
				if r != '-' {
					n.first[byte(r)] = true
				}
			}
			continue
		}
		for _, c := range strings.Split(f[1:], ",") {
			n.board[c] = f[0]
		}
	}
	n.history = []string{n.String()}
	return n
}

func (n *naive) String() string {
	s := string(n.toMove)
	for _, side := range []byte{'W', 'B'} {
		var cells []string
		for _, c := range order() {
			if n.board[c] == side {
				cells = append(cells, c)
			}
		}
		s += ":" + string(side) + strings.Join(cells, ",")
	}
	switch {
	case n.first['W'] && n.first['B']:
	case n.first['W']:
		s += ":FW"
	case n.first['B']:
		s += ":FB"
	default:
		s += ":F-"
	}
	return s
}

func (n *naive) empty(c string) bool { return n.board[c] == 0 }

type naiveMove struct {
	text  string
	final string
	taken []string
	after map[string]byte
}

func (n *naive) moves() []naiveMove {
	var ms []naiveMove
	s := n.toMove
	for _, from := range order() {
		if n.board[from] != s {
			continue
		}
		simple := func(to string) {
			after := copyBoard(n.board)
			delete(after, from)
			after[to] = s
			ms = append(ms, naiveMove{text: from + "-" + to, final: to, after: after})
		}
		switch from[0] {
		case 'c':
			// Dejarik inverse: centre to the outer ring, the inner cell in front empty.
			for k := 1; k <= 12; k++ {
				if n.empty(in(k)) && n.empty(out(k)) {
					simple(out(k))
				}
			}
		case 'i':
			// Re-entry is the only move from the inner ring.
			k, _ := strconv.Atoi(from[1:])
			if n.empty(out(k)) {
				simple(out(k))
			}
		case 'o':
			k, _ := strconv.Atoi(from[1:])
			if n.empty(in(k)) {
				simple(in(k)) // straight exit
			}
			if n.empty(in(k)) && n.empty("c") {
				simple("c") // Dejarik
			}
			if n.first[s] {
				continue // no diagonal exit in a player's first turn
			}
			for _, d := range []int{+1, -1} {
				// Diagonal: nothing in front nor on the destination.
				if n.empty(in(k)) && n.empty(in(k+d)) {
					ms = append(ms, n.exit(from, in(k+d), d))
				}
				// Double diagonal: nothing in front, beside (outer), on the
				// diagonal cell, nor on the destination.
				if n.empty(in(k)) && n.empty(out(k+d)) && n.empty(in(k+d)) && n.empty(in(k+2*d)) {
					ms = append(ms, n.exit(from, in(k+2*d), d))
				}
			}
		}
	}
	return ms
}

func copyBoard(b map[string]byte) map[string]byte {
	c := make(map[string]byte, len(b))
	for k, v := range b {
		c[k] = v
	}
	return c
}

// exit plays a diagonal exit step by step on a copy of the board.
func (n *naive) exit(from, land string, d int) naiveMove {
	s := n.toMove
	b := copyBoard(n.board)
	delete(b, from)
	b[land] = s
	m := naiveMove{text: from + "-" + land}
	at := land
	for {
		k, _ := strconv.Atoi(at[1:])
		var taken []string
		for _, nb := range []string{in(k - 1), in(k + 1)} {
			if b[nb] == other(s) {
				taken = append(taken, nb)
			}
		}
		if len(taken) > 0 {
			for _, t := range taken {
				delete(b, t)
			}
			sort.Strings(taken)
			m.taken = taken
			break
		}
		if b[out(k)] != s {
			break
		}
		if b[in(k+d)] != 0 || b[in(k+2*d)] != 0 {
			break
		}
		delete(b, at)
		at = in(k + 2*d)
		b[at] = s
	}
	m.final = at
	m.after = b
	return m
}

func (n *naive) play(m naiveMove) *naive {
	c := &naive{board: m.after, toMove: other(n.toMove), first: map[byte]bool{}}
	for k, v := range n.first {
		c.first[k] = v
	}
	c.first[n.toMove] = false
	c.history = append(append([]string(nil), n.history...), c.String())
	return c
}

func (n *naive) count(s byte) int {
	x := 0
	for _, v := range n.board {
		if v == s {
			x++
		}
	}
	return x
}

// alignedRun: every pawn of s on the inner ring, touching in one run.
func (n *naive) alignedRun(s byte) bool {
	cnt := n.count(s)
	for start := 1; start <= 12; start++ {
		ok := true
		for j := 0; j < cnt; j++ {
			if n.board[in(start+j)] != s {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// result is "" while the game goes on.
func (n *naive) result() string {
	mover := other(n.toMove)
	for _, s := range []byte{mover, n.toMove} {
		pts := 0
		if n.count(s) == 4 && n.alignedRun(s) {
			pts = 3
		} else if n.count(s) == 3 && n.alignedRun(s) {
			pts = 1
		}
		if pts > 0 {
			if s == 'W' {
				return fmt.Sprintf("%d-0", pts)
			}
			return fmt.Sprintf("0-%d", pts)
		}
	}
	if n.count('B') <= 2 {
		return "2-0"
	}
	if n.count('W') <= 2 {
		return "0-2"
	}
	seen := 0
	for _, h := range n.history {
		if h == n.String() {
			seen++
		}
	}
	if seen >= 3 {
		return "1-1"
	}
	if len(n.moves()) == 0 {
		return "0-0"
	}
	return ""
}

func (n *naive) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if n.result() != "" {
		return 0
	}
	ms := n.moves()
	if depth == 1 {
		return uint64(len(ms))
	}
	var total uint64
	for _, m := range ms {
		total += n.play(m).perft(depth - 1)
	}
	return total
}
