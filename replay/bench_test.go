package replay_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/record/recordtest"
	"github.com/plateau/plateau/replay"
	_ "github.com/plateau/plateau/rules/all"
)

// readDir reads every record of a samples folder.
func readDir(b *testing.B, dir string) []*record.Game {
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdn"))
	var games []*record.Game
	for _, f := range files {
		games = append(games, recordtest.MustReadFile(b, f)...)
	}
	return games
}

// BenchmarkReplaySamples replays every sample collection: parse move +
// legality + play + key for every ply, plus the replay's own bookkeeping
// (canonical text, steps). Reports plies/s.
func BenchmarkReplaySamples(b *testing.B) {
	dirs, _ := filepath.Glob("../samples/*")
	for _, d := range dirs {
		if filepath.Base(d) == "broken" {
			continue
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		b.Run(filepath.Base(d), func(b *testing.B) {
			games := readDir(b, d)
			if len(games) == 0 {
				b.Skip("no games")
			}
			b.ReportAllocs()
			b.ResetTimer()
			plies := 0
			for i := 0; i < b.N; i++ {
				for _, rec := range games {
					g := replay.Replay(rec, replay.Options{})
					if g.Err != nil {
						b.Fatal(g.Err)
					}
					plies += g.Plies()
				}
			}
			b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
		})
	}
}
