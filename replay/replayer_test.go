package replay_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/record/recordtest"
	"github.com/plateau/plateau/replay"
)

// flatStep is a Step without pointers, its variations flattened.
type flatStep struct {
	Text       string
	Move       uint64
	Ply, Depth int
	Key        uint64
	Src        *record.Move
	Variations [][]flatStep
}

func flatLine(l []*replay.Step) []flatStep {
	var out []flatStep
	for _, s := range l {
		f := flatStep{Text: s.Text, Move: uint64(s.Move), Ply: s.Ply, Depth: s.Depth, Key: s.Key, Src: s.Src}
		for _, v := range s.Variations {
			f.Variations = append(f.Variations, flatLine(v))
		}
		out = append(out, f)
	}
	return out
}

// flatGame is what a replayed game says, as values.
func flatGame(g *replay.Game) string {
	final := "none"
	if g.Final != nil {
		final = fmt.Sprint(g.Final.String(), g.Final.Key())
	}
	var notes []string
	for _, n := range g.Notes {
		notes = append(notes, n.Step.Text+": "+n.Text)
	}
	start := "none"
	if g.Start != nil {
		start = fmt.Sprint(g.Start.String(), g.Start.Key())
	}
	return fmt.Sprintf("%+v|%v|%s|%s|%+v|%s|%v|%v|%+v", flatLine(g.Main), g.Err, start, final, g.Outcome, g.Result, notes, g.Assumed, g.Warnings)
}

// TestReplayerReuse replays every sample record with one Replayer, each in
// the memory of the record before, and with Replay: the games must be the
// same, with detection and without.
func TestReplayerReuse(t *testing.T) {
	files, _ := filepath.Glob("../samples/*/*.pdn")
	var recs []*record.Game
	for _, f := range files {
		if filepath.Base(filepath.Dir(f)) == "broken" {
			continue
		}
		recs = append(recs, recordtest.MustReadFile(t, f)...)
	}
	if len(recs) < 100 {
		t.Fatalf("%d sample records", len(recs))
	}
	for _, opts := range []replay.Options{{DefaultGame: "draughts"}, {DefaultGame: "draughts", Detect: true}} {
		var rp replay.Replayer
		variations := 0
		for _, rec := range recs {
			want := replay.Replay(rec, opts)
			got := rp.Replay(rec, opts)
			if g, w := flatGame(got), flatGame(want); g != w {
				t.Errorf("%s line %d: with a Replayer\n%s\nalone\n%s", rec.Pos.File, rec.Pos.Line, g, w)
			}
			for _, s := range want.Main {
				variations += len(s.Variations)
			}
		}
		if variations == 0 {
			t.Fatal("no sample has variations")
		}
	}
}
