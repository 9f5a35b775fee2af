package browse_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/importers/jsonl"
	"github.com/plateau/plateau/importers/sgf"
	"github.com/plateau/plateau/internal/annotated"
	"github.com/plateau/plateau/internal/pdn3check"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

// pageRecord is g as the page sends it when it saves: tags, intro, moves
// with their NAGs (as the page writes them), comments and variations.
func pageRecord(g *record.Game) web.RecordJSON {
	r := web.RecordJSON{Intro: g.Intro, Moves: pageMoves(g.Moves)}
	for _, t := range g.Tags {
		r.Tags = append(r.Tags, [2]string{t.Name, t.Value})
	}
	return r
}

func pageMoves(l record.Line) []web.MoveJSON {
	var out []web.MoveJSON
	for _, m := range l {
		var nags []string
		for _, n := range m.NAGs {
			nags = append(nags, "$"+strconv.Itoa(n))
		}
		pm := web.MoveJSON{Move: m.Text, NAGs: strings.Join(nags, " "), Before: m.Before, After: m.After}
		for _, v := range m.Variations {
			pm.Vars = append(pm.Vars, pageMoves(v))
		}
		out = append(out, pm)
	}
	return out
}

// canonicalText is the canonical form of a valid record.
func canonicalText(t *testing.T, rec *record.Game) string {
	t.Helper()
	g := replay.Replay(rec, replay.Options{})
	if g.Err != nil || len(g.Warnings) > 0 {
		t.Fatalf("read back: %v %v", g.Err, g.Warnings)
	}
	return string(record.Format(g.Canonical()))
}

// TestBrowserRoundTrip (issue #43): a game of every ruleset annotated as
// the page sends it (comments before and after moves, NAGs, nested
// variations, tags with quotes and backslashes), saved, downloaded as PDN
// (PDN 3.0) and exported as SGF and JSON, reads back from each as the game
// sent: tags, moves, comments, NAGs, variations, result.
func TestBrowserRoundTrip(t *testing.T) {
	s := newEditServer(t, web.EditOptions{Enabled: true, Token: editToken})
	for _, rg := range rules.Games() {
		t.Run(rg.ID(), func(t *testing.T) {
			g, err := annotated.Game(rg.ID())
			if err != nil {
				t.Fatal(err)
			}
			want := canonicalText(t, g)
			code, b := s.do("POST", "/api/games", map[string]any{"record": pageRecord(g)}, web.TokenHeader, editToken)
			var added []web.AddedGame
			if code != http.StatusOK || json.Unmarshal(b, &added) != nil || len(added) != 1 || !added[0].Valid {
				t.Fatalf("save: %d %s", code, b)
			}
			code, pdn := s.do("GET", "/api/games/"+strconv.Itoa(added[0].N)+"/record?download=1", nil)
			if code != http.StatusOK {
				t.Fatalf("download: %d %s", code, pdn)
			}
			if err := pdn3check.Check(pdn); err != nil {
				t.Fatalf("download is not PDN 3.0: %v\n%s", err, pdn)
			}
			rec, err := record.NewReader(bytes.NewReader(pdn), "download.pdn").Next()
			if err != nil {
				t.Fatal(err)
			}
			if got := canonicalText(t, rec); got != want {
				t.Fatalf("PDN read back:\n%s\nwant\n%s", got, want)
			}
			stored, err := s.db.Text(context.Background(), int64(added[0].N))
			if err != nil || string(stored) != want {
				t.Errorf("stored (%v):\n%s\nwant\n%s", err, stored, want)
			}
			sgfBack, err := sgf.ReadAll(bytes.NewReader(sgf.Append(nil, rec)), "export.sgf")
			if err != nil || len(sgfBack) != 1 {
				t.Fatalf("SGF read back: %v", err)
			}
			if got := canonicalText(t, sgfBack[0]); got != want {
				t.Errorf("SGF read back:\n%s\nwant\n%s", got, want)
			}
			line, err := json.Marshal(replay.Replay(rec, replay.Options{}).JSON())
			if err != nil {
				t.Fatal(err)
			}
			jsonBack, err := jsonl.NewReader(bytes.NewReader(line), "export.jsonl").Next()
			if err != nil {
				t.Fatal(err)
			}
			if got := canonicalText(t, jsonBack); got != want {
				t.Errorf("JSON read back:\n%s\nwant\n%s", got, want)
			}
		})
	}
}
