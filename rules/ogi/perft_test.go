package ogi

import (
	"context"
	"errors"
	"math/rand"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plateau/plateau/rules"
)

// Perft counts (promotion and non-promotion are two moves, and so are the
// King's two choices on a promoted piece). The first levels of every row are
// confirmed by the naive generator in naive_test.go.
var perftTable = []struct {
	name   string
	fen    string
	counts []uint64
	deep   []uint64 // further levels, run with PLATEAU_DEEP=1
}{
	{"start", "", []uint64{25, 625, 14850, 358253}, []uint64{8614158}},
	{"promotions", "4k3/1P1P3P/L7/2N5/8/6n1/p2p2l1/2K5 b - 1", []uint64{11, 110, 1332, 15472, 203919}, nil},
	{"drops with hands", "4k3/8/8/3p4/8/8/8/4K3 b SNL+Prbnl+s 1", []uint64{227, 64583}, []uint64{11051007}},
	{"king's privilege", "8/3k4/8/2+p+r+b3/3K4/2+sp1+n2/8/8 b +PI 1", []uint64{124, 5522, 429259}, []uint64{18946720}},
	{"handicap", "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1+B4+R1/LNSIKSNL b - 1", []uint64{27, 675, 17475, 421531}, []uint64{10967611}},
}

func TestPerft(t *testing.T) {
	deep := os.Getenv("PLATEAU_DEEP") != ""
	for _, tc := range perftTable {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.fen)
			counts := tc.counts
			if deep {
				counts = append(append([]uint64(nil), counts...), tc.deep...)
			}
			for i, want := range counts {
				if got := rules.Perft(p, i+1); got != want {
					t.Errorf("depth %d: %d, want %d", i+1, got, want)
				}
			}
		})
	}
}

