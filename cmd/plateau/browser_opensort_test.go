package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// TestBrowserListSortOpening: a click on the list's opening heading sorts
// the games by their opening's name over three pages of 100 (read by the
// page's ▶ and ◀, cursors of the server's), the games without one last;
// a second click reverses it, the unnamed games still last. 300
// generated checkers games, 234 of them named by the sample names;
// screenshot list-opening.png. A game's opening in its header lists the
// games of that opening; a player's page counts their named openings,
// each a link to their games of it (screenshot player-named.png); the
// openings page lists every name with its games and explores it
// (screenshot openings-page.png).
func TestBrowserListSortOpening(t *testing.T) {
	bin := chromium(t)
	ctx := context.Background()
	dir := t.TempDir()
	games := filepath.Join(dir, "checkers.pdn")
	mustRun(t, "generate", "--game", "checkers", "--games", "300", "--out", games, "-q")
	db, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := ingest.Files(ctx, db, []string{games}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(samples, "openings-checkers.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	es, errs := index.ReadOpenings(f, f.Name())
	f.Close()
	if st, errs2, err := db.ImportOpenings(ctx, es); err != nil || len(errs)+len(errs2) > 0 || st.Games != 234 {
		t.Fatal(st, errs, errs2, err)
	}
	src := browse.New(db, replay.Options{})
	srv := guardedServer(t, src)
	shots := screenshotDir(t)

	p := newBrowserPage(t, bin, srv.URL, 1366, 768)
	p.open(1, 0)
	p.clickCSS("the opening heading", `#list th[data-sort="opening"]`)
	p.waitJS("sorted by opening", `document.querySelector('#list th.c-opening').classList.contains('sorted') && document.querySelector('#count').textContent === '1–100 of 300' && document.querySelector('#list tbody td.c-opening').textContent !== ''`)
	// The opening comes second in a list sorted by it, where the narrow
	// list at 1366 pixels shows it.
	p.waitJS("the opening column second", `[...document.querySelectorAll('#list thead th')].map(th => th.className.split(' ')[0]).slice(0, 2).join() === 'c-n,c-opening'`)
	p.screenshot(filepath.Join(shots, "list-opening.png"), chromedp.CaptureScreenshot())
	asc := listPages(p, 3)
	// ◀ from the last page: the server's cursor back gives page 2 again.
	p.clickCSS("the page before", `#p-prev`)
	p.waitJS("page 2 again", `document.querySelector('#count').textContent === '101–200 of 300'`)
	if got := pageOpenings(p); !slices.Equal(got, asc[100:200]) {
		t.Errorf("page 2 read back differs:\n%q\nwant\n%q", got, asc[100:200])
	}
	checkByName(t, "ascending", asc, false)
	p.clickCSS("the opening heading again", `#list th[data-sort="opening"]`)
	p.waitJS("sorted by opening, descending", `document.querySelector('#list th.c-opening').classList.contains('desc') && document.querySelector('#count').textContent === '1–100 of 300'`)
	desc := listPages(p, 3)
	checkByName(t, "descending", desc, true)

	// A game's opening in its header lists the games of that opening.
	named := asc[0]
	p.clickJS("a named game of the list", `[...document.querySelectorAll('#list tbody tr')].find(tr => tr.querySelector('td.c-opening')?.textContent === `+strconv.Quote(named)+`)?.querySelector('td.c-n')`)
	p.waitJS("the game open", `document.querySelector('#title .olink')?.textContent === `+strconv.Quote(named))
	p.clickCSS("the opening in the header", `#title .olink`)
	p.waitJS("the games of that opening", `document.querySelector('#f-opening').value === `+strconv.Quote(named)+` && document.querySelector('#more').open &&
		document.querySelectorAll('#list tbody td.c-opening').length > 0 && [...document.querySelectorAll('#list tbody td.c-opening')].every(td => td.textContent.startsWith(`+strconv.Quote(named)+`))`)
	p.run("clear the opening filter", evalJS(`document.querySelector('#f-opening').value = ''`))

	// A player's page counts their named openings by side; a name lists
	// the player's games on that side from that opening on.
	first, err := src.List(ctx, web.ListQuery{Valid: "valid", Limit: 1})
	if err != nil || len(first.Games) == 0 {
		t.Fatal(first, err)
	}
	player := first.Games[0].Players[0]
	p.run("the player's page", evalJS(`location.hash = '#player/' + encodeURIComponent(`+strconv.Quote(player)+`)`))
	p.waitJS("the named openings", `document.querySelector('#p-name')?.textContent === `+strconv.Quote(player)+` && document.querySelectorAll('.p-named tbody tr:not(.pgroup)').length > 0`)
	p.screenshot(filepath.Join(shots, "player-named.png"), chromedp.CaptureScreenshot())
	name := p.eval(`document.querySelector('.p-named tbody tr:not(.pgroup) td.oname').textContent`)
	counted, _ := strconv.Atoi(p.eval(`document.querySelector('.p-named tbody tr:not(.pgroup) td:nth-child(2)').textContent`))
	p.clickCSS("an opening's name", `.p-named tbody tr:not(.pgroup) td.oname .plink`)
	p.waitJS("the list filtered", `document.querySelector('#f-opening').value === `+strconv.Quote(name)+` && document.querySelector('#f-player').value === `+strconv.Quote(player)+
		` && [...document.querySelectorAll('#list tbody td.c-opening')].length > 0 && [...document.querySelectorAll('#list tbody td.c-opening')].every(td => td.textContent.startsWith(`+strconv.Quote(name)+`))`)
	// The player's games of that side whose opening starts with the name:
	// those counted, and those of deeper names.
	if n, _ := strconv.Atoi(p.eval(`String(document.querySelectorAll('#list tbody tr').length)`)); counted < 1 || n < counted {
		t.Errorf("%d games listed, %d counted", n, counted)
	}

	// The openings page: every name with its games; "explore" opens its
	// position with its tree.
	p.clickCSS("the openings page", `#n-openings`)
	p.waitJS("the openings page", `document.querySelector('#o-title') !== null && document.querySelectorAll('.o-names tbody tr:not(.pgroup)').length === 17`)
	if got := p.eval(`document.querySelector('#people .pmeta').textContent`); got != "17 named positions · 234 games named" {
		t.Errorf("openings page summary %q", got)
	}
	p.screenshot(filepath.Join(shots, "openings-page.png"), chromedp.CaptureScreenshot())
	p.clickJS("explore Denny", `[...document.querySelectorAll('.o-names tbody tr')].find(tr => tr.querySelector('td.oname')?.textContent === 'Denny')?.querySelector('.plink:last-child')`)
	p.waitJS("Denny's position in the explorer", `document.querySelector('#people').hidden && !document.querySelector('#game').hidden && document.querySelector('#treename').textContent === 'Denny'`)
	p.cspClean()
	t.Logf("screenshots in %s", shots)
}

// listPages reads the opening column of n pages of the list from the
// first shown, turning them by ▶.
func listPages(p *browserPage, n int) []string {
	p.t.Helper()
	var all []string
	for i := 0; i < n; i++ {
		if i > 0 {
			want := []string{"101–200 of 300", "201–300 of 300"}[i-1]
			p.clickCSS("the next page", `#p-next`)
			p.waitJS("page "+want, `document.querySelector('#count').textContent === '`+want+`'`)
		}
		all = append(all, pageOpenings(p)...)
	}
	return all
}

// pageOpenings is the opening column of the list's page shown.
func pageOpenings(p *browserPage) []string {
	p.t.Helper()
	var out []string
	if err := json.Unmarshal([]byte(p.eval(`JSON.stringify([...document.querySelectorAll('#list tbody td.c-opening')].map(td => td.textContent))`)), &out); err != nil {
		p.t.Fatal(err)
	}
	return out
}

// checkByName: the 300 games have their 234 names first, in name order
// (the sample names are ASCII: case aside), then 66 without one.
func checkByName(t *testing.T, name string, got []string, desc bool) {
	t.Helper()
	if len(got) != 300 || slices.Index(got, "") != 234 || slices.ContainsFunc(got[234:], func(s string) bool { return s != "" }) {
		t.Fatalf("%s: %d games, the first unnamed at %d: %q", name, len(got), slices.Index(got, ""), got)
	}
	cmp := func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }
	if desc {
		cmp = func(a, b string) int { return strings.Compare(strings.ToLower(b), strings.ToLower(a)) }
	}
	if !slices.IsSortedFunc(got[:234], cmp) {
		t.Errorf("%s: not in name order: %q", name, got[:234])
	}
}
