package index_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/internal/longtest"
)

// TestDiskFull imports into a small tmpfs until it is full: the error says
// "no space left on device" and names a file of the database (it said
// "interrupted"); once the file system is grown, the next import completes
// the database, text index included, with integrity intact. Needs root.
func TestDiskFull(t *testing.T) {
	longtest.Skip(t)
	const n = 2000
	ctx := context.Background()
	src := t.TempDir()
	file := writeFile(t, src, "g.pdn", genText(t, "draughts", n, 21))
	for _, size := range []string{"1m", "5100k"} { // SQLite full; the text index full (layout 6, no _all: 4900k fills SQLite, 5300k holds all)
		mnt := tmpfs(t, size)
		dbDir := filepath.Join(mnt, "db")
		db, err := index.Open(ctx, dbDir, index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = importFiles(ctx, db, []string{file}, index.ImportOptions{})
		t.Logf("%s: %v", size, err)
		if err == nil {
			t.Fatalf("%s tmpfs: the import of %d games did not fill it", size, n)
		}
		msg := err.Error()
		if errors.Is(err, context.Canceled) || !strings.Contains(msg, "no space left on device") || !strings.Contains(msg, dbDir) {
			t.Errorf("%s tmpfs: %v", size, err)
		}
		remount(t, mnt, "size=64m")
		var notices []string
		db.Close()
		db, err = index.Open(ctx, dbDir, index.Options{Notice: func(s string) { notices = append(notices, s) }})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ingest.Files(ctx, db, []string{file}, ingest.Options{Force: true}); err != nil {
			t.Fatalf("%s: import after the disk was grown: %v", size, err)
		}
		checkComplete(t, db, n)
		t.Logf("%s: notices %q", size, notices)
		db.Close()
	}
}

func checkComplete(t *testing.T, db *index.DB, n int) {
	t.Helper()
	ctx := context.Background()
	var ok string
	if err := db.SQL().QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity: %s %v", ok, err)
	}
	var games int
	db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&games)
	ids, err := db.TextSearch(ctx, "game:draughts", 10*n)
	if games != n || err != nil || len(ids) != n {
		t.Fatalf("%d games stored, %d in the text index (%v), want %d", games, len(ids), err, n)
	}
}

