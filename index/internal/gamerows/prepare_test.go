package gamerows

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"

	_ "github.com/plateau/plateau/rules/all"
)

// TestPreparePositionsSized checks that prepare counts the positions of a
// game before collecting them: the rows take one allocation of the right
// size (the prepared chunk's weight counts their capacity).
func TestPreparePositionsSized(t *testing.T) {
	files, _ := filepath.Glob("../../../samples/*/*.pdn")
	p := NewPreparer(Options{Replay: replay.Options{DefaultGame: "draughts"}})
	valid, branching := 0, 0
	for _, f := range files {
		if filepath.Base(filepath.Dir(f)) == "broken" {
			continue
		}
		src, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		r := record.NewReader(src, f)
		for {
			g, err := r.Next()
			if err != nil {
				break
			}
			out := p.Prepare(Record{Game: g, File: f})
			if !out.Valid {
				continue
			}
			valid++
			if len(out.Pos) > out.Plies+1 {
				branching++
			}
			if cap(out.Pos) != len(out.Pos) {
				t.Errorf("%s line %d: %d positions in room for %d", f, g.Pos.Line, len(out.Pos), cap(out.Pos))
			}
		}
		src.Close()
	}
	if valid == 0 || branching == 0 {
		t.Fatalf("%d valid games, %d with variations: the samples should have both", valid, branching)
	}
}
