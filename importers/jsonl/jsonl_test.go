package jsonl_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/plateau/plateau/importers/jsonl"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

const game = `{"id":1,"game":"draughts","result":"2-0","valid":true,"tags":[{"name":"Event","value":"e"}],"intro":["hi"],` +
	`"moves":[{"ply":0,"move":"32-28","written":"32-28","nags":[1],"before":["b"],"after":["a"],` +
	`"variations":[[{"ply":0,"move":"33-28","after":["v"]}]]},{"ply":1,"move":"18-23"}]}`

// TestReader: games, blank lines, a line that is no game (an error at its
// line, the next read after it), an invalid game's export refused, a line
// over the size limit.
func TestReader(t *testing.T) {
	in := game + "\n\n" + `{"id":2,"valid":false,"error":{"message":"ply 3: illegal"},"moves":[]}` + "\n" +
		"not json\n" + `{"game":"ogi","valid":true,"tags":[{"name":"Game","value":"ogi"},{"name":"Result","value":"1-0"}],"result":"1-0","moves":[]}` + "\n" +
		`{"game":"x","valid":true,"moves":[],"tags":[{"name":"Remark","value":"` + strings.Repeat("x", 500) + `"}]}`
	r := jsonl.NewReader(strings.NewReader(in), "in.jsonl")
	r.SetMaxRecord(400)
	g, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if g.Tag("Game") != "draughts" || g.Tags[0].Name != "Game" || g.Result != "2-0" || g.Pos.Line != 1 || g.Intro[0] != "hi" {
		t.Errorf("game 1: %+v", g)
	}
	m := g.Moves[0]
	if len(g.Moves) != 2 || m.Text != "32-28" || m.NAGs[0] != 1 || m.Before[0] != "b" || m.After[0] != "a" ||
		len(m.Variations) != 1 || m.Variations[0][0].Text != "33-28" || g.Moves[1].Ply != 1 {
		t.Errorf("moves: %+v", g.Moves)
	}
	var re *record.Error
	if _, err := r.Next(); !errors.As(err, &re) || !strings.Contains(re.Msg, jsonl.ErrInvalidGame.Error()) || re.Pos.Line != 3 {
		t.Errorf("invalid game: %v", err)
	}
	if _, err := r.Next(); !errors.As(err, &re) || re.Pos.Line != 4 {
		t.Errorf("not json: %v", err)
	}
	if g, err := r.Next(); err != nil || g.Tag("Game") != "ogi" || g.Result != "" || g.Pos.Line != 5 {
		t.Errorf("game 5: %v %+v", err, g)
	}
	if _, err := r.Next(); !errors.Is(err, record.ErrTooLarge) || !errors.As(err, &re) || re.Pos.Line != 6 {
		t.Errorf("long line: %v", err)
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("end: %v", err)
	}
}

// TestLooks: the JSON export is told from PDN by its first member.
func TestLooks(t *testing.T) {
	for s, want := range map[string]bool{
		game: true, "\xef\xbb\xbf\n {\"file\" :1}": true, `{"line":3}`: true, `{"game":"x"}`: true,
		`{"name":1}`: false, "{a comment} 1. 32-28": false, `{"quoted" comment}`: false, "[Game \"x\"]": false, "": false,
	} {
		if got := jsonl.Looks([]byte(s)); got != want {
			t.Errorf("Looks(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzReader: the reader never panics, fails with positioned errors, and a
// game it reads, exported again as JSON (tags, intro, moves with their
// NAGs, comments and variations), reads back the same.
func FuzzReader(f *testing.F) {
	f.Add([]byte(game + "\n"))
	f.Add([]byte(`{"valid":true,"moves":[{"move":""}]}` + "\n{}\n" + `{"valid":true,"moves":[{"move":"a","variations":[[],[{"move":"b"}]]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := jsonl.NewReader(bytes.NewReader(data), "fuzz")
		for i := 0; i < 20; i++ {
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			var re *record.Error
			if err != nil {
				if !errors.As(err, &re) || re.Pos.Line < 1 {
					t.Fatalf("error without position: %v", err)
				}
				continue
			}
			j := replay.JSONGame{Valid: true, Result: g.Result, Intro: g.Intro, Moves: jsonLine(g.Moves)}
			for _, tg := range g.Tags {
				j.Tags = append(j.Tags, replay.JSONTag{Name: tg.Name, Value: tg.Value})
			}
			b, err := json.Marshal(j)
			if err != nil {
				t.Fatal(err)
			}
			back, err := jsonl.NewReader(bytes.NewReader(b), "back").Next()
			if err != nil {
				t.Fatalf("read back: %v\n%s", err, b)
			}
			if got, want := string(record.Format(back)), string(record.Format(g)); got != want {
				t.Fatalf("read back:\n%s\nwant\n%s", got, want)
			}
		}
	})
}

func jsonLine(l record.Line) []replay.JSONMove {
	var out []replay.JSONMove
	for _, m := range l {
		jm := replay.JSONMove{Ply: m.Ply, Move: m.Text, NAGs: m.NAGs, Before: m.Before, After: m.After}
		for _, v := range m.Variations {
			jm.Variations = append(jm.Variations, jsonLine(v))
		}
		out = append(out, jm)
	}
	return out
}
