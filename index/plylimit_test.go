package index_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// shuffle returns a legal Jetan game of n plies in which one piece of each
// side goes back and forth (Jetan has no repetition rule), as record text,
// and its last position.
func shuffle(t *testing.T, n int) ([]byte, rules.Position) {
	t.Helper()
	g, err := rules.Lookup("jetan")
	if err != nil {
		t.Fatal(err)
	}
	start, err := g.NewPosition("")
	if err != nil {
		t.Fatal(err)
	}
	// back finds the legal move of p from to to.
	back := func(p rules.Position, from, to string) (rules.Move, bool) {
		for _, m := range p.Legal(nil) {
			if d := p.Describe(m); d.From == from && d.To == to && d.Captures == 0 {
				return m, true
			}
		}
		return 0, false
	}
	// A cycle of four moves: a, b, then each undone.
	var cycle []rules.Move
search:
	for _, a := range start.Legal(nil) {
		da := start.Describe(a)
		if da.Captures > 0 {
			continue
		}
		p1 := start.Clone()
		p1.Play(a)
		for _, b := range p1.Legal(nil) {
			db := p1.Describe(b)
			if db.Captures > 0 {
				continue
			}
			p2 := p1.Clone()
			p2.Play(b)
			a2, ok := back(p2, da.To, da.From)
			if !ok {
				continue
			}
			p3 := p2.Clone()
			p3.Play(a2)
			if b2, ok := back(p3, db.To, db.From); ok {
				cycle = []rules.Move{a, b, a2, b2}
				break search
			}
		}
	}
	if cycle == nil {
		t.Fatal("no back-and-forth cycle from the Jetan start")
	}
	p := start.Clone()
	rec := &record.Game{Tags: []record.Tag{{Name: "Game", Value: "jetan"}, {Name: "Event", Value: "shuffle"}}, Result: "*"}
	for ply := 0; ply < n; ply++ {
		m := cycle[ply%4]
		if o := p.Outcome(); o.Over {
			t.Fatalf("ply %d: game over (%s)", ply, o.Reason)
		}
		rec.Moves = append(rec.Moves, &record.Move{Text: p.FormatMove(m), Ply: ply})
		p.Play(m)
	}
	return record.Format(rec), p
}

// TestPlyLimit: positions are indexed up to ply 4095 (12 bits of the packed
// at column); a longer game is valid, stored whole (it was stored invalid,
// "too long to index", its error on line 0, where validate says valid),
// its positions past ply 4095 not indexed, with a warning that names the
// first ply left out and the line of its move; the games around it are
// unharmed.
func TestPlyLimit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	g4095, last := shuffle(t, 4095)
	g4096, _ := shuffle(t, 4096)
	var text []byte
	text = append(text, g4095...)
	text = append(text, g4096...)
	text = append(text, genText(t, "jetan", 3, 1)...)
	file := writeFile(t, dir, "long.pdn", text)
	db := openDB(t, dir+"/db")
	st, err := importFiles(ctx, db, []string{file}, index.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != 5 || st.Valid != 5 || st.Invalid != 0 {
		t.Fatalf("stats %+v, want 5 records, 5 valid", st)
	}
	// The line of the 4096th move, in the file.
	r := record.NewReader(bytes.NewReader(text), "long.pdn")
	r.Next()
	long, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	line := long.Moves[4095].Pos.Line
	ws, total, err := db.Warnings(ctx, index.WarnUnindexed, 0, 0)
	if err != nil || total != 1 || len(ws) != 1 {
		t.Fatalf("warnings %+v (%d, %v)", ws, total, err)
	}
	if w := ws[0]; w.ID != 2 || w.Line != line || !strings.Contains(w.Msg, "from ply 4096 on are not indexed") || !strings.Contains(w.Msg, "4095") {
		t.Errorf("warning %+v, want game 2, line %d, from ply 4096", w, line)
	}
	if text, err := db.Text(ctx, 2); err != nil || !bytes.Equal(text, g4096) {
		t.Errorf("game 2 is not stored whole: %d bytes, %v", len(text), err)
	}
	// The last position of the 4095-ply game, after ply 3 of the cycle,
	// recurs every 4 plies: it is found at plies 3, 7, … 4095.
	res, err := db.Search(ctx, index.Query{Game: "jetan", Position: last, Count: true, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	n, maxPly := 0, 0
	for _, h := range res.Hits {
		if h.ID != 1 {
			continue
		}
		if h.Ply%4 != 3 || h.Variation {
			t.Fatalf("hit %+v: not after ply 3 of a cycle", h)
		}
		n, maxPly = n+1, max(maxPly, h.Ply)
	}
	if n != 1024 || maxPly != 4095 {
		t.Errorf("game 1 holds the position %d times, last at ply %d; want 1024 times, last at 4095", n, maxPly)
	}
	// Game 2 holds it as often: its position at ply 4096 is not indexed.
	n = 0
	for _, h := range res.Hits {
		if h.ID == 2 {
			n, maxPly = n+1, max(maxPly, h.Ply)
		}
	}
	if n != 1024 || maxPly != 4095 {
		t.Errorf("game 2 holds the position %d times, last at ply %d; want 1024 times, last at 4095", n, maxPly)
	}
}
