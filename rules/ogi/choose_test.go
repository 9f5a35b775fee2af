package ogi

import (
	"slices"
	"testing"

	"github.com/plateau/plateau/rules"
)

// kingTakenBy reports, by brute force over Legal, whether the side to move
// in p can capture the enemy King.
func kingTakenBy(p *Position) bool {
	for _, m := range p.Legal(nil) {
		if c := mCapture(m); c != 0 && kindOf(c) == king {
			return true
		}
	}
	return false
}

// playouts plays n games of at most plies moves with Choose and calls fn
// before each choice.
func playouts(t *testing.T, n, plies int, pol rules.Policy, fn func(p *Position, m rules.Move, doomed bool)) {
	t.Helper()
	for g := 0; g < n; g++ {
		p := mustParse(t, "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1")
		for ply := 0; ply < plies && !p.Outcome().Over; ply++ {
			m, doomed, ok := p.Choose(&pol, uint64(g)<<20|uint64(ply), 0)
			if !ok {
				t.Fatalf("%s: no move chosen but the game is not over", p)
			}
			fn(p, m, doomed)
			p.Play(m)
		}
	}
}

func TestChooseLegalAndSafe(t *testing.T) {
	pol := rules.Policy{Noise: 60, Capture: 60, Promote: 40, Progress: 3, Drop: 5, Royal: 30, Safety: true}
	moves, safe, doomed := 0, 0, 0
	playouts(t, 40, 200, pol, func(p *Position, m rules.Move, d bool) {
		legal := false
		for _, x := range p.Legal(nil) {
			legal = legal || x == m
		}
		if !legal {
			t.Fatalf("%s: Choose gives %s, not a legal move", p, p.FormatMove(m))
		}
		c := p.Clone().(*Position)
		c.Play(m)
		taken := !c.Outcome().Over && kingTakenBy(c)
		if taken && !d {
			t.Fatalf("%s: Choose gives %s, after which the King can be taken, without saying doomed", p, p.FormatMove(m))
		}
		if !taken {
			safe++
		}
		if d {
			doomed++
		}
		moves++
	})
	t.Logf("%d moves, %d safe, %d doomed", moves, safe, doomed)
	if moves < 1000 {
		t.Errorf("only %d moves played", moves)
	}
}

func TestChooseTakesKing(t *testing.T) {
	// Sente's rook on e1 can take the King on e8; it is the only capture.
	p := mustParse(t, "4k3/8/8/8/8/8/8/K3R3 b - 1")
	pol := rules.Policy{Noise: 1000, Capture: 1, Safety: true}
	for seed := uint64(0); seed < 50; seed++ {
		m, _, ok := p.Choose(&pol, seed, 0)
		if c := mCapture(m); !ok || c == 0 || kindOf(c) != king {
			t.Fatalf("seed %d: Choose gives %s, want Re1xe8+ or Re1xe8=", seed, p.FormatMove(m))
		}
	}
}

func TestChooseSkipAndDeterminism(t *testing.T) {
	p := mustParse(t, "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1")
	pol := rules.Policy{Noise: 100, Capture: 60}
	m1, _, _ := p.Choose(&pol, 7, 0)
	m2, _, _ := p.Choose(&pol, 7, 0)
	if m1 != m2 {
		t.Errorf("same seed, different moves: %s, %s", p.FormatMove(m1), p.FormatMove(m2))
	}
	for seed := uint64(0); seed < 20; seed++ {
		if m, _, _ := p.Choose(&pol, seed, m1); m == m1 {
			t.Errorf("seed %d: Choose returns the skipped move", seed)
		}
	}
	// A finished game has no move to choose.
	q := mustParse(t, "8/8/8/8/8/8/8/K7 b K 1")
	if _, _, ok := q.Choose(&pol, 1, 0); ok {
		t.Errorf("Choose found a move after the King was captured")
	}
}

// TestChooseMatchesChooseAll checks that the one-pass Choose, which keeps
// only the best move and unrolls the weighing of most of them, chooses
// exactly as chooseAll, which weighs and keeps every move, for policies with
// and without Safety, noise or progress, and with a move to skip.
func TestChooseMatchesChooseAll(t *testing.T) {
	pols := []rules.Policy{
		{Noise: 60, Capture: 60, Promote: 40, Progress: 3, Drop: 5, Royal: 30, Safety: true},
		{Noise: 200, Capture: 60, Promote: 40, Progress: 3, Drop: 5, Royal: 30},
		{Noise: 0, Capture: 10, Promote: 20, Progress: 7, Drop: 1, Royal: 2, Safety: true},
		{Noise: 5, Capture: -30, Promote: -10, Progress: -2, Drop: -3, Royal: -40, Safety: true},
	}
	compared, skipped := 0, 0
	playouts(t, 30, 200, pols[0], func(p *Position, m rules.Move, _ bool) {
		for k := range pols {
			pol := &pols[k]
			seed := uint64(compared) * 0x9e3779b97f4a7c15
			for _, skip := range []rules.Move{0, m} {
				gm, gd, gok := p.Choose(pol, seed, skip)
				wm, wd, wok := p.chooseAll(pol, seed, skip, pol.Safety && p.kingSq[p.side] >= 0 && attackedBy(&p.board, int(p.kingSq[p.side]), p.occ[p.side^1], p.occ[0]|p.occ[1]))
				if gm != wm || gd != wd || gok != wok {
					t.Fatalf("%s policy %d skip %s: Choose gives %s %v %v, chooseAll %s %v %v", p, k, p.FormatMove(skip), p.FormatMove(gm), gd, gok, p.FormatMove(wm), wd, wok)
				}
				if skip != 0 && gm != m {
					skipped++
				}
			}
			compared++
		}
	})
	if compared < 10000 || skipped < compared/2 {
		t.Errorf("only %d choices compared (%d with a skip)", compared, skipped)
	}
	// The best move repeats (Rd4-d5 was played from this very position),
	// or the King's moves cost more than every other move gains.
	p := setup(t, "ka8 Kh1 Rd4 pa5", "b", "")
	playAll(t, p, "Rd4-d5", "Ka8-b8", "Rd5-d4", "Kb8-a8")
	q := setup(t, "ka8 Kh1 Rd4 pa5 rh8", "b", "")
	for seed := uint64(0); seed < 2000; seed++ {
		for k, pol := range []rules.Policy{
			{Noise: 40, Capture: 10, Progress: 5, Safety: true},
			{Noise: 50, Capture: 10, Royal: 3 << 20, Safety: true},
		} {
			for _, pos := range []*Position{p, q} {
				gm, gd, gok := pos.Choose(&pol, seed, 0)
				wm, wd, wok := pos.chooseAll(&pol, seed, 0, attackedBy(&pos.board, int(pos.kingSq[pos.side]), pos.occ[pos.side^1], pos.occ[0]|pos.occ[1]))
				if gm != wm || gd != wd || gok != wok {
					t.Fatalf("%s policy %d seed %d: Choose gives %s %v %v, chooseAll %s %v %v", pos, k, seed, pos.FormatMove(gm), gd, gok, pos.FormatMove(wm), wd, wok)
				}
			}
		}
		pol := rules.Policy{Noise: 40, Progress: 5}
		if m, _, _ := p.chooseAll(&pol, seed, 0, false); m != 0 && p.FormatMove(m) == "Rd4-d5" {
			t.Fatalf("seed %d: Rd4-d5 repeats", seed)
		}
	}
}

