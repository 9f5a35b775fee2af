package patsig_test

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/plateau/plateau/index/internal/patsig"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

// BenchmarkAdd times the summary of one Ōgi position.
func BenchmarkAdd(b *testing.B) {
	g, err := rules.Lookup("ogi")
	if err != nil {
		b.Fatal(err)
	}
	pos, err := g.NewPosition("")
	if err != nil {
		b.Fatal(err)
	}
	c := pos.(rules.Cells)
	l := c.Layout()
	board, hand := make([]byte, len(l.Squares)), make([]byte, len(l.Hand))
	c.Cells(board, hand)
	var bl patsig.Builder
	bl.Reset(l)
	for b.Loop() {
		bl.Add(board, hand)
	}
}

// reference is the signature of boards and hands computed the plain way:
// every position counted whole, in version 1 (each code's and slot's byte
// before its bounds), which Convert makes version 2.
func reference(l *rules.Layout, boards, hands [][]byte) []byte {
	type st struct{ lo, hi, reg int }
	codes := map[byte]*st{}
	slots := make([]st, len(l.Hand))
	var tot [2][3][2]int
	for k := range tot {
		for s := range 3 {
			tot[k][s] = [2]int{1 << 30, 0}
		}
	}
	for k := range slots {
		slots[k].lo = 1 << 30
	}
	for p, board := range boards {
		var cnt [256]int
		var t [2][3]int
		for i, c := range board {
			if pc := l.Codes[c]; pc.Kind != 0 {
				cnt[c]++
				t[0][pc.Side&1]++
				if codes[c] == nil {
					codes[c] = &st{lo: 1 << 30}
					if p > 0 {
						codes[c].lo = 0 // absent from the positions before
					}
				}
				codes[c].reg |= 1 << patsig.Region(i, len(board))
			}
		}
		for c, s := range codes {
			s.lo, s.hi = min(s.lo, cnt[c]), max(s.hi, cnt[c])
		}
		for k, n := range hands[p] {
			slots[k].lo, slots[k].hi = min(slots[k].lo, int(n)), max(slots[k].hi, int(n))
			if pc := l.Hand[k]; pc.Kind != 0 {
				t[1][pc.Side&1] += int(n)
			}
		}
		for k := range t {
			t[k][2] = t[k][0] + t[k][1]
			for s := range 3 {
				tot[k][s] = [2]int{min(tot[k][s][0], t[k][s]), max(tot[k][s][1], t[k][s])}
			}
		}
	}
	n := len(l.Squares)
	out := []byte{patsig.Version1, byte(n), byte(n >> 8)}
	for k := range tot {
		for s := range 3 {
			out = append(out, byte(min(tot[k][s][0], 255)), byte(min(tot[k][s][1], 255)))
		}
	}
	nib := func(lo, hi int) byte { return byte(min(lo, 15)<<4 | min(hi, 15)) }
	var cs []byte
	for c := range 256 {
		if s := codes[byte(c)]; s != nil && s.hi > 0 {
			cs = append(cs, byte(c), nib(s.lo, s.hi), byte(s.reg))
		}
	}
	out = append(append(out, byte(len(cs)/3)), cs...)
	var ss []byte
	for k, s := range slots {
		if s.hi > 0 {
			ss = append(ss, byte(k), nib(s.lo, s.hi))
		}
	}
	return append(append(out, byte(len(ss)/2)), ss...)
}

