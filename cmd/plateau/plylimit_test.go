package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// longJetan is a legal Jetan game of n plies (Jetan has no repetition
// rule): the first two pieces that can step forth and back do so, as
// record text.
func longJetan(t *testing.T, n int) []byte {
	t.Helper()
	g, err := rules.Lookup("jetan")
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.NewPosition("")
	if err != nil {
		t.Fatal(err)
	}
	// quiet returns a move of p that captures nothing and whose reverse is
	// legal after it, and that reverse.
	quiet := func(p rules.Position) (rules.Move, rules.Move) {
		for _, m := range p.Legal(nil) {
			d := p.Describe(m)
			if d.Captures > 0 {
				continue
			}
			q := p.Clone()
			q.Play(m)
			for _, r := range q.Legal(nil) {
				q2 := q.Clone()
				q2.Play(r)
				for _, back := range q2.Legal(nil) {
					if db := q2.Describe(back); db.From == d.To && db.To == d.From && db.Captures == 0 {
						return m, back
					}
				}
			}
		}
		t.Fatal("no quiet move")
		return 0, 0
	}
	a, aBack := quiet(p)
	q := p.Clone()
	q.Play(a)
	b, bBack := quiet(q)
	cycle := []rules.Move{a, b, aBack, bBack}
	rec := &record.Game{Tags: []record.Tag{{Name: "Game", Value: "jetan"}, {Name: "Event", Value: "long"}}, Result: "*"}
	for ply := range n {
		m := cycle[ply%4]
		rec.Moves = append(rec.Moves, &record.Move{Text: p.FormatMove(m), Ply: ply})
		p.Play(m)
	}
	return record.Format(rec)
}

// TestLongGameOneVerdict: validate and import give a game longer than the
// position index's ply limit one verdict: valid, with the same warning
// (the first ply not indexed) on the same line, the line of that move
// (import stored it invalid, "too long to index", its error on line 0,
// where validate said valid).
func TestLongGameOneVerdict(t *testing.T) {
	dir := t.TempDir()
	const plies = index.MaxPly + 10
	text := longJetan(t, plies)
	file := filepath.Join(dir, "long.pdn")
	if err := os.WriteFile(file, text, 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := record.NewReader(strings.NewReader(string(text)), file).Next()
	if err != nil {
		t.Fatal(err)
	}
	line := rec.Moves[index.MaxPly].Pos.Line
	said := fmt.Sprintf("warning: unindexed: the positions from ply %d on are not indexed", index.MaxPly+1)

	out, _, status := plateau(t, "validate", "--warnings", file)
	if status != exitOK || !strings.Contains(out, fmt.Sprintf("%s:%d: game 1: %s", file, line, said)) || !strings.Contains(out, "1 games, 1 valid") {
		t.Errorf("validate: status %d\n%s", status, out)
	}
	db := filepath.Join(dir, "db")
	out = mustRun(t, "import", "--db", db, file)
	if !strings.Contains(out, "1 valid, 0 invalid") {
		t.Errorf("import: %s", out)
	}
	out = mustRun(t, "errors", "--db", db, "--warnings")
	if !strings.Contains(out, fmt.Sprintf("#1 %s:%d: jetan: %s", file, line, said)) {
		t.Errorf("errors --warnings, want line %d:\n%s", line, out)
	}
}
