package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/corentings/chess/v2"
)

// Every generated game reads back through the library's own PGN parser,
// move for move, and a mate's result matches the final position.
func TestGamesReadBack(t *testing.T) {
	var buf bytes.Buffer
	const n = 300
	if err := Write(&buf, 7, n, 3); err != nil {
		t.Fatal(err)
	}
	sc := chess.NewScanner(&buf)
	got, mates := 0, 0
	for sc.HasNext() {
		g, err := sc.ParseNext()
		if err != nil {
			t.Fatalf("game %d: %v", got, err)
		}
		want := Game(7, got)
		plies := strings.Count(want[strings.Index(want, "\n\n"):], " ") // words, at least the plies
		if len(g.Moves()) == 0 || len(g.Moves()) > plies {
			t.Errorf("game %d: %d moves read back", got, len(g.Moves()))
		}
		if g.Method() == chess.Checkmate {
			mates++
			res := g.GetTagPair("Result")
			if (g.Position().Turn() == chess.White) != (res == "0-1") {
				t.Errorf("game %d: checkmate with %s to move, result %s", got, g.Position().Turn(), res)
			}
		}
		got++
	}
	if got != n {
		t.Fatalf("read %d games, want %d", got, n)
	}
	t.Logf("%d checkmates in %d games", mates, n)
}

// The output is a function of the seed alone, not of the workers.
func TestDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	if err := Write(&a, 3, 50, 1); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, 3, 50, 4); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("output depends on the number of workers")
	}
	var c bytes.Buffer
	if err := Write(&c, 4, 50, 1); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Fatal("two seeds made the same games")
	}
}

func TestWrap(t *testing.T) {
	for _, line := range strings.Split(Game(1, 5), "\n") {
		if len(line) > 80 {
			t.Errorf("line of %d columns: %q", len(line), line)
		}
	}
}
