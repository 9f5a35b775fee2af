package main

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// TestBrowserEditConflict: two tabs of one browser edit game 1 from its
// revision 1. The first saves (revision 2); the second's save is refused
// with the conflict named in its page and a button to reload, its edit
// still on its screen; the database holds the first tab's revision and
// nothing of the second's. Reloaded, the second tab shows revision 2.
func TestBrowserEditConflict(t *testing.T) {
	bin := chromium(t)
	ctx := context.Background()
	db := editDB(t, filepath.Join(samples, "ogi", "osaka-club.pdn"))
	srv := newEditServer(t, db)
	shots := screenshotDir(t)

	a := newBrowserPage(t, bin, srv.URL, 1300, 900)
	a.run("tab A opens game 1", chromedp.Navigate(srv.URL+"/?token="+browserToken+"#1/0"))
	a.waitJS("tab A: game 1, revision 1", `game !== null && game.n === 1 && game.revision === 1 && !document.querySelector('#editbox').hidden`)
	bctx, cancel := chromedp.NewContext(a.ctx) // a second tab of the same browser
	t.Cleanup(cancel)
	b := &browserPage{t: t, ctx: bctx, url: srv.URL}
	b.run("tab B opens game 1", chromedp.Navigate(srv.URL+"/?token="+browserToken+"#1/0"))
	b.waitJS("tab B: game 1, revision 1", `game !== null && game.n === 1 && game.revision === 1 && !document.querySelector('#editbox').hidden`)
	for _, p := range []*browserPage{a, b} {
		p.run("watch the policy", evalJS(`window.__csp = []; document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI))`))
	}

	a.run("A: first move", clickMove("Rg2-f2"))
	a.clickCSS("A: NAG !", `#editbox .ed-nag[data-nag="!"]`)
	a.clickCSS("A: save", `#ed-save:not([disabled])`)
	a.waitJS("A: saved", `document.querySelector('#ed-status').textContent.includes('Saved as revision 2')`)

	b.run("B: first move", clickMove("Rg2-f2"))
	b.waitJS("B: comment box", `at > 0 && document.querySelector('#ed-after') !== null`)
	b.run("B: comment", evalJS(`(() => { const t = document.querySelector('#ed-after'); t.value = 'Written in tab B.'; t.dispatchEvent(new Event('input')); })()`))
	b.clickCSS("B: save", `#ed-save:not([disabled])`)
	b.waitJS("B: the conflict named", `document.querySelector('#ed-status').className === 'bad' && document.querySelector('#ed-status').textContent.includes('saved meanwhile') && document.querySelector('#ed-status').textContent.includes('revision 2') && document.querySelector('#ed-reload') !== null`)
	if v := b.eval(`document.querySelector('#ed-after').value + ' | ' + game.revision`); v != "Written in tab B. | 1" {
		t.Errorf("tab B after the conflict: comment and revision %q, want its edit still there, from revision 1", v)
	}
	b.screenshot(filepath.Join(shots, "edit-conflict.png"), chromedp.CaptureScreenshot())

	// Nothing of B stored: revision 2 is A's.
	revs, err := db.History(ctx, 1)
	if err != nil || len(revs) != 2 {
		t.Fatalf("revisions of game 1: %+v, %v; want 2", revs, err)
	}
	rec, err := db.Text(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(rec); !strings.Contains(s, "Rg2-f2 $1") || strings.Contains(s, "tab B") {
		t.Errorf("the stored record after the conflict:\n%s\nwant tab A's NAG ($1) and nothing of tab B", s)
	}

	b.clickCSS("B: reload", `#ed-reload`)
	b.waitJS("B: revision 2 read", `game.revision === 2 && [...document.querySelectorAll('#moves .move')].some(e => e.textContent === 'Rg2-f2 !') && !document.querySelector('#moves').textContent.includes('tab B')`)
	a.cspClean()
	b.cspClean()
}

// editDB is a new database of the records of paths (files or
// directories), closed when the test ends.
func editDB(t *testing.T, paths ...string) *index.DB {
	t.Helper()
	db, err := index.Open(context.Background(), filepath.Join(t.TempDir(), "db"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := ingest.Files(context.Background(), db, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	return db
}

// newEditServer serves db for writing, with browserToken, behind the
// Guard as `plateau serve --edit` does.
func newEditServer(t *testing.T, db *index.DB) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	h := web.HandlerWith(browse.New(db, replay.Options{}), webAssets(), web.EditOptions{Enabled: true, Token: browserToken})
	srv.Config.Handler = web.Guard(h, web.GuardOptions{Addr: srv.Listener.Addr().String()})
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// guardedServer serves src's page and API behind the Guard, as plateau
// serve serves them, until the test ends.
func guardedServer(t *testing.T, src web.Source) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	srv.Config.Handler = web.Guard(serveHandler(src), web.GuardOptions{Addr: srv.Listener.Addr().String()})
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// screenshotDir is $PLATEAU_SCREENSHOTS (made if need be) or a temp dir.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PLATEAU_SCREENSHOTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
