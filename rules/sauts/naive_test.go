package sauts_test

// A deliberately naive second move generator: a plain [8][8]byte board, the
// rules checked one by one, every jump chain enumerated path by path (no
// bitboards, no graph search), moves deduplicated by their "from-to" text.

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

type naive struct {
	sq  [8][8]byte // 'w', 'b' or 0; [row A..H][column 1..8]
	stm byte       // 'w' or 'b'
}

func naiveFromFEN(t testing.TB, fen string) *naive {
	t.Helper()
	var n naive
	f := strings.Fields(fen)
	rows := strings.Split(f[0], "/")
	for r, row := range rows {
		c := 0
		for _, ch := range row {
			if ch >= '1' && ch <= '8' {
				c += int(ch - '0')
				continue
			}
			n.sq[r][c] = byte(ch)
			c++
		}
	}
	n.stm = f[1][0]
	return &n
}

func onBoard(r, c int) bool { return r >= 0 && r < 8 && c >= 0 && c < 8 }

func (n *naive) inOwnHalf(r int) bool {
	if n.stm == 'w' {
		return r >= 4 // rows E–H
	}
	return r <= 3 // rows A–D
}

func (n *naive) isOwnGoal(r, c int) bool {
	if n.stm == 'w' {
		return r == 7 && (c == 3 || c == 4) // H4, H5
	}
	return r == 0 && (c == 3 || c == 4) // A4, A5
}

func (n *naive) isTarget(r, c int) bool {
	if n.stm == 'w' {
		return r == 0 && (c == 3 || c == 4)
	}
	return r == 7 && (c == 3 || c == 4)
}

func (n *naive) over() bool {
	for _, c := range []int{3, 4} {
		if n.sq[0][c] == 'w' || n.sq[7][c] == 'b' {
			return true
		}
	}
	return false
}

func name(r, c int) string { return fmt.Sprintf("%c%d", 'A'+r, c+1) }

// moves returns the legal moves as sorted "from-to" texts.
func (n *naive) moves() []string {
	if n.over() {
		return nil
	}
	set := map[string]bool{}
	for r := 0; r < 8; r++ {
		for c := 0; c < 8; c++ {
			if n.sq[r][c] != n.stm {
				continue
			}
			// Home moves.
			if n.inOwnHalf(r) {
				for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
					for k := 1; k <= 7; k++ {
						rr, cc := r+k*d[0], c+k*d[1]
						if !onBoard(rr, cc) || !n.inOwnHalf(rr) || n.sq[rr][cc] != 0 || n.isOwnGoal(rr, cc) {
							break
						}
						set[name(r, c)+"-"+name(rr, cc)] = true
					}
				}
			}
			// Jump chains, every path.
			n.sq[r][c] = 0
			var visited [8][8]bool
			visited[r][c] = true
			var walk func(cr, cc int)
			walk = func(cr, cc int) {
				for dr := -1; dr <= 1; dr++ {
					for dc := -1; dc <= 1; dc++ {
						if dr == 0 && dc == 0 {
							continue
						}
						mr, mc, lr, lc := cr+dr, cc+dc, cr+2*dr, cc+2*dc
						if !onBoard(lr, lc) || n.sq[mr][mc] != n.stm || n.sq[lr][lc] != 0 ||
							n.isOwnGoal(lr, lc) || visited[lr][lc] {
							continue
						}
						set[name(r, c)+"-"+name(lr, lc)] = true
						if n.isTarget(lr, lc) {
							continue
						}
						visited[lr][lc] = true
						walk(lr, lc)
						visited[lr][lc] = false
					}
				}
			}
			walk(r, c)
			n.sq[r][c] = n.stm
		}
	}
	out := make([]string, 0, len(set))
	for m := range set {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func (n *naive) play(m string) *naive {
	c := *n
	fr, fc := int(m[0]-'A'), int(m[1]-'1')
	tr, tc := int(m[3]-'A'), int(m[4]-'1')
	c.sq[fr][fc], c.sq[tr][tc] = 0, c.stm
	if c.stm == 'w' {
		c.stm = 'b'
	} else {
		c.stm = 'w'
	}
	return &c
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
		total += n.play(m).perft(depth - 1)
	}
	return total
}
