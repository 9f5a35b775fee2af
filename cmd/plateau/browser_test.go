package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// browserRecords are the test's own games: two that reach one position by
// different move orders (a transposition), one with a variation, and one
// whose tags and comments hold HTML that must stay text.
const browserRecords = `[Game "ogi"]
[Event "Transpositions"]
[Sente "Alpha, Ann"]
[Gote "Beta, Bob"]
[Result "*"]

1. Rg2-f2 Pc6-c5 (1... Pf6-f5 2. Pe3-e4 {a side line}) 2. Pe3-e4 $1 Pf6-f5 3. Ph3-h4 *

[Game "ogi"]
[Event "Transpositions"]
[Sente "Gamma, Gil"]
[Gote "Delta, Dan"]
[Result "*"]

1. Pe3-e4 Pf6-f5 2. Rg2-f2 Pc6-c5 3. Pb3-b4 *

[Game "ogi"]
[Event "<script>window.__xss = 1</script>"]
[Sente "\"><img src=x onerror=\"window.__xss = 2\">"]
[Gote "<b>bold</b>"]
[Result "*"]

{<script>window.__xss = 3</script>} 1. Rg2-f2 {"><img src=x onerror="window.__xss = 4">} Pc6-c5 *
`

// chromium is the browser the test drives: chromium from the system's
// packages (.ci/run installs it).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH: .ci/run installs the Debian package chromium")
	}
	t.Skip("no chromium on PATH (apt-get install chromium; CI installs it): the browser test is skipped")
	return ""
}