// TestBuilderAgainstReference feeds random boards and hands of every
// ruleset's layout, each a few cells away from the one before or not
// related to it at all (a variation starts from an earlier position), and
// compares the signature with the plain computation's.
func TestBuilderAgainstReference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	var b patsig.Builder
	for _, g := range rules.Games() {
		pos, err := g.NewPosition("")
		if err != nil {
			t.Fatal(err)
		}
		l := pos.(rules.Cells).Layout()
		var codes []byte
		for c := range l.Codes {
			if l.Codes[c].Kind != 0 || c == 0 {
				codes = append(codes, byte(c))
			}
		}
		for game := range 20 {
			n := 1 + rnd.IntN(40)
			var boards, hands [][]byte
			board, hand := make([]byte, len(l.Squares)), make([]byte, len(l.Hand))
			pos.(rules.Cells).Cells(board, hand)
			b.Reset(l)
			for p := range n {
				switch {
				case p > 0 && rnd.IntN(6) == 0: // back to an earlier position
					j := rnd.IntN(len(boards))
					board, hand = append([]byte(nil), boards[j]...), append([]byte(nil), hands[j]...)
				case p > 0:
					board, hand = append([]byte(nil), board...), append([]byte(nil), hand...)
					for range 1 + rnd.IntN(3) {
						board[rnd.IntN(len(board))] = codes[rnd.IntN(len(codes))]
					}
					if len(hand) > 0 && rnd.IntN(2) == 0 {
						hand[rnd.IntN(len(hand))] = byte(rnd.IntN(20))
					}
				}
				boards, hands = append(boards, board), append(hands, hand)
				b.Add(board, hand)
			}
			got, want := b.Append(nil), patsig.Convert(reference(l, boards, hands))
			if want[0] != patsig.Version || string(got) != string(want) {
				t.Fatalf("%s game %d (%d positions):\n got %x\nwant %x", g.ID(), game, n, got, want)
			}
		}
	}
}

// BenchmarkAddGames times the summary of the positions of generated Ōgi
// games, one op a position: a game's positions differ by a move or two,
// as an import gives them.
func BenchmarkAddGames(b *testing.B) {
	g, err := rules.Lookup("ogi")
	if err != nil {
		b.Fatal(err)
	}
	gen, err := generate.New(g, 1)
	if err != nil {
		b.Fatal(err)
	}
	var l *rules.Layout
	var games [][][2][]byte // each game's boards and hands
	n := 0
	for i := range 50 {
		rec, err := gen.Game(i)
		if err != nil {
			b.Fatal(err)
		}
		rg := replay.Replay(rec, replay.Options{})
		if rg.Err != nil {
			b.Fatal(rg.Err)
		}
		pos := rg.Start.Clone()
		c := pos.(rules.Cells)
		l = c.Layout()
		cells := func() [2][]byte {
			board, hand := make([]byte, len(l.Squares)), make([]byte, len(l.Hand))
			c.Cells(board, hand)
			return [2][]byte{board, hand}
		}
		game := [][2][]byte{cells()}
		for _, st := range rg.Main {
			pos.Play(st.Move)
			game = append(game, cells())
		}
		games = append(games, game)
		n += len(game)
	}
	var bl patsig.Builder
	var sig []byte
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; {
		for _, game := range games {
			bl.Reset(l)
			for _, p := range game {
				bl.Add(p[0], p[1])
			}
			sig = bl.Append(sig[:0])
			i += len(game)
		}
	}
	// On a shared machine the wall time an op is mostly the wait for a
	// core: the CPU time says what the code costs.
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(n)/float64(len(games)), "positions/game")
}

// cpuTime is the processor time of the process so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestAppendGrowsOnce: a signature appended to nil takes one allocation
// (it is kept with the game's rows).
func TestAppendGrowsOnce(t *testing.T) {
	for _, g := range rules.Games() {
		pos, err := g.NewPosition("")
		if err != nil {
			t.Fatal(err)
		}
		c, ok := pos.(rules.Cells)
		if !ok {
			continue
		}
		l := c.Layout()
		board, hand := make([]byte, len(l.Squares)), make([]byte, len(l.Hand))
		c.Cells(board, hand)
		var bl patsig.Builder
		bl.Reset(l)
		bl.Add(board, hand)
		if n := testing.AllocsPerRun(10, func() { bl.Append(nil) }); n != 1 {
			t.Errorf("%s: Append(nil) took %v allocations, want 1", g.ID(), n)
		}
	}
}
