package pattern

import (
	"math/rand/v2"
	"testing"

	"github.com/plateau/plateau/rules"
)

// TestCoverCodes: a cover is at most limit disjoint cubes whose union is
// exactly the codes, and one is found for a cube and for two disjoint cubes.
func TestCoverCodes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	randCube := func() (byte, byte) {
		m := byte(r.Uint32())
		return m, byte(r.Uint32()) & m
	}
	in := func(c, m, v byte) bool { return c&m == v }
	found := 0
	for i := 0; i < 20000; i++ {
		var set [256]bool
		shaped := false
		switch i % 4 {
		case 0: // a random subset
			p := r.Float64()
			for c := range set {
				set[c] = r.Float64() < p
			}
		case 1: // one cube
			m, v := randCube()
			for c := range set {
				set[c] = in(byte(c), m, v)
			}
			shaped = true
		default: // two cubes, disjoint or not
			m1, v1 := randCube()
			m2, v2 := randCube()
			disjoint := true
			for c := range set {
				a, b := in(byte(c), m1, v1), in(byte(c), m2, v2)
				set[c] = a || b
				disjoint = disjoint && !(a && b)
			}
			shaped = disjoint
		}
		var codes []byte
		for c, ok := range set {
			if ok {
				codes = append(codes, byte(c))
			}
		}
		for limit := 1; limit <= 3; limit++ {
			cubes := coverCodes(codes, limit)
			if cubes == nil {
				if shaped && limit >= 2 && len(codes) > 0 {
					t.Fatalf("no cover of %d codes in %d cubes, though they are at most two disjoint cubes", len(codes), limit)
				}
				continue
			}
			found++
			if len(cubes) > limit {
				t.Fatalf("%d cubes, limit %d", len(cubes), limit)
			}
			for c := range set {
				n := 0
				for _, cb := range cubes {
					if in(byte(c), byte(cb.mask), byte(cb.val)) {
						n++
					}
					if cb.mask != bcast(byte(cb.mask)) || cb.val != bcast(byte(cb.val)) {
						t.Fatalf("cube %x/%x is not broadcast", cb.mask, cb.val)
					}
				}
				if want := map[bool]int{false: 0, true: 1}[set[c]]; n != want {
					t.Fatalf("code %d is in %d cubes of %v, want %d", c, n, cubes, want)
				}
			}
			// Count on boards of every length, tails included.
			for size := 1; size <= 40; size++ {
				board := make([]byte, size)
				want := 0
				for k := range board {
					if len(codes) > 0 && r.IntN(2) == 0 {
						board[k] = codes[r.IntN(len(codes))]
					} else {
						board[k] = byte(r.Uint32())
					}
					if set[board[k]] {
						want++
					}
				}
				if got := countCubes(cubes, board); got != want {
					t.Fatalf("board % x: %d codes counted, want %d", board, got, want)
				}
			}
		}
	}
	if found < 5000 {
		t.Fatalf("only %d covers found", found)
	}
}

// TestOnBoardCompiled: common counts are counted by cubes, and a term whose
// codes are not two cubes (any dames piece: codes 1 to 4) falls back to the
// table; both agree with the Board path elsewhere
// (TestCellsAndBoardPathsAgree, TestPatternAgainstNaiveReplay).
func TestOnBoardCompiled(t *testing.T) {
	for _, tt := range []struct {
		game, pat string
		cubes     bool
	}{
		{"ogi", "*>999", true}, {"ogi", "Sente:*<=9", true}, {"ogi", "Gote:P>=3", true}, {"ogi", "+*>2", true},
		{"dames", "*>=1", false}, {"dames", "b:*<=12", true},
	} {
		g, err := rules.Lookup(tt.game)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := g.NewPosition("")
		if err != nil {
			t.Fatal(err)
		}
		l := pos.(rules.Cells).Layout()
		p, err := Parse(tt.pat)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Compile(p, g)
		if err != nil {
			t.Fatal(err)
		}
		cm := m.compileCells(l)
		if len(cm.terms) != 1 || cm.terms[0].kind != OnBoard || (cm.terms[0].cubes != nil) != tt.cubes {
			t.Errorf("%s: terms %+v, want cubes %v", tt.pat, cm.terms, tt.cubes)
		}
	}
}
