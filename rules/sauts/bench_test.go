package sauts_test

import (
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/sauts"
)

type benchGame struct {
	start *sauts.Position
	texts []string
}

func loadBenchGames(b *testing.B) []benchGame {
	files, _ := filepath.Glob(filepath.Join(samplesDir, "*.pdn"))
	var out []benchGame
	for _, f := range files {
		for _, g := range readGames(b, f) {
			bg := benchGame{start: mustPos(b, g.Tag("FEN"))}
			for _, m := range g.Moves {
				bg.texts = append(bg.texts, m.Text)
			}
			out = append(out, bg)
		}
	}
	if len(out) == 0 {
		b.Fatal("no sample games")
	}
	return out
}

// BenchmarkReplay is replay-validation work on the Sauts samples: for every
// move text of every game's main line, parse it (legality included), play it
// and read the key. Reports plies/s on one core.
func BenchmarkReplay(b *testing.B) {
	games := loadBenchGames(b)
	b.ReportAllocs()
	plies := 0
	var sink uint64
	for b.Loop() {
		for _, g := range games {
			p := *g.start
			for _, s := range g.texts {
				m, err := p.ParseMove(s)
				if err != nil {
					b.Fatalf("%s: %v", s, err)
				}
				p.Play(m)
				sink ^= p.Key()
				plies++
			}
		}
	}
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
	_ = sink
}

// BenchmarkPerft4 is move generation from the start (5,044,272 leaves).
func BenchmarkPerft4(b *testing.B) {
	p := mustPos(b, "")
	for b.Loop() {
		rules.Perft(p, 4)
	}
}

// BenchmarkLegalStart is one full move generation from the start.
func BenchmarkLegalStart(b *testing.B) {
	p := mustPos(b, "")
	buf := make([]rules.Move, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.Legal(buf[:0])
	}
}
