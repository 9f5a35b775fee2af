package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// TestPartialTextIndexSaid: a text index that holds part of the games (an
// older copy of it restored: 100 of 300 valid games, its high-water mark
// saying all) is said so by info, by search --text (a warning line) and
// by the server (a notice in a text query's page and in /api/status); the
// next import says it rebuilds it, and then nobody warns. Each answered
// from the partial index without a word before.
func TestPartialTextIndexSaid(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, genFile(t, dir, "draughts", 100))
	old := filepath.Join(dir, "old.bleve")
	if err := os.CopyFS(old, os.DirFS(filepath.Join(db, "text.bleve"))); err != nil {
		t.Fatal(err)
	}
	dejarik := genFile(t, dir, "dejarik", 200)
	mustRun(t, "import", "--db", db, dejarik)
	if err := os.RemoveAll(filepath.Join(db, "text.bleve")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(old, filepath.Join(db, "text.bleve")); err != nil {
		t.Fatal(err)
	}
	const said = "the text index holds 100 of 300 valid games"

	if out := mustRun(t, "info", "--db", db); !strings.Contains(out, "warning: "+said) {
		t.Errorf("info:\n%s", out)
	}
	out, errOut, status := plateau(t, "search", "--db", db, "--text", "*", "--format", "ids", "--limit", "-1")
	if status != exitOK || len(strings.Fields(out)) != 100 || !strings.Contains(errOut, "plateau: warning: "+said+": the text query may miss games") {
		t.Errorf("search --text: status %d, %d games, stderr %q", status, len(strings.Fields(out)), errOut)
	}
	if _, errOut, _ := plateau(t, "search", "--db", db, "--player", "x"); strings.Contains(errOut, "warning") {
		t.Errorf("search without text: %q", errOut)
	}
	serveNotices(t, db, said)

	_, errOut, status = plateau(t, "import", "--db", db, dejarik)
	if status != exitOK || !strings.Contains(errOut, said+"; rebuilding it from the SQLite store") || !strings.Contains(errOut, "text index rebuilt: 300 games indexed") {
		t.Errorf("the next import: status %d, stderr %q", status, errOut)
	}
	if out := mustRun(t, "info", "--db", db); strings.Contains(out, "warning") {
		t.Errorf("info after the import:\n%s", out)
	}
	out, errOut, _ = plateau(t, "search", "--db", db, "--text", "*", "--format", "ids", "--limit", "-1")
	if len(strings.Fields(out)) != 300 || errOut != "" {
		t.Errorf("search --text after the import: %d games, stderr %q", len(strings.Fields(out)), errOut)
	}
	serveNotices(t, db, "")
}

// serveNotices checks that a server on db notices said in a text query's
// page and in /api/status ("": no notice), and not in a page without text.
func serveNotices(t *testing.T, dir, said string) {
	t.Helper()
	db, err := index.Open(context.Background(), dir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(web.Guard(serveHandler(browse.New(db, replay.Options{})), web.GuardOptions{Addr: "127.0.0.1:0"}))
	defer srv.Close()
	for _, c := range []struct {
		path   string
		notice bool
	}{{"/api/games?q=*", said != ""}, {"/api/games?game=draughts", false}, {"/api/status", said != ""}} {
		resp, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ Notice string }
		err = json.NewDecoder(resp.Body).Decode(&v)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || (v.Notice != "") != c.notice || (c.notice && !strings.Contains(v.Notice, said)) {
			t.Errorf("%s: %s, notice %q, %v", c.path, resp.Status, v.Notice, err)
		}
	}
}
