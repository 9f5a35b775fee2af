package dames_test

import (
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

type benchGame struct {
	fen   string
	moves []string
}

// corpusGames are the main lines of the corpus's international games that
// validate, as canonical move texts and as read.
func corpusGames(b *testing.B) (games []benchGame, recs []*record.Game) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "succeed", "*.pdn"))
	if len(files) == 0 {
		b.Skip("corpus not found")
	}
	for _, path := range files {
		gs, _ := readCorpus(b, path)
		for _, g := range gs {
			if !international(g) {
				continue
			}
			joinSplitMoves(&g.Moves)
			rg := replay.Replay(g, replay.Options{DefaultGame: "draughts"})
			if rg.Err != nil {
				continue
			}
			bg := benchGame{fen: g.Tag("FEN")}
			for _, m := range g.Moves {
				bg.moves = append(bg.moves, m.Text)
			}
			games = append(games, bg)
			recs = append(recs, g)
		}
	}
	return games, recs
}

// BenchmarkReplayDraughts: parse every move text as written, play it, read
// the key, over the corpus's international games.
func BenchmarkReplayDraughts(b *testing.B) {
	games, _ := corpusGames(b)
	g, _ := rules.Lookup("draughts")
	plies := 0
	for _, bg := range games {
		plies += len(bg.moves)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var sum uint64
	for i := 0; i < b.N; i++ {
		for _, bg := range games {
			p, err := g.NewPosition(bg.fen)
			if err != nil {
				b.Fatal(err)
			}
			for _, text := range bg.moves {
				m, err := p.ParseMove(text)
				if err != nil {
					b.Fatal(err)
				}
				p.Play(m)
				sum += p.Key()
			}
		}
	}
	b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
	_ = sum
}

// BenchmarkReplayPackageDraughts: the same games through replay.Replay
// (outcome before every move, Describe, canonical FormatMove, result check).
func BenchmarkReplayPackageDraughts(b *testing.B) {
	_, recs := corpusGames(b)
	plies := 0
	for _, r := range recs {
		plies += len(r.Moves)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, r := range recs {
			if rg := replay.Replay(r, replay.Options{DefaultGame: "draughts"}); rg.Err != nil {
				b.Fatal(rg.Err)
			}
		}
	}
	b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
}

func BenchmarkPerftDraughts6(b *testing.B) {
	g, _ := rules.Lookup("draughts")
	p, _ := g.NewPosition("")
	for i := 0; i < b.N; i++ {
		rules.Perft(p, 6)
	}
}
