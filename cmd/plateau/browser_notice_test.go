package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/replay"
)

// TestBrowserTextNotice: a text search answered from a text index that
// holds part of the games (an older copy restored: 100 of 300 valid
// games) shows the server's notice above its results; the list without
// words, and a failed query, show none.
func TestBrowserTextNotice(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, genFile(t, dir, "draughts", 100))
	old := filepath.Join(dir, "old.bleve")
	if err := os.CopyFS(old, os.DirFS(filepath.Join(db, "text.bleve"))); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "import", "--db", db, genFile(t, dir, "dejarik", 200))
	if err := os.RemoveAll(filepath.Join(db, "text.bleve")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(old, filepath.Join(db, "text.bleve")); err != nil {
		t.Fatal(err)
	}
	d, err := index.Open(context.Background(), db, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	srv := guardedServer(t, browse.New(d, replay.Options{}))

	p := newBrowserPage(t, bin, srv.URL, 1200, 800)
	p.navigate("the page", "")
	const notice = `document.querySelector('#listnotice')`
	p.waitJS("the list without words, no notice", `document.querySelectorAll('#list tbody tr').length > 0 && `+notice+`.hidden`)
	search := func(words string) {
		p.run("search "+words, evalJS(`(() => { const f = document.querySelector('#filter'); f.value = `+strconv.Quote(words)+`; f.dispatchEvent(new Event('input')); })()`))
	}
	search("*")
	p.waitJS("the notice above the text search's results", `!`+notice+`.hidden && `+notice+`.textContent.includes('the text index holds 100 of 300 valid games') && `+
		notice+`.textContent.includes('text queries may miss games') && `+notice+`.compareDocumentPosition(document.querySelector('#list')) === Node.DOCUMENT_POSITION_FOLLOWING && `+
		`document.querySelectorAll('#list tbody tr').length > 0 && `+notice+`.getBoundingClientRect().height > 0`)
	search("")
	p.waitJS("no notice without words", notice+`.hidden && document.querySelectorAll('#list tbody tr').length > 0`)
	search("/(/")
	p.waitJS("no notice for a failed query", notice+`.hidden && document.querySelector('#count').textContent !== ''`)
	p.cspClean()
}
