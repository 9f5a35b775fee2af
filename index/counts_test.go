package index_test

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/ingest"
)

// TestStoredCounts: the games per ruleset and validity (Info) equal a
// count of the rows after imports, a delete, and an invalid record stored
// again valid; an import stores them up to its last game, and a later
// reader adds only the games after.
func TestStoredCounts(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "db"))
	rows := func() []index.GameCount {
		var out []index.GameCount
		r, err := db.SQL().QueryContext(ctx, `SELECT game, SUM(valid), SUM(1 - valid), SUM(CASE WHEN valid THEN plies ELSE 0 END) FROM games GROUP BY game ORDER BY game`)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for r.Next() {
			var c index.GameCount
			if err := r.Scan(&c.Game, &c.Valid, &c.Invalid, &c.Plies); err != nil {
				t.Fatal(err)
			}
			out = append(out, c)
		}
		return out
	}
	check := func(when string) {
		t.Helper()
		in, err := db.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := rows(); !reflect.DeepEqual(in.Games, want) {
			t.Errorf("%s: Info %+v, rows %+v", when, in.Games, want)
		}
	}
	stored := func() string {
		var v string
		db.SQL().QueryRowContext(ctx, `SELECT v FROM meta WHERE k = 'counts'`).Scan(&v)
		return v
	}
	imp := func(o ingest.Options, files ...string) {
		t.Helper()
		if _, err := ingest.Files(ctx, db, files, o); err != nil {
			t.Fatal(err)
		}
	}
	check("empty")
	untagged := "[Event \"no game tag\"]\n\n1. Rg2-f2 Pc6-c5 *\n"
	imp(ingest.Options{},
		writeFile(t, dir, "o.pdn", genText(t, "ogi", 20, 1)),
		writeFile(t, dir, "bad.pdn", []byte("[Game \"ogi\"]\n\n1. Ke1-e5 *\n\n"+untagged)))
	check("first import")
	if s := stored(); !strings.Contains(s, `"last":22`) || !strings.Contains(s, `"Invalid":1`) {
		t.Errorf("stored after the first import: %s", s)
	}
	imp(ingest.Options{}, writeFile(t, dir, "d.pdn", genText(t, "draughts", 10, 2)))
	check("second import")
	if s := stored(); !strings.Contains(s, `"last":32`) || !strings.Contains(s, `"Game":"draughts","Valid":10`) {
		t.Errorf("stored after the second import: %s", s)
	}
	// A reader adds the games after the stored ones: stored counts made
	// wrong on purpose show through (the games up to "last" are not
	// counted again).
	if _, err := db.SQL().ExecContext(ctx, `UPDATE meta SET v = replace(v, '"Game":"draughts","Valid":10', '"Game":"draughts","Valid":11') WHERE k = 'counts'`); err != nil {
		t.Fatal(err)
	}
	in, err := db.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(in.Games, func(c index.GameCount) bool { return c.Game == "draughts" }); i < 0 || in.Games[i].Valid != 11 {
		t.Fatalf("Info does not read the stored counts: %+v", in.Games)
	}
	if _, err := db.Delete(ctx, []int64{3}, nil); err != nil {
		t.Fatal(err)
	}
	check("after a delete (counted again: the wrong stored count is gone)")
	// A record stored invalid (over the size limit of that import) is
	// stored again valid: its invalid row is deleted.
	long := writeFile(t, dir, "long.pdn", genText(t, "ogi", 1, 99))
	imp(ingest.Options{MaxRecord: 100}, long)
	check("a record over the size limit")
	imp(ingest.Options{Force: true}, long)
	check("after an invalid record was stored again valid")
	if r := rows(); len(r) != 3 || r[2].Invalid != 1 || r[2].Valid != 20 {
		t.Errorf("rows: %+v, want ? 1 invalid, draughts 10 valid, ogi 20 valid 1 invalid", r)
	}
}
