package dejarik_test

import (
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/dejarik"
)

// BenchmarkReplay is replay-validation work: for every sample game, parse
// each move text in its position, play it and take the key. It reports
// plies/s.
func BenchmarkReplay(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(samplesDir, "*.pdn"))
	type game struct {
		fen   string
		moves []string
	}
	var games []game
	plies := 0
	for _, f := range files {
		for _, rec := range readAll(b, f) {
			g := game{fen: rec.Tag("FEN")}
			for _, m := range rec.Moves {
				g.moves = append(g.moves, m.Text)
			}
			plies += len(g.moves)
			games = append(games, g)
		}
	}
	if plies == 0 {
		b.Skip("no samples")
	}
	b.ReportAllocs()
	b.ResetTimer()
	var sink uint64
	for b.Loop() {
		for _, g := range games {
			p, err := dejarik.Game.NewPosition(g.fen)
			if err != nil {
				b.Fatal(err)
			}
			for _, s := range g.moves {
				p.Outcome()
				m, err := p.ParseMove(s)
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

// BenchmarkPerft5 is move generation from the start, depth 5.
func BenchmarkPerft5(b *testing.B) {
	p, _ := dejarik.Game.NewPosition("")
	b.ReportAllocs()
	for b.Loop() {
		rules.Perft(p, 5)
	}
}
