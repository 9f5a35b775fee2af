package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// TestDetailJSON: a game written by hand is the bytes encoding/json
// writes, for every sample game and for text that needs escaping.
func TestDetailJSON(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "samples", "*", "*.pdn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	var details []*Detail
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := record.NewReader(bytes.NewReader(data), f)
		for {
			rec, err := r.Next()
			if rec == nil {
				break
			}
			d := NewDetail(Summarize(rec, replay.Options{DefaultGame: "draughts"}, 1, f, 1), rec, replay.Options{DefaultGame: "draughts"})
			if err != nil {
				d.Error = err.Error()
			}
			details = append(details, d)
		}
	}
	hostile := "<script>\"a\\b\"</script> & \x01\x1f\t\n\r\b\f é \u2028\u2029 \xff\xfe end"
	text := "[Game \"ogi\"]\n[Event \"" + "<b>&</b>" + "\"]\n[Result \"*\"]\n\n{intro} 1. Rg2-f2 $1 {after} (1. Pe3-e4 $18 {v}) Pc6-c5 *\n"
	rec, _ := record.NewReader(bytes.NewReader([]byte(text)), "x").Next()
	d := NewDetail(Summarize(rec, replay.Options{}, 2, "x", 1), rec, replay.Options{})
	d.Nodes[1].After = append(d.Nodes[1].After, hostile)
	d.Nodes[1].Note, d.Nodes[1].Over, d.Rest, d.Notes = hostile, hostile, []string{hostile}, []string{"n"}
	d.Nodes[0].Pieces = append(d.Nodes[0].Pieces, Placement{Kind: hostile, Promoted: true, Count: 3})
	details = append(details, d, &Detail{}, &Detail{Nodes: []Node{{Parent: -1}}})
	compared := 0
	for _, d := range details {
		want, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.appendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Fatalf("%s game %d: differs at byte %d:\n got %.200s\nwant %.200s", d.File, d.Index, i, got[max(0, i-40):], want[max(0, i-40):])
		}
		compared++
	}
	if compared < 20 {
		t.Errorf("%d games compared", compared)
	}
}

// TestPiecesAreBoard: the pieces of every position of every sample game
// are those of its rules' Board (read from cells where the position has
// them), hands included.
func TestPiecesAreBoard(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "samples", "*", "*.pdn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	nodes, hands := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := record.NewReader(bytes.NewReader(data), f)
		for {
			rec, _ := r.Next()
			if rec == nil {
				break
			}
			g := replay.Replay(rec, replay.Options{DefaultGame: "draughts"})
			if g.Rules == nil || g.Start == nil {
				continue
			}
			d := DetailOf(rec, replay.Options{DefaultGame: "draughts"}, 1, f, 1)
			for _, n := range d.Nodes {
				pos, err := g.Rules.NewPosition(n.FEN)
				if err != nil {
					t.Fatalf("%s: %s: %v", f, n.FEN, err)
				}
				var want, got []string
				for _, pl := range pos.Board() {
					want = append(want, fmt.Sprint(pl.Square, pl.Side, string(rune(pl.Kind)), pl.Promoted, pl.Count))
				}
				for _, pl := range n.Pieces {
					got = append(got, fmt.Sprint(pl.Square, pl.Side, pl.Kind, pl.Promoted, pl.Count))
					if pl.Square == "" {
						hands++
					}
				}
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%s, %s: pieces %v, want %v", f, n.FEN, got, want)
				}
				nodes++
			}
		}
	}
	if nodes < 1000 || hands == 0 {
		t.Errorf("%d positions, %d pieces in hand compared", nodes, hands)
	}
}
