package textindex

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// gameDoc is the document of a record (read with err) as the database's
// import makes it (the fields of the replayed game, its comments), with
// id; false for a record that is not a valid game.
func gameDoc(id int64, rec *record.Game, err error) (Doc, bool) {
	if rec == nil || err != nil {
		return Doc{}, false
	}
	g := replay.Replay(rec, replay.Options{})
	if g.Err != nil || g.Rules == nil {
		return Doc{}, false
	}
	sides := g.Rules.Sides()
	var cb strings.Builder
	for _, c := range rec.Intro {
		cb.WriteString(c)
		cb.WriteByte(' ')
	}
	comments(&cb, rec.Moves)
	return Doc{ID: id, Game: g.Rules.ID(), Result: g.CanonicalView().Tag("Result"), Date: rec.Tag("Date"),
		Players: strings.TrimSpace(strings.TrimSpace(rec.Tag(sides[0])) + " ; " + strings.TrimSpace(rec.Tag(sides[1]))),
		Event:   rec.Tag("Event"), Site: rec.Tag("Site"), Annotator: rec.Tag("Annotator"),
		Comments: record.Clip(cb.String(), 32<<10)}, true
}

// comments writes the comments of a line and its variations, each followed
// by a space.
func comments(b *strings.Builder, l record.Line) {
	for _, m := range l {
		for _, c := range m.Before {
			b.WriteString(c + " ")
		}
		for _, c := range m.After {
			b.WriteString(c + " ")
		}
		for _, v := range m.Variations {
			comments(b, v)
		}
	}
}

// dirSize is the size of the files under path.
func dirSize(path string) int64 {
	var n int64
	filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// testDocBuilder is the index's mapping and a docBuilder of it.
func testDocBuilder(tb testing.TB) (mapping.IndexMapping, *docBuilder) {
	tb.Helper()
	m, err := indexMapping()
	if err != nil {
		tb.Fatal(err)
	}
	bd, err := newDocBuilder(m)
	if err != nil {
		tb.Fatal(err)
	}
	return m, bd
}
