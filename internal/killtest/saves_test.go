package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// TestCheckSavesFindsAMix: the check of a save kill passes a database of
// whole revisions and fails one where a game's rows are not its record's
// (its plies, its positions), or whose record is no revision the stream
// made.
func TestCheckSavesFindsAMix(t *testing.T) {
	ctx := context.Background()
	work := t.TempDir()
	g, _ := rules.Lookup("draughts")
	gen, err := generate.New(g, 5)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(ctx, &b, 12, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(work, "g.pdn")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(work, "db")
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ingest.Files(ctx, db, []string{file}, ingest.Options{})
	if err := errorsJoin(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	if err := saveStream(ctx, dir, 0, 2*saveGames+3); err != nil {
		t.Fatal(err)
	}
	ref, err := openReference(ctx, filepath.Join(work, "ref"))
	if err != nil {
		t.Fatal(err)
	}
	defer ref.close()
	saved, err := checkSaves(ctx, dir, ref, 12)
	if err != nil || saved != saveGames {
		t.Fatalf("whole revisions: %d saved, %v", saved, err)
	}
	// Each fault on a copy of the database of whole revisions.
	saveWith := func(s int) func(d *index.DB) error {
		return func(d *index.DB) error {
			first, err := d.Revision(ctx, 4, 1)
			if err != nil {
				return err
			}
			text, err := revisionText(first, s)
			if err != nil {
				return err
			}
			n, _, err := d.CurrentRevision(ctx, 4)
			if err != nil {
				return err
			}
			_, err = d.SaveRecord(ctx, 4, text, n)
			return err
		}
	}
	for i, tc := range []struct {
		sql  string
		save func(*index.DB) error
		want string
	}{
		{sql: `UPDATE games SET plies = plies + 1 WHERE id = 2`, want: "game #2: valid true"},
		{sql: `UPDATE games SET valid = 0 WHERE id = 3`, want: "the opening tree counts"},
		{save: saveWith(5), want: "game #4: revision"}, // another game's save
		{save: saveWith(3 + saveGames), want: ""},      // a save of game 4: whole
	} {
		copyDir := filepath.Join(work, "fault"+strconv.Itoa(i))
		if err := os.CopyFS(copyDir, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
		if tc.sql != "" {
			rw, err := sql.Open("sqlite3", "file:"+filepath.Join(copyDir, "plateau.sqlite"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = rw.Exec(tc.sql)
			rw.Close()
			if err != nil {
				t.Fatal(err)
			}
		} else {
			d, err := index.Open(ctx, copyDir, index.Options{})
			if err != nil {
				t.Fatal(err)
			}
			err = errorsJoin(tc.save(d), d.Close())
			if err != nil {
				t.Fatal(err)
			}
		}
		_, err := checkSaves(ctx, copyDir, ref, 12)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("fault %d: %v, want an error with %q", i, err, tc.want)
		}
	}
}
