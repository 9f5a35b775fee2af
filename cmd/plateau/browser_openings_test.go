package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// TestBrowserOpenings: with the sample names imported into a database of
// the Dejarik samples, the page shows the name of a game's opening in its
// header and in the list's opening column, the name of the position each
// tree move leads to under it, and the name of the tree's position above
// the tree once the board reaches it; screenshot openings.png.
func TestBrowserOpenings(t *testing.T) {
	bin := chromium(t)
	ctx := context.Background()
	db := namedSampleDB(t, filepath.Join(samples, "dejarik"))
	src := browse.New(db, replay.Options{})
	srv := guardedServer(t, src)
	l, err := src.List(ctx, web.ListQuery{Criteria: "opening=Dejarik:+last+piece+inward,", Valid: "valid", Limit: 1})
	if err != nil || len(l.Games) != 1 {
		t.Fatalf("a game of the mirrored reply: %+v, %v", l, err)
	}
	shots := screenshotDir(t)

	p := newBrowserPage(t, bin, srv.URL, 1366, 768)
	p.open(l.Games[0].N, 0)
	p.waitJS("the opening in the header", `document.querySelector('#title .opening')?.textContent === 'Dejarik: last piece inward, mirrored reply'`)
	p.waitJS("the names under the tree's moves", `(() => {
		const r = [...document.querySelectorAll('#tree tr.tmove')].find(r => r.querySelector('td.mv').textContent === 'o4-i4');
		return !!r && !!r.nextElementSibling && r.nextElementSibling.classList.contains('tname') && r.nextElementSibling.textContent === 'Dejarik: last piece inward';
	})()`)
	p.waitJS("no name above the start's tree", `document.querySelector('#treename').hidden`)
	p.waitJS("the list's opening column", `[...document.querySelectorAll('#list tbody td.c-opening')].some(td => td.textContent === 'Dejarik: last piece inward, mirrored reply')`)
	p.clickTreeMove("play o4-i4 from the tree", "o4-i4")
	p.waitJS("the position's name above the tree", `!document.querySelector('#treename').hidden && document.querySelector('#treename').textContent === 'Dejarik: last piece inward'`)
	p.waitJS("the reply's name in the tree", `[...document.querySelectorAll('#tree tr.tname')].some(r => r.textContent === 'Dejarik: last piece inward, mirrored reply')`)
	// Past the named positions, the heading keeps the line's opening.
	p.clickTreeMove("play the reply o9-i9", "o9-i9")
	p.waitJS("the reply's name above the tree", `document.querySelector('#treename').textContent === 'Dejarik: last piece inward, mirrored reply'`)
	p.waitTree()
	p.clickJS("a move further", `document.querySelector('#tree tr.tmove')`)
	p.waitJS("the line's opening kept above the tree", `at > 0 && game.nodes[at].ply === 3 && !document.querySelector('#treename').hidden && document.querySelector('#treename').textContent === 'Dejarik: last piece inward, mirrored reply' && document.querySelector('#treename').title.includes('1 ply back')`)
	p.screenshot(filepath.Join(shots, "openings.png"), chromedp.CaptureScreenshot())
	p.cspClean()
	t.Logf("screenshots in %s", shots)
}

// namedSampleDB is a new database of the record files paths with the
// sample opening names (samples/openings-descriptive.tsv) imported.
func namedSampleDB(t *testing.T, paths ...string) *index.DB {
	t.Helper()
	ctx := context.Background()
	db, err := index.Open(ctx, filepath.Join(t.TempDir(), "db"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(samples, "openings-descriptive.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	es, errs := index.ReadOpenings(f, f.Name())
	f.Close()
	if _, errs2, err := db.ImportOpenings(ctx, es); err != nil || len(errs)+len(errs2) > 0 {
		t.Fatal(errs, errs2, err)
	}
	return db
}