// TestBrowser drives the page in headless Chromium: moves, variations,
// the tree, the games with a position, a position search, sorting, and
// hostile text in records; it screenshots each ruleset's board into
// $PLATEAU_SCREENSHOTS or the test's temp dir.
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	began := time.Now()
	dir := t.TempDir()
	recs := filepath.Join(dir, "browser.pdn")
	if err := os.WriteFile(recs, []byte(browserRecords), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	paths := []string{recs}
	for _, d := range []string{"ogi", "dames", "dames-brigand", "loup-moutons", "draughts", "jetan", "dejarik", "sauts"} {
		if _, err := os.Stat(filepath.Join(samples, d)); err == nil {
			paths = append(paths, filepath.Join(samples, d))
		}
	}
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{ImportOptions: index.ImportOptions{DefaultGame: defaultGame}}); err != nil {
		t.Fatal(err)
	}
	t.Logf("samples imported in %.1fs", time.Since(began).Seconds())
	src := browse.New(db, replay.Options{DefaultGame: defaultGame})
	srv := httptest.NewUnstartedServer(nil)
	// Served as `plateau serve` does: behind the Guard, whose
	// Content-Security-Policy forbids inline scripts and styles.
	srv.Config.Handler = web.Guard(serveHandler(src), web.GuardOptions{Addr: srv.Listener.Addr().String()})
	srv.Start()
	defer srv.Close()

	// The ids of the test's games: the first three of the database.
	page, err := src.List(ctx, web.ListQuery{Criteria: "event=Transpositions", Valid: "valid"})
	if err != nil || len(page.Games) != 2 {
		t.Fatalf("the transposition games: %+v, %v", page, err)
	}
	g1, g2 := page.Games[0].N, page.Games[1].N
	hostile, err := src.List(ctx, web.ListQuery{Criteria: "event=script", Valid: "valid"})
	if err != nil || len(hostile.Games) != 1 {
		t.Fatalf("the hostile game: %+v, %v", hostile, err)
	}
	g3 := hostile.Games[0].N

	shots := os.Getenv("PLATEAU_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(filepath.Join(dir, "chromium")),
		chromedp.WindowSize(1500, 1000),
	}
	actx, cancel := chromedp.NewExecAllocator(ctx, opts...)
	defer cancel()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	bctx, cancel = context.WithTimeout(bctx, 150*time.Second) // well under a minute on an idle machine; the margin is for a loaded one
	defer cancel()

	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		start := time.Now()
		defer func() {
			if d := time.Since(start); d > time.Second {
				t.Logf("%s: %v", what, d)
			}
		}()
		if err := chromedp.Do(bctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	// waitJS waits until the expression is true.
	waitJS := func(what, expr string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			ok, err := chromedp.Run(bctx, chromedp.Evaluate[bool](expr))
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if ok {
				return
			}
			if time.Now().After(deadline) {
				state, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`location.hash + ' | ' + document.querySelector('#status').textContent + ' | ' + document.querySelector('#count').textContent + ' | ' + document.querySelector('#poscount').textContent + ' | ' + document.querySelector('#posgames').textContent`))
				t.Fatalf("%s: %s still false (page: %s)", what, expr, state)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	evalJS := func(expr string) chromedp.Action[chromedp.Void] {
		return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Evaluate[any](expr)(ctx, tg)
			return chromedp.Void{}, err
		}
	}
	// cspClean fails when the page broke the Content-Security-Policy since
	// it was loaded.
	cspClean := func() {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](`(window.__csp || []).join('; ')`))
		if err != nil {
			t.Fatal(err)
		}
		if v != "" {
			t.Fatalf("Content-Security-Policy violations: %s", v)
		}
	}
	// open loads the page afresh on game n at node, and waits for it.
	loads := 0
	open := func(n, node int) {
		t.Helper()
		cspClean()
		loads++
		run("open game", chromedp.Navigate(fmt.Sprintf("%s/?load=%d#%d/%d", srv.URL, loads, n, node)))
		waitJS("game open", fmt.Sprintf(`game !== null && game.n === %d && at === %d && document.querySelector('#board svg') !== null`, n, node))
		run("watch the policy", evalJS(`window.__csp = []; document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI))`))
	}
	// clickJS clicks the element the expression finds, from the page's own
	// script in one step (a chromedp.Click finds the node, then clicks it:
	// a list the page redraws in between loses the node, a flaky test under
	// load); it waits until the element exists.
	clickJS := func(what, find string) {
		t.Helper()
		waitJS(what, `(() => { const e = `+find+`; if (!e) return false; e.click(); return true })()`)
	}
	clickCSS := func(what, sel string) { t.Helper(); clickJS(what, "document.querySelector(`"+sel+"`)") }
	clickTreeMove := func(what, move string) {
		t.Helper()
		clickJS(what, `[...document.querySelectorAll('#tree tr.tmove td.mv')].find(e => e.textContent === '`+move+`')`)
	}
	// clickMove clicks a move of the main line by its text.
	clickMove := func(move string) chromedp.Action[chromedp.Void] {
		return evalJS(`[...document.querySelectorAll('#moves > .move')].find(e => e.textContent.startsWith('` + move + `')).click()`)
	}
	status := `document.querySelector('#status').textContent`

	// 1. A move of the list goes to its own position (each move's click
	// once went to the end of the line).
	open(g1, 0)
	t.Logf("browser up and the first game shown at %.1fs", time.Since(began).Seconds())
	run("click a move", clickMove("Pc6-c5"))
	waitJS("the clicked move is current", `document.querySelector('#moves > .move.cur') && document.querySelector('#moves .move.cur').textContent === 'Pc6-c5' && location.hash.endsWith('/' + document.querySelector('#moves .move.cur').dataset.id)`)
	waitJS("the clicked move's position", status+`.startsWith('after 1... Pc6-c5')`)

	// 2. Into the variation by keyboard (↓ at the move it replaces), along
	// it, and out (↑).
	run("down", chromedp.KeyEvent(kb.ArrowDown))
	waitJS("in the variation", status+`.includes('Pf6-f5') && `+status+`.includes('variation')`)
	run("right", chromedp.KeyEvent(kb.ArrowRight))
	waitJS("along the variation", status+`.includes('2. Pe3-e4') && `+status+`.includes('variation')`)
	waitJS("the current move in a variation is white on blue", `getComputedStyle(document.querySelector('#moves .move.cur')).color === 'rgb(255, 255, 255)'`)
	run("up", chromedp.KeyEvent(kb.ArrowUp))
	waitJS("back on the main line", status+`.startsWith('after 1... Pc6-c5') && !`+status+`.includes('variation')`)
	run("home, then click the variation's move", chromedp.KeyEvent(kb.Home))
	clickCSS("click a variation move", `#moves .var .move`)
	waitJS("clicked into the variation", status+`.includes('variation')`)
	run("end of line", chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(kb.End))
	waitJS("end of the main line", status+`.startsWith('after 3. Ph3-h4')`)
	waitJS("NAG shown", `document.querySelector('#moves .nag') && document.querySelector('#moves .nag').textContent.trim() === '!'`)
	waitJS("comment shown", `[...document.querySelectorAll('#moves .cmt')].some(e => e.textContent === 'a side line')`)

	// 3. The tree follows the board, and a tree move plays.
	run("home", chromedp.KeyEvent(kb.Home))
	waitJS("tree of the start", `[...document.querySelectorAll('#tree tr.tmove td.mv')].some(e => e.textContent === 'Rg2-f2')`)
	clickTreeMove("a tree move", "Pe3-e4")
	waitJS("the tree move is played", status+`.startsWith('after 1. Pe3-e4')`)
	waitJS("the tree follows", `[...document.querySelectorAll('#tree tr.tmove td.mv')].some(e => e.textContent === 'Pf6-f5') && ![...document.querySelectorAll('#tree tr.tmove td.mv')].some(e => e.textContent === 'Pe3-e4')`)
	waitJS("a played move not in the record is a local variation", `document.querySelector('#moves .move.local.cur') !== null`)

	// 4. The games with this position: at ply 4 of game 1, game 2 reaches
	// it by another move order; its line opens game 2 at that ply.
	open(g1, 0)
	run("ply 4", clickMove("Pf6-f5"))
	waitJS("at ply 4", status+`.includes('ply 4') && `+status+`.startsWith('after 2... Pf6-f5')`)
	other := fmt.Sprintf(`#posgames tr.pgame[data-n="%d"]`, g2)
	// The list of the position before (the start, which game 2 reaches at
	// ply 0) stays until this one arrives: wait for game 2's row at ply 4.
	waitJS("transposition listed", `document.querySelector('`+other+`') !== null && document.querySelector('`+other+`').textContent.includes('ply 4') && /[2-9]\d* occurrences/.test(document.querySelector('#poscount').textContent)`)
	clickCSS("open the transposition", other)
	waitJS("the other game at that ply", fmt.Sprintf(`location.hash.startsWith('#%d/') && `, g2)+status+`.startsWith('after 2... Pc6-c5') && `+status+`.includes('ply 4')`)

	// 5. Search this position from the page: both games (and a sample game), at ply 4.
	clickCSS("search the position", `#a-search`)
	waitJS("position search", fmt.Sprintf(`!document.querySelector('#searchinfo').hidden && document.querySelectorAll('#list tbody tr').length === 3 && document.querySelector('#list tbody tr[data-n="%d"]') !== null && document.querySelector('#list tbody tr td.plycol').textContent === '4'`, g1))
	clickCSS("clear the search", `#s-clear`)
	waitJS("the whole list again", `document.querySelector('#searchinfo').hidden && document.querySelectorAll('#list tbody tr').length > 2`)

	// 5b. Paging: ▶ reads the page after the cursor of the page's last
	// game (the page's request says so); ◀ comes back (to the first page:
	// by its offset, 0).
	listIDs := `[...document.querySelectorAll('#list tbody tr')].map(r => r.dataset.n).join(',')`
	firstPage, err := chromedp.Run(bctx, chromedp.Evaluate[string](listIDs))
	if err != nil || strings.Count(firstPage, ",") != 99 {
		t.Fatalf("the first page: %q, %v (the test needs more than 100 games)", firstPage, err)
	}
	requested := func(param string) string {
		return `performance.getEntriesByType('resource').some(e => e.name.includes('/api/games?') && e.name.includes('` + param + `='))`
	}
	clickCSS("next page", `#p-next`)
	waitJS("the second page, after the cursor", `document.querySelector('#count').textContent.startsWith('101–') && `+listIDs+` !== '`+firstPage+`' && `+requested("after"))
	clickCSS("previous page", `#p-prev`)
	waitJS("the first page again", `document.querySelector('#count').textContent.startsWith('1–') && `+listIDs+` === '`+firstPage+`'`)

	// 6. Sorting by plies, up then down.
	plies := `[...document.querySelectorAll('#list tbody tr')].map(r => +r.children[10].textContent)`
	sorted := func(desc bool) string {
		cmp := "a[i-1] <= a[i]"
		if desc {
			cmp = "a[i-1] >= a[i]"
		}
		return `(a => a.length > 2 && a.every((x, i) => i === 0 || ` + cmp + `) && a[0] !== a[a.length-1])(` + plies + `)`
	}
	clickCSS("sort by plies", `#list th[data-sort="plies"]`)
	waitJS("sorted up", sorted(false))
	clickCSS("sort by plies, down", `#list th[data-sort="plies"]`)
	waitJS("sorted down", sorted(true))

	// 7. Hostile text stays text.
	open(g3, 0)
	run("step", chromedp.KeyEvent(kb.ArrowRight))
	waitJS("payloads shown as text", `document.querySelector('#title').textContent.includes('"><img src=x onerror="window.__xss = 2">') && document.querySelector('#title').textContent.includes('<script>window.__xss = 1</script>') && document.querySelector('#comment').textContent.includes('<img src=x onerror=')`)
	waitJS("no payload ran", `window.__xss === undefined && document.querySelectorAll('img, b, #moves script, #title script, #tags script').length === 0`)

	// 8. The explorer: a board of one's own from a start; a tree move plays.
	loads++
	run("explorer", chromedp.Navigate(fmt.Sprintf("%s/?load=%d#explore/ogi/", srv.URL, loads)), chromedp.WaitVisible(chromedp.CSS(`#board svg`)))
	waitJS("explorer board", `game !== null && game.explorer === true`)
	waitJS("explorer tree", `[...document.querySelectorAll('#tree tr.tmove td.mv')].some(e => e.textContent === 'Rg2-f2')`)
	clickTreeMove("a tree move", "Rg2-f2")
	waitJS("played on the explorer board", status+`.startsWith('after 1. Rg2-f2')`)
	// click-to-move: Gote's pawn c6 to c5
	run("click c6", evalJS(`squareClicked('c6')`))
	waitJS("targets shown", `document.querySelectorAll('#board circle[fill="rgba(20,110,40,0.75)"]').length > 0`)
	run("click c5", evalJS(`squareClicked('c5')`))
	waitJS("played by clicks", status+`.startsWith('after 1... Pc6-c5')`)

	// 9. The pattern form: a Sente rook on f2 and a Sente pawn on h4, by
	// clicks on its board; the field gets the CLI's syntax and the list
	// becomes the pattern's games, as the database answers the same text.
	patternIDs := func(pattern string) string {
		t.Helper()
		p, err := src.List(ctx, web.ListQuery{Game: "ogi", Valid: "valid", Criteria: url.Values{"pattern": {pattern}}.Encode(), Limit: 100})
		if err != nil {
			t.Fatalf("pattern %q: %v", pattern, err)
		}
		var ids []string
		for _, g := range p.Games {
			ids = append(ids, fmt.Sprint(g.N))
		}
		return strings.Join(ids, ",")
	}
	rook, both := patternIDs("Sente:R@f2"), patternIDs("Sente:R@f2 Sente:P@h4")
	if !strings.Contains(","+both+",", fmt.Sprintf(",%d,", g1)) || strings.Contains(","+both+",", fmt.Sprintf(",%d,", g2)) || rook == both {
		t.Fatalf("the patterns do not tell the test's games apart: %q, %q", rook, both)
	}
	open(g1, 0)
	before, err := chromedp.Run(bctx, chromedp.Evaluate[string](listIDs))
	if err != nil {
		t.Fatal(err)
	}
	clickCSS("more filters", `#more summary`)
	clickCSS("the pattern form", `#patform summary`)
	waitJS("the form's board", `document.querySelector('#pf-board [data-sq="f2"]') !== null && document.querySelector('#pf-game').value === 'ogi'`)
	run("Sente's rook", chromedp.SetValue(chromedp.CSS(`#pf-side`), "0"), chromedp.SetValue(chromedp.CSS(`#pf-piece`), "R"))
	run("click f2", chromedp.Click(chromedp.CSS(`#pf-board [data-sq="f2"]`)))
	waitJS("the field holds the term", `document.querySelector('#f-pattern').value === 'Sente:R@f2'`)
	waitJS("the list of the rook on f2", listIDs+` === '`+rook+`' && `+listIDs+` !== '`+before+`'`)
	run("Sente's pawn", chromedp.SetValue(chromedp.CSS(`#pf-piece`), "P"))
	run("click h4", chromedp.Click(chromedp.CSS(`#pf-board [data-sq="h4"]`)))
	waitJS("both terms", `document.querySelector('#f-pattern').value === 'Sente:R@f2 Sente:P@h4'`)
	waitJS("the list of both", listIDs+` === '`+both+`' && document.querySelectorAll('#pf-board .pfmark').length === 2`)
	// A material count row writes its term; clicking h4 again takes the
	// pawn off.
	clickCSS("add a count", `#pf-addmat`)
	waitJS("the count's term", `/^Sente:R@f2 Sente:P@h4 Sente:[A-Z*]>=1$/.test(document.querySelector('#f-pattern').value) && document.querySelector('#pf-material .pf-count') !== null`)
	run("pawns on the board ≥ 9", chromedp.SetValue(chromedp.CSS(`#pf-material .pf-count select:nth-of-type(2)`), "P"),
		chromedp.SetValue(chromedp.CSS(`#pf-material .pf-count input`), "9"),
		evalJS(`document.querySelector('#pf-material .pf-count input').dispatchEvent(new Event('change'))`))
	waitJS("the count in the field", `document.querySelector('#f-pattern').value === 'Sente:R@f2 Sente:P@h4 Sente:P>=9'`)
	waitJS("no game has nine pawns on the board", listIDs+` === '`+patternIDs("Sente:R@f2 Sente:P@h4 Sente:P>=9")+`'`)
	run("scroll the list up", evalJS(`document.querySelector('#listbox').scrollTop = 0`))
	if png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100)); err != nil || len(png) == 0 {
		t.Fatalf("screenshot of the pattern form: %v", err)
	} else if err := os.WriteFile(filepath.Join(shots, "pattern-form.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	clickCSS("remove the count", `#pf-material .pf-count button`)
	run("click h4 again", chromedp.Click(chromedp.CSS(`#pf-board [data-sq="h4"]`)))
	waitJS("the pawn is off", `document.querySelector('#f-pattern').value === 'Sente:R@f2'`)
	waitJS("the list of the rook on f2 again", listIDs+` === '`+rook+`'`)

	t.Logf("page checks done at %.1fs", time.Since(began).Seconds())
	// Screenshots of each ruleset's board, for a person to look at.
	for _, id := range page.Rulesets {
		p, err := src.List(ctx, web.ListQuery{Game: id, Valid: "valid", Limit: 1})
		if err != nil || len(p.Games) == 0 {
			continue
		}
		n := p.Games[0].N
		open(n, min(p.Games[0].Plies, 12))
		waitJS("tree of "+id, `document.querySelector('#tree tbody tr') !== null && document.querySelector('#posgames tbody tr') !== null`)
		// The piece legend: Ōgi's and Jetan's, opened for the screenshot;
		// none for the disc games.
		legend := map[string]string{"ogi": "+RDragon 龍", "jetan": "APadwar"}[id]
		if legend != "" {
			waitJS("legend of "+id, `(() => { const l = document.querySelector('#legend'); l.open = true; return !l.hidden && [...l.querySelectorAll('li')].some(e => e.textContent.replace(/\s/g, '') === '`+strings.ReplaceAll(legend, " ", "")+`') })()`)
		} else {
			waitJS("no legend for "+id, `document.querySelector('#legend').hidden`)
		}
		// The whole page once, the game's part for the others (faster).
		shot := chromedp.FullScreenshot(100)
		if id != "ogi" {
			shot = chromedp.Screenshot(chromedp.CSS("#game"))
		}
		png, err := chromedp.Run(bctx, shot)
		if err != nil {
			t.Fatalf("screenshot %s: %v", id, err)
		}
		name := filepath.Join(shots, "board-"+url.PathEscape(id)+".png")
		if !strings.HasSuffix(name, ".png") || len(png) == 0 {
			t.Fatalf("%s: no screenshot", id)
		}
		if err := os.WriteFile(name, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cspClean()
	t.Logf("screenshots in %s", shots)
}
