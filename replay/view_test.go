package replay_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/record/recordtest"
	"github.com/plateau/plateau/replay"
)

// TestCanonicalView checks that CanonicalView writes what Canonical writes
// for every sample, valid or broken, as read and once made canonical; and
// that it copies nothing of a record already canonical (moves, tags).
func TestCanonicalView(t *testing.T) {
	files, _ := filepath.Glob("../samples/*/*.pdn")
	if len(files) == 0 {
		t.Fatal("no samples")
	}
	games, shared := 0, 0
	var rp replay.Replayer // a game's view in the memory of the one before
	for _, f := range files {
		for i, rec := range recordtest.MustReadFile(t, f) {
			g := replay.Replay(rec, replay.Options{DefaultGame: "draughts"})
			want := record.Format(g.Canonical())
			if got := record.Format(g.CanonicalView()); !bytes.Equal(got, want) {
				t.Fatalf("%s game %d: CanonicalView writes\n%s\nCanonical\n%s", f, i+1, got, want)
			}
			if got := record.Format(rp.Replay(rec, replay.Options{DefaultGame: "draughts"}).CanonicalView()); !bytes.Equal(got, want) {
				t.Fatalf("%s game %d: CanonicalView of a Replayer's game writes\n%s\nCanonical\n%s", f, i+1, got, want)
			}
			games++
			if g.Err != nil {
				continue
			}
			// The canonical text read again is its own canonical form,
			// and its view shares the record's main line in a game
			// without huffs (whose plies the Reader does not know).
			canon, err := record.NewReader(bytes.NewReader(want), f).Next()
			if err != nil {
				t.Fatalf("%s game %d: %v", f, i+1, err)
			}
			g2 := replay.Replay(canon, replay.Options{DefaultGame: "draughts"})
			v := g2.CanonicalView()
			if got := record.Format(v); !bytes.Equal(got, want) {
				t.Fatalf("%s game %d: canonical text not stable:\n%s\nthen\n%s", f, i+1, want, got)
			}
			if len(v.Moves) > 0 && g2.Rules.ID() == "ogi" {
				if &v.Moves[0] != &canon.Moves[0] {
					t.Errorf("%s game %d: the view of a canonical record copied its moves", f, i+1)
				}
				if &v.Tags[0] != &canon.Tags[0] {
					t.Errorf("%s game %d: the view of a canonical record copied its tags", f, i+1)
				}
				shared++
			}
		}
	}
	if games < 20 || shared == 0 {
		t.Fatalf("%d games, %d shared: too few", games, shared)
	}
}
