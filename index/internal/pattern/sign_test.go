package pattern

import (
	"bytes"
	"testing"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// TestPlaySignerAsSign plays generated Ōgi games with a PlaySigner shown
// their replay and compares with Sign on their stored moves: the same
// bytes; a ruleset whose positions have no cells (boardOnlyGame) gets no
// signature either way; a signer shown no replay says so.
func TestPlaySignerAsSign(t *testing.T) {
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, 11)
	if err != nil {
		t.Fatal(err)
	}
	var ps PlaySigner
	if sig, shown := ps.Append(nil); shown || sig != nil {
		t.Fatalf("no replay shown: %x, shown %v", sig, shown)
	}
	for _, rg := range []rules.Game{g, boardOnlyGame{g}} {
		var ref Signer // its workers are by ruleset id, which both share
		signed := 0
		for i := range 20 {
			rec, err := gen.Game(i)
			if err != nil {
				t.Fatal(err)
			}
			ps.Forget()
			var rp replay.Replayer
			// Play the record's moves under rg, showing them to ps as
			// replay.Options.Visit does.
			gm := rp.Replay(rec, replay.Options{})
			if gm.Err != nil {
				t.Fatal(gm.Err)
			}
			pos := newStart(t, rg)
			ps.Start(pos)
			show(&ps, pos, gm.Main)
			got, shown := ps.Append(nil)
			if !shown {
				t.Fatalf("%s game %d: not shown", rg.ID(), i)
			}
			want := ref.Sign(nil, rg, "", movelist.Encode(gm.Main), gm.Final.Key())
			if !bytes.Equal(got, want) {
				t.Errorf("%T game %d: signature from the replay\n%x\nby Sign\n%x", rg, i, got, want)
			}
			if len(got) > 0 {
				signed++
			}
		}
		want := 0
		if _, cells := newStart(t, rg).(rules.Cells); cells {
			want = 20
		}
		if signed != want {
			t.Errorf("%T: %d of 20 games signed, want %d", rg, signed, want)
		}
	}
	ps.Forget()
	if sig, shown := ps.Append(nil); shown || sig != nil {
		t.Errorf("after Forget: %x, shown %v", sig, shown)
	}
}

// show plays a line from pos, showing ps every position played in play
// order: a move's variations, from a copy, before it.
func show(ps *PlaySigner, pos rules.Position, l []*replay.Step) {
	for _, st := range l {
		for _, v := range st.Variations {
			show(ps, pos.Clone(), v)
		}
		pos.Play(st.Move)
		ps.Played(pos)
	}
}

// newStart is g's standard start position.
func newStart(t *testing.T, g rules.Game) rules.Position {
	p, err := g.NewPosition("")
	if err != nil {
		t.Fatal(err)
	}
	return p
}
