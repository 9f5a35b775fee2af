package ogi

import (
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/rules"
)

type benchGame struct {
	fen   string
	texts []string
}

// loadBenchGames reads the main lines of the sample games.
func loadBenchGames(b *testing.B) []benchGame {
	files, _ := filepath.Glob(filepath.Join(samplesDir, "*.pdn"))
	var out []benchGame
	for _, f := range files {
		for _, g := range readGames(&testing.T{}, f) {
			bg := benchGame{fen: g.Tag("FEN")}
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

// BenchmarkReplay is replay-validation work on the Ōgi samples: for every
// move text of every game, parse it (legality included), play it and read the
// key. Reports plies/s on one core.
func BenchmarkReplay(b *testing.B) {
	games := loadBenchGames(b)
	starts := make([]*Position, len(games))
	for i, g := range games {
		p, err := Parse(g.fen)
		if err != nil {
			b.Fatal(err)
		}
		starts[i] = p
	}
	b.ReportAllocs()
	plies := 0
	var sink uint64
	for b.Loop() {
		for i, g := range games {
			p := *starts[i]
			p.hist = make([]histEntry, 0, 256)
			for _, s := range g.texts {
				m, err := p.ParseMove(s)
				if err != nil {
					break // a closing illegal move
				}
				p.Play(m)
				sink ^= p.Key()
				plies++
			}
		}
	}
	_ = sink
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
}

// BenchmarkReplayOutcome adds what the replay package also asks at every
// ply: Outcome before the move and Describe and FormatMove after parsing.
func BenchmarkReplayOutcome(b *testing.B) {
	games := loadBenchGames(b)
	b.ReportAllocs()
	plies := 0
	for b.Loop() {
		for _, g := range games {
			p, _ := Parse(g.fen)
			for _, s := range g.texts {
				if p.Outcome().Over {
					break
				}
				m, err := p.ParseMove(s)
				if err != nil {
					break
				}
				_ = p.Describe(m)
				_ = p.FormatMove(m)
				p.Play(m)
				_ = p.Key()
				plies++
			}
		}
	}
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
}

func BenchmarkLegal(b *testing.B) {
	p := mustParse(b, "4k3/8/8/3p4/8/8/8/4K3 b SNL+Prbnl+s 1")
	buf := make([]rules.Move, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.Legal(buf[:0])
	}
}
