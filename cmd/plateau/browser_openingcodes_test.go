package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// TestBrowserOpeningCodes: with the sample names, whose Ōgi names carry
// ECO-style codes, a game's header, the list's opening column and the
// tree show the coded name; a game that no listed name matches shows its
// record's own ECO and Opening tags in its header and in the list's
// opening column, and a game that a listed name matches shows that name
// in both even with tags of its own. At 1366×768, 1920×1080 and 400×800;
// screenshots opening-codes-WIDTH.png.
func TestBrowserOpeningCodes(t *testing.T) {
	bin := chromium(t)
	ctx := context.Background()
	dir := t.TempDir()
	own := filepath.Join(dir, "own.pdn")
	if err := os.WriteFile(own, []byte("[Game \"ogi\"]\n[Sente \"Own\"]\n[Gote \"Tags\"]\n[ECO \"X01\"]\n[Opening \"Own opening\"]\n[Result \"*\"]\n\n1. Pa3-a4 Pa6-a5 2. Pb3-b4 Pb6-b5 *\n\n"+
		"[Game \"ogi\"]\n[Sente \"Listed\"]\n[Gote \"Tags\"]\n[ECO \"X02\"]\n[Opening \"Not shown\"]\n[Result \"*\"]\n\n1. Rg2-f2 Pa6-a5 2. Pa3-a4 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := namedSampleDB(t, filepath.Join(samples, "ogi"), own)
	src := browse.New(db, replay.Options{})
	coded, err := src.List(ctx, web.ListQuery{Criteria: "opening=R1", Game: "ogi", Valid: "valid", Limit: 1})
	if err != nil || len(coded.Games) != 1 {
		t.Fatalf("a game of R10: %+v, %v", coded, err)
	}
	mine, err := src.List(ctx, web.ListQuery{Criteria: "player=Own", Valid: "valid", Limit: 1})
	if err != nil || len(mine.Games) != 1 || mine.Games[0].Opening != "" || mine.Games[0].OwnECO != "X01" || mine.Games[0].OwnOpening != "Own opening" {
		t.Fatalf("the game of its own tags: %+v, %v", mine, err)
	}
	listed, err := src.List(ctx, web.ListQuery{Criteria: "player=Listed", Valid: "valid", Limit: 1})
	if err != nil || len(listed.Games) != 1 || listed.Games[0].Opening != "R10 Ōgi: Rook to the centre" || listed.Games[0].OwnECO != "" || listed.Games[0].OwnOpening != "" {
		t.Fatalf("the listed game with tags of its own: %+v, %v", listed, err)
	}
	cell := func(n int) string {
		return fmt.Sprintf(`document.querySelector('#list tbody tr[data-n="%d"] td.c-opening')`, n)
	}
	srv := guardedServer(t, src)
	shots := screenshotDir(t)
	for _, s := range []struct{ w, h int }{{1366, 768}, {1920, 1080}, {400, 800}} {
		p := newBrowserPage(t, bin, srv.URL, s.w, s.h)
		p.open(mine.Games[0].N, 0)
		p.waitJS("the record's own tags in the header", `document.querySelector('#title .opening.own')?.textContent === 'X01 Own opening'`)
		p.open(coded.Games[0].N, 0)
		p.waitJS("the coded name in the header", `document.querySelector('#title .opening.olink')?.textContent === 'R10 Ōgi: Rook to the centre'`)
		p.waitJS("the coded name under the tree's move", `[...document.querySelectorAll('#tree tr.tname')].some(r => r.textContent === 'R10 Ōgi: Rook to the centre')`)
		p.waitJS("the coded name in the list", `[...document.querySelectorAll('#list tbody td.c-opening')].some(td => td.textContent === 'R10 Ōgi: Rook to the centre')`)
		p.waitJS("the record's own tags in the list", cell(mine.Games[0].N)+`?.textContent === 'X01 Own opening' && `+cell(mine.Games[0].N)+`.classList.contains('own')`)
		p.waitJS("the listed name before the record's tags in the list", cell(listed.Games[0].N)+`?.textContent === 'R10 Ōgi: Rook to the centre' && !`+cell(listed.Games[0].N)+`.classList.contains('own')`)
		p.open(listed.Games[0].N, 0)
		p.waitJS("the listed name before the record's tags in the header", `document.querySelector('#title .opening.olink')?.textContent === 'R10 Ōgi: Rook to the centre' && !document.querySelector('#title .opening.own')`)
		// The list's own-tags cell in view: its column may lie past a narrow
		// list's right edge.
		p.eval(cell(mine.Games[0].N) + `.scrollIntoView({block: 'center', inline: 'end', behavior: 'instant'}), ''`)
		p.waitJS("the own-tags cell in view", `(r => r.bottom <= innerHeight && r.right <= innerWidth && r.top >= 0)(`+cell(mine.Games[0].N)+`.getBoundingClientRect())`)
		p.screenshot(filepath.Join(shots, fmt.Sprintf("opening-codes-%d.png", s.w)), chromedp.CaptureScreenshot())
		p.cspClean()
	}
	t.Logf("screenshots in %s", shots)
}
