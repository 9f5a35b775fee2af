package jetan

import (
	"math/rand/v2"
	"testing"

	"github.com/plateau/plateau/rules"
)

// randomGame plays a seeded random game from the start and returns its
// moves in canonical text.
func randomGame(seed uint64, maxPlies int) []string {
	rng := rand.New(rand.NewPCG(seed, seed))
	p, _ := Parse("")
	var out []string
	for len(out) < maxPlies && !p.Outcome().Over {
		moves := p.Legal(nil)
		m := moves[rng.IntN(len(moves))]
		out = append(out, p.FormatMove(m))
		p.Play(m)
	}
	return out
}

// BenchmarkReplay measures replay validation: parse each move text in its
// position, play it and read the key, over a set of random games.
func BenchmarkReplay(b *testing.B) {
	var games [][]string
	plies := 0
	for seed := range uint64(20) {
		g := randomGame(seed, 300)
		games = append(games, g)
		plies += len(g)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var sink uint64
	for b.Loop() {
		for _, g := range games {
			p, _ := Parse("")
			for _, text := range g {
				m, err := p.ParseMove(text)
				if err != nil {
					b.Fatal(err)
				}
				p.Play(m)
				sink ^= p.Key()
			}
		}
	}
	b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
	_ = sink
}

func BenchmarkLegal(b *testing.B) {
	p, _ := Parse("")
	b.ReportAllocs()
	buf := make([]rules.Move, 0, 256)
	for b.Loop() {
		buf = p.Legal(buf[:0])
	}
}

func BenchmarkPerft3(b *testing.B) {
	p, _ := Parse("")
	for b.Loop() {
		perftFast(p, 3)
	}
}

// perftFast is perft with a reused buffer and value copies (no interface).
func perftFast(p *Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := p.Legal(make([]rules.Move, 0, 128))
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := *p
		c.Play(m)
		n += perftFast(&c, depth-1)
	}
	return n
}
