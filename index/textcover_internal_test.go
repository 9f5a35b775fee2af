package index

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestPartialTextIndex: a text index that holds part of the games (left
// by a reindex killed after its first batch, its high-water mark at game
// 100 of 300) or none (its files lost, the mark saying all) is said so by
// TextCoverage on a read-only handle, which answers text queries from what
// the index holds; the next import tells Notice and completes it (it said
// nothing, and left a lost index empty for good); a reindex tells that it
// rebuilds one.
func TestPartialTextIndex(t *testing.T) {
	ctx := context.Background()
	db, file := importedDB(t, 300, ImportOptions{})
	dir := db.Dir()
	killedReindex := func() {
		if _, err := db.Reindex(ctx); err != nil {
			t.Fatal(err)
		}
		var gone []int64
		for id := int64(101); id <= 300; id++ {
			gone = append(gone, id)
		}
		if err := db.text.Update(gone, nil); err != nil {
			t.Fatal(err)
		}
		if err := setMeta(ctx, db.sql, "text_hw", 100); err != nil {
			t.Fatal(err)
		}
	}
	lost := func() {
		if err := db.text.Remove(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name    string
		damage  func()
		indexed int
		next    func(*DB) error // the next writing command
		says    []string        // what it tells Notice
	}{
		{"reindex killed, import", killedReindex, 100, importAgain(file),
			[]string{"the text index holds 100 of 300 valid games (an import or a reindex did not finish); indexing the 200 games after #100"}},
		{"files lost, import", lost, 0, importAgain(file),
			[]string{"the text index holds 0 of 300 valid games; rebuilding it from the SQLite store", "text index rebuilt: 300 games indexed"}},
		{"reindex killed, reindex", killedReindex, 100, func(w *DB) error { _, err := w.Reindex(ctx); return err },
			[]string{"the text index holds 100 of 300 valid games; rebuilding it"}},
	} {
		c.damage()
		ro, err := Open(ctx, dir, Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		cov, err := ro.TextCoverage(ctx)
		if err != nil || cov != (TextCoverage{Valid: 300, Indexed: c.indexed}) || !cov.Partial() {
			t.Errorf("%s: coverage %+v, %v", c.name, cov, err)
		}
		ids, err := ro.TextSearch(ctx, "*", 1000)
		if (err != nil && !(c.indexed == 0 && errors.Is(err, ErrNotFound))) || len(ids) != c.indexed {
			t.Errorf("%s: a text query answers %d games, %v", c.name, len(ids), err)
		}
		ro.Close()

		var notes []string
		w, err := Open(ctx, dir, Options{Notice: func(m string) { notes = append(notes, m) }})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.next(w); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, s := range c.says {
			if !strings.Contains(strings.Join(notes, "\n"), s) {
				t.Errorf("%s: notices %q, want %q", c.name, notes, s)
			}
		}
		cov, err = w.TextCoverage(ctx)
		ids, serr := w.TextSearch(ctx, "*", 1000)
		if err != nil || serr != nil || cov.Partial() || len(ids) != 300 {
			t.Errorf("%s, then: coverage %+v %v, text query %d games %v", c.name, cov, err, len(ids), serr)
		}
		w.Close()
	}
}

// importAgain imports file into a database once more.
func importAgain(file string) func(*DB) error {
	return func(w *DB) error {
		_, err := importFiles(context.Background(), w, []string{file}, ImportOptions{})
		return err
	}
}