// TestDamagedTextIndex damages the text index's files in several ways: a
// query says the index is damaged (not "busy"), and the next import
// rebuilds it from SQLite by itself and says so.
func TestDamagedTextIndex(t *testing.T) {
	longtest.Skip(t)
	const n = 300
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		damage func(t *testing.T, text string)
	}{
		{"metadata corrupt", func(t *testing.T, text string) {
			writeFile(t, text, "index_meta.json", []byte(`{"storage":`))
		}},
		{"metadata lost", func(t *testing.T, text string) {
			if err := os.Remove(filepath.Join(text, "index_meta.json")); err != nil {
				t.Fatal(err)
			}
		}},
		{"root.bolt garbage", func(t *testing.T, text string) {
			p := filepath.Join(text, "store", "root.bolt")
			if err := os.WriteFile(p, []byte(strings.Repeat("\xff", 8192)), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"a file instead of the folder", func(t *testing.T, text string) {
			if err := os.RemoveAll(text); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(text, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dbDir, file := newImported(t, t.TempDir(), n)
			text := filepath.Join(dbDir, "text.bleve")
			c.damage(t, text)
			ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			_, err = ro.TextSearch(ctx, "game:draughts", 10)
			ro.Close()
			if !errors.Is(err, index.ErrTextBroken) || errors.Is(err, index.ErrTextBusy) || !strings.Contains(err.Error(), text) {
				t.Errorf("query of a damaged text index: %v", err)
			}
			var notices []string
			db, err := index.Open(ctx, dbDir, index.Options{Notice: func(s string) { notices = append(notices, s) }})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
				t.Fatalf("import over a damaged text index: %v", err)
			}
			checkComplete(t, db, n)
			if len(notices) != 2 || !strings.Contains(notices[0], "damaged") || !strings.Contains(notices[1], "rebuilt") {
				t.Errorf("notices: %q", notices)
			}
		})
	}
}

// TestErrorMessages: each failure says what happened, naming its file or
// its input.
func TestErrorMessages(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notdb")
	if err := os.MkdirAll(notDB, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, notDB, "plateau.sqlite", []byte(strings.Repeat("not a database\n", 500)))
	openErr := func(opts index.Options) error {
		db, err := index.Open(ctx, notDB, opts)
		if err == nil {
			db.Close()
		}
		return err
	}
	dbDir, _ := newImported(t, dir, 20)
	db, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	textErr := func(q string) error { _, err := db.TextSearch(ctx, q, 10); return err }
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	for _, c := range []struct {
		name string
		err  error
		is   error
		want []string
		not  []string
	}{
		{"not a database, query", openErr(index.Options{ReadOnly: true}), nil,
			[]string{filepath.Join(notDB, "plateau.sqlite"), "not a database"}, nil},
		{"not a database, import", openErr(index.Options{}), nil,
			[]string{filepath.Join(notDB, "plateau.sqlite"), "not a database"}, nil},
		{"no database", openErr2(ctx, filepath.Join(dir, "none")), index.ErrNotFound,
			[]string{filepath.Join(dir, "none")}, nil},
		{"--fen xx", posErr("draughts", "xx"), index.ErrQuery,
			[]string{`"xx"`, "neither a position", "nor moves from the start", "move 1"}, []string{"<nil>"}},
		{"bad second move", posErr("draughts", "32-28 99-1"), index.ErrQuery,
			[]string{"move 2", `"99-1"`}, []string{"<nil>"}},
		{"text too long", textErr(strings.Repeat("a", index.MaxTextQuery+1)), index.ErrQuery,
			[]string{"bytes", "at most 1024"}, nil},
		{"too many words", textErr(strings.Repeat("a ", index.MaxTextTerms+1)), index.ErrQuery,
			[]string{"33 words", "at most 32"}, nil},
		{"too many wildcards", textErr("*a* b~2 c? /d.*/ e*"), index.ErrQuery,
			[]string{"5 wildcard, fuzzy or regular-expression words", "at most 4"}, nil},
		{"text syntax", textErr(`players:"unclosed`), index.ErrQuery, []string{"unclosed"}, nil},
		{"text canceled", func() error { _, err := db.TextSearch(canceled, "game:draughts", 10); return err }(), context.Canceled,
			nil, []string{"bad query"}},
	} {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if c.is != nil && !errors.Is(c.err, c.is) {
			t.Errorf("%s: %v is not %v", c.name, c.err, c.is)
		}
		for _, w := range c.want {
			if !strings.Contains(c.err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, c.err, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(c.err.Error(), w) {
				t.Errorf("%s: %q says %q", c.name, c.err, w)
			}
		}
	}
}

func openErr2(ctx context.Context, dir string) error {
	db, err := index.Open(ctx, dir, index.Options{ReadOnly: true})
	if err == nil {
		db.Close()
	}
	return err
}

func posErr(game, text string) error {
	_, err := index.Position(game, text)
	return err
}

// TestInfoErrors: Info fails when a count fails, instead of returning
// partial counts.
func TestInfoErrors(t *testing.T) {
	dbDir, _ := newImported(t, t.TempDir(), 20)
	db := openDB(t, dbDir)
	ctx := context.Background()
	if in, err := db.Info(ctx); err != nil || in.Players == 0 || in.Sources != 1 {
		t.Fatalf("info: %+v %v", in, err)
	}
	if _, err := db.SQL().ExecContext(ctx, `DROP TABLE players`); err != nil {
		t.Fatal(err)
	}
	if in, err := db.Info(ctx); err == nil {
		t.Errorf("info without a players table: no error, %+v", in)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if in, err := db.Info(canceled); err == nil || len(in.Games) > 0 {
		t.Errorf("info with a canceled context: %+v %v", in, err)
	}
}
