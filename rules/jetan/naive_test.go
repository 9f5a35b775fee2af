package jetan

// A second, deliberately naive Jetan move generator, written straight from
// the rule text with a different representation: a [rank][file] grid of
// letters, a depth-first walk over every step sequence of a piece (no
// tables), and the threat test done by moving the Princess on a copy of the
// board and asking every enemy piece for its paths again.

import (
	"fmt"
	"sort"
	"strings"
)

type naive struct {
	g       [10][10]byte // [rank][file]; '.' empty, upper Black, lower Orange
	orange  bool         // Orange to move
	esc     [2]bool
	counter int
	over    bool
}

func naiveFromFEN(fen string) naive {
	var n naive
	f := strings.Fields(fen)
	rows := strings.Split(f[0], "/")
	for i, row := range rows {
		r := 9 - i
		c := 0
		for j := 0; j < len(row); j++ {
			switch {
			case row[j] == '1' && j+1 < len(row) && row[j+1] == '0':
				for k := 0; k < 10; k++ {
					n.g[r][c] = '.'
					c++
				}
				j++
			case row[j] >= '1' && row[j] <= '9':
				for k := 0; k < int(row[j]-'0'); k++ {
					n.g[r][c] = '.'
					c++
				}
			default:
				n.g[r][c] = row[j]
				c++
			}
		}
	}
	n.orange = f[1] == "o"
	n.esc[0] = strings.Contains(f[2], "E")
	n.esc[1] = strings.Contains(f[2], "e")
	fmt.Sscan(f[3], &n.counter)
	n.over = len(f) == 5 || n.counter >= 10
	return n
}

func isBlack(c byte) bool { return c >= 'A' && c <= 'Z' }
func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

func sqName(r, f int) string { return fmt.Sprintf("%c%d", 'a'+f, r+1) }

// dests lists where the piece on (r, f) can end a move, whatever stands
// there, by walking every step sequence.
func (n *naive) dests(r, f int) map[[2]int]bool {
	c := n.g[r][f]
	u := upper(c)
	steps := map[byte]int{'C': 3, 'P': 3, 'F': 3, 'D': 3, 'W': 2, 'A': 2, 'T': 2, 'N': 1}[u]
	jumper := u == 'F' || u == 'P'
	out := map[[2]int]bool{}
	var visited [10][10]bool
	visited[r][f] = true
	var walk func(r, f, done, orth, diag int)
	walk = func(r, f, done, orth, diag int) {
		if done == steps {
			ok := true
			switch u {
			case 'F', 'A':
				ok = orth == 0
			case 'D', 'W':
				ok = diag == 0
			case 'T':
				ok = orth == 1 && diag == 1
			}
			if ok {
				out[[2]int{r, f}] = true
			}
			return
		}
		if done > 0 && !jumper && n.g[r][f] != '.' {
			return // an intermediate square must be empty
		}
		for dr := -1; dr <= 1; dr++ {
			for df := -1; df <= 1; df++ {
				if dr == 0 && df == 0 {
					continue
				}
				if u == 'N' {
					fwd := 1
					if !isBlack(c) {
						fwd = -1
					}
					if dr == -fwd {
						continue // never backward
					}
				}
				nr, nf := r+dr, f+df
				if nr < 0 || nr > 9 || nf < 0 || nf > 9 || visited[nr][nf] {
					continue
				}
				visited[nr][nf] = true
				if dr != 0 && df != 0 {
					walk(nr, nf, done+1, orth, diag+1)
				} else {
					walk(nr, nf, done+1, orth+1, diag)
				}
				visited[nr][nf] = false
			}
		}
	}
	walk(r, f, 0, 0, 0)
	return out
}

func (n *naive) mine(c byte) bool {
	return c != '.' && isBlack(c) == !n.orange
}

// threatened: would the Princess on (r, f) moving to (tr, tf) stand where
// an enemy piece other than the Princess could move?
func (n *naive) threatened(r, f, tr, tf int) bool {
	cp := *n
	cp.g[tr][tf] = cp.g[r][f]
	cp.g[r][f] = '.'
	for er := 0; er < 10; er++ {
		for ef := 0; ef < 10; ef++ {
			c := cp.g[er][ef]
			if c == '.' || n.mine(c) || upper(c) == 'P' || max(abs(er-tr), abs(ef-tf)) > 3 {
				continue // no piece but the Princess goes further than 3 steps
			}
			if cp.dests(er, ef)[[2]int{tr, tf}] {
				return true
			}
		}
	}
	return false
}