// TestAttacked compares attacked with every pseudo-legal move of the enemy
// on the positions of playouts.
func TestAttacked(t *testing.T) {
	pol := rules.Policy{Noise: 200, Capture: 60, Promote: 40, Drop: 5}
	checked := 0
	playouts(t, 10, 150, pol, func(p *Position, _ rules.Move, _ bool) {
		them := *p
		them.side ^= 1
		them.hist, them.since = nil, 0
		reach := map[int]bool{}
		for _, m := range them.pseudo(nil) {
			if m&mDrop == 0 {
				reach[mTo(m)] = true
			}
		}
		for sq := 0; sq < 64; sq++ {
			if c := p.board[sq]; c != 0 && sideOf(c) == them.side {
				continue // a side never moves onto its own piece
			}
			if got := attacked(&p.board, sq, them.side); got != reach[sq] {
				t.Fatalf("%s: attacked(%s) = %v, the moves say %v", p, sqName(sq), got, reach[sq])
			}
			checked++
		}
	})
	if checked < 5000 {
		t.Errorf("only %d squares checked", checked)
	}
}

// BenchmarkChoose measures Choose over the positions of playouts (the
// collection generator's hot loop).
func BenchmarkChoose(b *testing.B) {
	pol := rules.Policy{Noise: 60, Capture: 60, Promote: 40, Progress: 3, Drop: 5, Royal: 30, Safety: true}
	var positions []*Position
	t := &testing.T{}
	playouts(t, 50, 300, pol, func(p *Position, _ rules.Move, _ bool) {
		positions = append(positions, p.Clone().(*Position))
	})
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := positions[i%len(positions)]
		p.Choose(&pol, uint64(i), 0)
	}
}

// TestBoardMoves compares the bitboard generator and attack test with
// pieceMoves and attacked on the positions of playouts.
func TestBoardMoves(t *testing.T) {
	pol := rules.Policy{Noise: 200, Capture: 60, Promote: 40, Drop: 5}
	checked := 0
	playouts(t, 40, 200, pol, func(p *Position, _ rules.Move, _ bool) {
		if occ, kings := p.computeOcc(); occ != p.occ || kings != p.kingSq {
			t.Fatalf("%s: Play kept occupancy %x kings %v, the board says %x %v", p, p.occ, p.kingSq, occ, kings)
		}
		for _, us := range []int{0, 1} {
			q := *p
			q.side = us
			var want []rules.Move
			for sq, c := range q.board {
				if c != 0 && sideOf(c) == us {
					want = q.pieceMoves(want, sq, c)
				}
			}
			own, other, _, _ := q.occupancy(us)
			got := q.boardMoves(nil, own, other)
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s side %d: boardMoves gives %d moves, pieceMoves %d", p, us, len(got), len(want))
			}
			for sq := 0; sq < 64; sq++ {
				if a, b := attackedBy(&q.board, sq, other, own|other), attacked(&q.board, sq, us^1); a != b {
					t.Fatalf("%s: attackedBy(%s) = %v, attacked %v", p, sqName(sq), a, b)
				}
			}
			checked++
		}
	})
	if checked < 1000 {
		t.Errorf("only %d positions checked", checked)
	}
}

// attacked reports whether a piece of side by on board b could move to sq:
// the mailbox version, to check attackedBy.
func attacked(b *[64]uint8, sq, by int) bool {
	for t := 0; t < 64; t++ {
		c := b[t]
		if nearMask[sq]&(1<<t) == 0 {
			continue
		}
		if c == 0 || sideOf(c) != by {
			continue
		}
		for _, s := range steps[c&31][t] {
			if int(s) == sq {
				return true
			}
		}
	}
	for d := 0; d < 8; d++ {
		for _, t := range rays[d][sq] {
			c := b[t]
			if c == 0 {
				continue
			}
			if sideOf(c) == by {
				for _, sd := range slideDirs[c&31] {
					if sd == oppositeDir[d] {
						return true
					}
				}
			}
			break
		}
	}
	return false
}
