package ogi

import (
	"slices"
	"testing"

	"github.com/plateau/plateau/rules"
)

// TestAppendFacts checks the bulk facts against Describe on every move of
// every position to depth 3 from the start and from positions with hands
// and promoted pieces.
func TestAppendFacts(t *testing.T) {
	for _, fen := range []string{
		"",
		"4k3/8/8/3p4/8/8/8/4K3 b SNL+Prbnl+s 1",
		"l2k3l/1+R6/p1p2p1p/8/2B5/P1P2P1P/6+b1/L2K3L w SNsn 40",
	} {
		var p rules.Position = mustParse(t, "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1")
		if fen != "" {
			p = mustParse(t, fen)
		}
		checked := 0
		var walk func(p rules.Position, depth int)
		walk = func(p rules.Position, depth int) {
			moves := p.Legal(nil)
			facts := rules.AppendFacts(p, nil, moves)
			if len(facts) != len(moves) {
				t.Fatalf("%s: %d facts for %d moves", p, len(facts), len(moves))
			}
			for i, m := range moves {
				if want := rules.FactsOf(p.Describe(m)); facts[i] != want {
					t.Fatalf("%s: %s: facts %+v, Describe gives %+v", p, p.FormatMove(m), facts[i], want)
				}
				checked++
				if depth > 1 {
					c := p.Clone()
					c.Play(m)
					walk(c, depth-1)
				}
			}
		}
		depth := 3
		if fen != "" {
			depth = 2 // hands make wide trees
		}
		walk(p, depth)
		if checked < 1000 {
			t.Errorf("%q: only %d moves checked", fen, checked)
		}
	}
}

// TestBoardPseudoAndSampleDrops checks that boardPseudo is exactly Legal's
// board moves (after the repetition rule) and that sampleDrops gives
// distinct legal drops, all of them when there are few, deterministic for a
// seed.
func TestBoardPseudoAndSampleDrops(t *testing.T) {
	legalBoard := func(p *Position) []rules.Move { return p.filterRepetitions(p.boardPseudo(nil), 0) }
	sampleDrops := func(p *Position, n int, seed uint64) []rules.Move {
		return p.filterRepetitions(p.sampleDrops(nil, n, seed), 0)
	}
	for _, fen := range []string{
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1",
		"4k3/8/8/3p4/8/8/8/4K3 b SNL+Prbnl+s 1",
		"l2k3l/1+R6/p1p2p1p/8/2B5/P1P2P1P/6+b1/L2K3L w SNsn 40",
		"4k3/8/8/8/8/8/8/4K3 b L 1", // a lance cannot be dropped on rank 8
	} {
		p := mustParse(t, fen)
		legal := p.Legal(nil)
		isLegal := map[rules.Move]bool{}
		var board, drops []rules.Move
		for _, m := range legal {
			isLegal[m] = true
			if m&mDrop != 0 {
				drops = append(drops, m)
			} else {
				board = append(board, m)
			}
		}
		if got := legalBoard(p); !slices.Equal(got, board) {
			t.Errorf("%s: boardPseudo gives %d moves, Legal has %d board moves", fen, len(got), len(board))
		}
		for _, n := range []int{1, 4, 10, 1000} {
			s := sampleDrops(p, n, 42)
			if !slices.Equal(s, sampleDrops(p, n, 42)) {
				t.Errorf("%s: sampleDrops not deterministic", fen)
			}
			seen := map[rules.Move]bool{}
			for _, m := range s {
				if !isLegal[m] || m&mDrop == 0 || seen[m] {
					t.Errorf("%s: sampleDrops(%d) gives %s: legal %v, drop %v, repeated %v", fen, n, p.FormatMove(m), isLegal[m], m&mDrop != 0, seen[m])
				}
				seen[m] = true
			}
			if len(drops) <= n && len(s) != len(drops) {
				t.Errorf("%s: sampleDrops(%d) gives %d of %d drops", fen, n, len(s), len(drops))
			}
			if len(s) > max(n, len(drops)) || (len(drops) > 0 && len(s) == 0) {
				t.Errorf("%s: sampleDrops(%d) gives %d drops (%d legal)", fen, n, len(s), len(drops))
			}
		}
	}
}