// moves lists the legal moves in canonical text.
func (n *naive) moves() []string {
	if n.over {
		return nil
	}
	var out []string
	side := 0
	if n.orange {
		side = 1
	}
	for r := 0; r < 10; r++ {
		for f := 0; f < 10; f++ {
			c := n.g[r][f]
			if !n.mine(c) {
				continue
			}
			ds := n.dests(r, f)
			for d := range ds {
				t := n.g[d[0]][d[1]]
				if n.mine(t) {
					continue
				}
				if upper(c) == 'P' && (t != '.' || n.threatened(r, f, d[0], d[1])) {
					continue
				}
				sep := "-"
				if t != '.' {
					sep = "x"
				}
				out = append(out, sqName(r, f)+sep+sqName(d[0], d[1]))
			}
			if upper(c) == 'P' && n.esc[side] {
				// Escape: up to ten king steps passing over anything.
				for tr := 0; tr < 10; tr++ {
					for tf := 0; tf < 10; tf++ {
						dist := max(abs(tr-r), abs(tf-f))
						if dist == 0 || dist > 10 || ds[[2]int{tr, tf}] || n.g[tr][tf] != '.' || n.threatened(r, f, tr, tf) {
							continue
						}
						out = append(out, sqName(r, f)+"-"+sqName(tr, tf))
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func naiveValue(c byte) int {
	return map[byte]int{'C': 10, 'D': 3, 'F': 3, 'W': 2, 'A': 2, 'T': 2, 'N': 1, 'P': 1}[upper(c)]
}

// forces: pieces and total value per side.
func (n *naive) forces() (cnt, val [2]int) {
	for r := 0; r < 10; r++ {
		for f := 0; f < 10; f++ {
			c := n.g[r][f]
			if c == '.' {
				continue
			}
			s := 1
			if isBlack(c) {
				s = 0
			}
			cnt[s]++
			val[s] += naiveValue(c)
		}
	}
	return
}

func (n *naive) equal() bool {
	cnt, val := n.forces()
	return cnt[0] <= 3 && cnt[1] <= 3 && val[0] == val[1]
}

// play a canonical move text; the escape is spent when the Princess moves
// beyond her ordinary reach.
func (n naive) play(mv string) naive {
	var fr, ff, tr, tf int
	sep := strings.IndexAny(mv, "-x")
	fmt.Sscanf(mv[1:sep], "%d", &fr)
	fmt.Sscanf(mv[sep+2:], "%d", &tf)
	ff, fr = int(mv[0]-'a'), fr-1
	tr, tf = tf-1, int(mv[sep+1]-'a')
	c, t := n.g[fr][ff], n.g[tr][tf]
	wasEqual := n.equal()
	if upper(c) == 'P' && !n.dests(fr, ff)[[2]int{tr, tf}] {
		if n.orange {
			n.esc[1] = false
		} else {
			n.esc[0] = false
		}
	}
	n.g[tr][tf], n.g[fr][ff] = c, '.'
	n.orange = !n.orange
	if upper(t) == 'P' || upper(t) == 'C' {
		n.over = true
		n.counter = 0
		return n
	}
	if n.equal() && wasEqual && t == '.' {
		n.counter++
	} else {
		n.counter = 0
	}
	n.over = n.counter >= 10
	return n
}

// fen writes the position (without the result field of finished games).
func (n *naive) fen() string {
	var b strings.Builder
	for r := 9; r >= 0; r-- {
		e := 0
		for f := 0; f < 10; f++ {
			if n.g[r][f] == '.' {
				e++
				continue
			}
			if e > 0 {
				fmt.Fprint(&b, e)
				e = 0
			}
			b.WriteByte(n.g[r][f])
		}
		if e > 0 {
			fmt.Fprint(&b, e)
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	side := " b "
	if n.orange {
		side = " o "
	}
	esc := map[[2]bool]string{{true, true}: "Ee", {true, false}: "E", {false, true}: "e", {false, false}: "-"}[n.esc]
	return fmt.Sprintf("%s%s%s %d", b.String(), side, esc, n.counter)
}

func (n *naive) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	ms := n.moves()
	if depth == 1 {
		return uint64(len(ms))
	}
	var total uint64
	for _, m := range ms {
		c := n.play(m)
		total += c.perft(depth - 1)
	}
	return total
}
