package replay_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/record/recordtest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// keyVisitor keeps the keys of the positions it is shown.
type keyVisitor struct {
	starts int
	keys   []uint64
}

func (v *keyVisitor) Start(pos rules.Position) {
	v.starts++
	v.keys = append(v.keys[:0], pos.Key())
}

func (v *keyVisitor) Played(pos rules.Position) { v.keys = append(v.keys, pos.Key()) }

// playOrder is the keys of a valid game's positions in the order they are
// played: the start, then after each move, a move's variations before it.
func playOrder(g *replay.Game) []uint64 {
	keys := []uint64{g.Start.Key()}
	var walk func([]*replay.Step)
	walk = func(l []*replay.Step) {
		for _, s := range l {
			for _, v := range s.Variations {
				walk(v)
			}
			keys = append(keys, s.Key)
		}
	}
	walk(g.Main)
	return keys
}

// TestVisitShowsPlayedPositions replays every sample record, with a
// Replayer and without, with detection and without: Options.Visit is shown
// the start once and every position played, in play order; a record that
// detection tries under several rulesets is not shown.
func TestVisitShowsPlayedPositions(t *testing.T) {
	files, _ := filepath.Glob("../samples/*/*.pdn")
	// Untagged 8×8 draughts records: detection tries them under several
	// rulesets.
	recs := []*record.Game{game("", "", "*", "11-15 23-19 8-11"), game("", "", "*", "c3-d4 f6-g5")}
	for _, f := range files {
		games, _ := recordtest.ReadFile(t, f)
		for _, g := range games {
			if g != nil {
				recs = append(recs, g)
			}
		}
	}
	for _, opts := range []replay.Options{{DefaultGame: "draughts"}, {DefaultGame: "draughts", Detect: true}} {
		var rp replay.Replayer
		shown, variations, unshown := 0, 0, 0
		for _, rec := range recs {
			for _, r := range []*replay.Replayer{&rp, nil} {
				v := &keyVisitor{}
				o := opts
				o.Visit = v
				g := r.Replay(rec, o)
				if replay.Detects(rec, opts) {
					if v.starts != 0 {
						t.Errorf("%s line %d: detection's replays shown", rec.Pos.File, rec.Pos.Line)
					}
					unshown++
					continue
				}
				if want := min(1, btoi(g.Start != nil)); v.starts != want {
					t.Errorf("%s line %d: Start called %d times, want %d", rec.Pos.File, rec.Pos.Line, v.starts, want)
				}
				if g.Err != nil || g.Start == nil {
					continue
				}
				if want := playOrder(g); !slices.Equal(v.keys, want) {
					t.Errorf("%s line %d: shown\n%x\nplayed\n%x", rec.Pos.File, rec.Pos.Line, v.keys, want)
				}
				shown++
				if slices.ContainsFunc(g.Main, func(s *replay.Step) bool { return len(s.Variations) > 0 }) {
					variations++
				}
			}
		}
		if shown < 200 || variations == 0 || opts.Detect && unshown == 0 {
			t.Errorf("detect %v: %d valid games shown, %d with variations, %d not shown", opts.Detect, shown, variations, unshown)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