func BenchmarkPerft4(b *testing.B) {
	p := mustParse(b, "")
	b.ReportAllocs()
	for b.Loop() {
		rules.Perft(p, 4)
	}
	b.ReportMetric(float64(358253*b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerftParallel5 counts depth 5 from the start on one worker per
// core: run it with -cpu 1,2 to see how the count scales.
func BenchmarkPerftParallel5(b *testing.B) {
	p := mustParse(b, "")
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if n, err := rules.PerftParallel(context.Background(), p, 5, 0); err != nil || n != 8614158 {
			b.Fatalf("%d, %v", n, err)
		}
	}
	b.ReportMetric(float64(8614158*b.N)/b.Elapsed().Seconds(), "nodes/s")
	// On a shared machine the process's CPU time is the steadier figure,
	// and the one that shows what a second worker costs.
	b.ReportMetric(float64(8614158*b.N)/(cpuTime()-cpu).Seconds(), "nodes/cpu-s")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// randomPlayout plays up to n random legal moves from p, with a bias toward
// captures so that hands fill up and drops, promotions and the King's
// privilege all happen.
func randomPlayout(p *Position, r *rand.Rand, n int, visit func(m rules.Move)) {
	var buf []rules.Move
	for i := 0; i < n && !p.Outcome().Over; i++ {
		buf = p.Legal(buf[:0])
		if len(buf) == 0 {
			return
		}
		m := buf[r.Intn(len(buf))]
		for try := 0; try < 3; try++ {
			c := buf[r.Intn(len(buf))]
			if mCapture(c) != 0 && kindOf(mCapture(c)) != king || c&mDrop != 0 {
				m = c
				break
			}
		}
		if visit != nil {
			visit(m)
		}
		p.Play(m)
	}
}

// TestKeyIncremental: the incremental key equals the key recomputed from
// scratch, and String round-trips, all along random games.
func TestKeyIncremental(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for g := 0; g < 40; g++ {
		p := mustParse(t, "")
		randomPlayout(p, r, 300, func(m rules.Move) {})
		if p.key != p.computeKey() {
			t.Fatalf("game %d: incremental key differs from recomputed", g)
		}
		q, err := Parse(p.String())
		if err != nil {
			t.Fatalf("game %d: %s does not parse: %v", g, p.String(), err)
		}
		if q.String() != p.String() || q.Key() != p.Key() {
			t.Fatalf("game %d: round trip %s -> %s", g, p.String(), q.String())
		}
	}
}

// TestKeyEveryPly checks the key after every ply of a few games.
func TestKeyEveryPly(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for g := 0; g < 10; g++ {
		p := mustParse(t, "")
		var moves []rules.Move
		randomPlayout(p.Clone().(*Position), r, 200, func(m rules.Move) { moves = append(moves, m) })
		for i, m := range moves {
			p.Play(m)
			if p.key != p.computeKey() {
				t.Fatalf("game %d ply %d: key drift after %s", g, i+1, p.String())
			}
		}
	}
}

func TestKeyTranspositions(t *testing.T) {
	a := mustParse(t, "")
	b := mustParse(t, "")
	playAll(t, a, "Pa3-a4", "Pa6-a5", "Pb3-b4", "Pb6-b5")
	playAll(t, b, "Pb3-b4", "Pb6-b5", "Pa3-a4", "Pa6-a5")
	if a.Key() != b.Key() || a.String() != b.String() {
		t.Error("same position by two move orders, different keys")
	}
	// Hands and side to move are part of the key; the counters are not.
	keys := map[uint64]string{}
	for _, s := range []string{
		"k7/8/8/8/8/8/8/7K b - 1",
		"k7/8/8/8/8/8/8/7K w - 1",
		"k7/8/8/8/8/8/8/7K b S 1",
		"k7/8/8/8/8/8/8/7K b s 1",
		"k7/8/8/8/8/8/8/7K b +S 1",
		"k7/8/8/8/8/8/8/7K b 2S 1",
		"k7/8/8/8/8/8/8/K7 b - 1",
		"k7/8/8/8/8/8/8/+SK6 b - 1",
		"k7/8/8/8/8/8/8/SK6 b - 1",
	} {
		k := mustParse(t, s).Key()
		if other, dup := keys[k]; dup {
			t.Errorf("%q and %q have the same key", s, other)
		}
		keys[k] = s
	}
	if mustParse(t, "k7/8/8/8/8/8/8/7K b - 1").Key() != mustParse(t, "k7/8/8/8/8/8/8/7K b - 57 33").Key() {
		t.Error("move number or draw count changes the key")
	}
}

// TestClone: a clone is independent, history included.
func TestClone(t *testing.T) {
	a := setup(t, "ka8 Kh1 Rd4", "b", "")
	playAll(t, a, "Rd4-d5", "Ka8-b8", "Rd5-d4", "Kb8-a8")
	b := a.Clone().(*Position)
	c := a.Clone().(*Position)
	playAll(t, b, "Rd4-d6", "Ka8-b8")
	playAll(t, c, "Rd4-d7", "Ka8-b8")
	playAll(t, a, "Rd4-d6", "Ka8-a7") // appends in place where b appended
	if _, err := c.ParseMove("Rd7-d4"); err != nil {
		t.Errorf("c: %v", err)
	}
	if _, err := b.ParseMove("Rd6-d4"); err != nil {
		t.Errorf("b: %v", err)
	}
	if len(a.hist) != 6 || len(b.hist) != 6 || len(c.hist) != 6 {
		t.Fatalf("history lengths %d %d %d", len(a.hist), len(b.hist), len(c.hist))
	}
	if b.hist[5] == a.hist[5] || c.hist[4] == b.hist[4] {
		t.Error("clones share history they should not")
	}
	for _, q := range []*Position{b, c} {
		if _, err := q.ParseMove("Rd4-d5"); err == nil {
			t.Error("impossible move accepted")
		}
	}
}

func TestPositionRoundTrip(t *testing.T) {
	for _, s := range []string{
		StartSFEN,
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1+B4+R1/LNSIKSNL b - 1",
		"lnsiksnl/6b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL w - 1",
		"4k3/8/8/3p4/8/8/8/4K3 b SNL+Prb+snl 1",
		"8/3k4/8/2+p+r+b3/3K4/2+sp1+n2/8/8 b I+P 1",
		"k7/8/8/8/8/8/8/7K w 2S3Pbn13p 87 45",
		"8/8/8/8/8/8/8/7K w K 30",
	} {
		p, err := Parse(s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if p.String() != s {
			t.Errorf("round trip:\n got %s\nwant %s", p.String(), s)
		}
	}
}

func TestPositionErrors(t *testing.T) {
	for _, s := range []string{
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1 b - 1",           // 7 ranks
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSN b - 1",   // short rank
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNLL b - 1", // long rank
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL x - 1",  // side
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIQSNL b - 1",  // letter
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 0",  // move number
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - x",
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1 -3",
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b P 1", // 17 pawns
		"lnsiIsnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1", // no Gote King
		"lnsikknl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1", // two Gote Kings
		"P3k3/8/8/8/8/8/8/4K3 b - 1",                                // pawn that could never move
		"4k3/N7/8/8/8/8/8/4K3 b - 1",                                // knight that could never move
		"4k3/8/8/8/8/8/8/l3K3 b - 1",                                // Gote lance on rank 1
		"4k3/8/8/8/8/8/8/4K3 b SS 1",                                // repeated hand entry
		"4k3/8/8/8/8/8/8/4K3 b 1S 1",                                // count 1
		"4k3/8/8/8/8/8/8/4K3 b S+ 1",                                // dangling +
		"4k3/8/8/8/8/8/8/4K3 b +K 1",                                // promoted king in hand
		"4k3/8/8/8/8/8/8/4K3 b 5I 1",                                // too many princesses
		"4k3/8/8/8/8/8/8/4+3 b - 1",                                 // '+' before a digit
		"4k3/8/8/8/8/8/8/4K3",                                       // no side
		"4k3/8/8/8/8/8/8/4K3 b - 1 0 9",                             // too many fields
	} {
		if _, err := Parse(s); !errors.Is(err, rules.ErrPosition) {
			t.Errorf("%q: got %v, want ErrPosition", s, err)
		}
	}
	if _, err := Game.NewPosition(""); err != nil {
		t.Error(err)
	}
	if g, err := rules.Lookup("OGI"); err != nil || g.Name() != "Ōgi" {
		t.Errorf("lookup: %v", err)
	}
}

func TestDiagramAndBoard(t *testing.T) {
	p := mustParse(t, "4k3/8/8/3+p4/8/8/8/4K3 b S2P+r 1")
	d := p.Diagram()
	for _, want := range []string{"Gote (lower case) in hand: +r", "Sente (upper case) in hand: S P×2", "+p", " k ", " K ", "Sente to move", "a  b  c"} {
		if !strings.Contains(d, want) {
			t.Errorf("diagram lacks %q:\n%s", want, d)
		}
	}
	var hands, board int
	for _, pl := range p.Board() {
		if pl.Square == "" {
			hands += pl.Count
		} else {
			board++
		}
	}
	if hands != 4 || board != 3 {
		t.Errorf("board %d hands %d", board, hands)
	}
}

// TestHasLegal: the early-exit test agrees with Legal along random games
// and in positions without moves.
func TestHasLegal(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for g := 0; g < 20; g++ {
		p := mustParse(t, "")
		randomPlayout(p, r, 200, func(rules.Move) {
			if p.hasLegal() != (len(p.Legal(nil)) > 0) {
				t.Fatalf("hasLegal disagrees in %s", p.String())
			}
		})
	}
	stuck := setup(t, "Kh8 ka1 +pb1 +pc1 +pd1 +pe1 +pf1 +pg1 +ph1 pa2 pb2 pc2 pd2 pe2 pf2 pg2 ph2", "w", "P")
	if stuck.hasLegal() || len(stuck.Legal(nil)) != 0 {
		t.Error("walled-in Gote has moves")
	}
	drop := setup(t, "Kh8 ka1 +pb1 +pc1 +pd1 +pe1 +pf1 +pg1 +ph1 pa2 pb2 pc2 pd2 pe2 pf2 pg2 ph2", "w", "n")
	if !drop.hasLegal() {
		t.Error("a knight drop is a move")
	}
}

// TestClonesInParallel: clones sharing a history can be played in separate
// goroutines (run with -race).
func TestClonesInParallel(t *testing.T) {
	p := mustParse(t, "")
	playAll(t, p, "Rg2-h2", "Rb7-a7", "Rh2-g2", "Ra7-b7")
	done := make(chan uint64, 4)
	for i := 0; i < 4; i++ {
		c := p.Clone()
		go func() { done <- rules.Perft(c, 3) }()
	}
	want := rules.Perft(p, 3)
	for i := 0; i < 4; i++ {
		if got := <-done; got != want {
			t.Errorf("clone %d: %d, want %d", i, got, want)
		}
	}
}
