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
	f := newBrowserFixture(t)
	t.Logf("samples imported in %.1fs", time.Since(began).Seconds())
	p := newBrowserPage(t, bin, f.srv.URL, 1500, 1000)

	p.open(f.g1, 0)
	t.Logf("browser up and the first game shown at %.1fs", time.Since(began).Seconds())
	browserMoves(p)
	browserTree(p)
	browserTreeFilter(p, f)
	browserTranspositions(p, f)
	browserListing(p, f)
	browserHostile(p, f)
	browserExplorer(p)
	browserPeople(p, f)
	browserPatternForm(p, f)
	t.Logf("page checks done at %.1fs", time.Since(began).Seconds())
	browserBoards(p, f)
	p.cspClean()
	t.Logf("screenshots in %s", f.shots)
}

// browserFixture is the database and server of the browser test: the
// test's own records and the samples of every ruleset.
type browserFixture struct {
	src        *browse.Source
	srv        *httptest.Server
	g1, g2, g3 int      // the two transposition games and the hostile one
	rulesets   []string // the rulesets of the database
	shots      string   // where screenshots go
}

func newBrowserFixture(t *testing.T) *browserFixture {
	t.Helper()
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
	t.Cleanup(func() { db.Close() })
	paths := []string{recs}
	for _, d := range []string{"ogi", "dames", "dames-brigand", "loup-moutons", "draughts", "jetan", "dejarik", "sauts"} {
		if _, err := os.Stat(filepath.Join(samples, d)); err == nil {
			paths = append(paths, filepath.Join(samples, d))
		}
	}
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{ImportOptions: index.ImportOptions{DefaultGame: defaultGame}}); err != nil {
		t.Fatal(err)
	}
	f := &browserFixture{src: browse.New(db, replay.Options{DefaultGame: defaultGame})}
	f.srv = httptest.NewUnstartedServer(nil)
	// Served as `plateau serve` does: behind the Guard, whose
	// Content-Security-Policy forbids inline scripts and styles.
	f.srv.Config.Handler = web.Guard(serveHandler(f.src), web.GuardOptions{Addr: f.srv.Listener.Addr().String()})
	f.srv.Start()
	t.Cleanup(f.srv.Close)

	page, err := f.src.List(ctx, web.ListQuery{Criteria: "event=Transpositions", Valid: "valid"})
	if err != nil || len(page.Games) != 2 {
		t.Fatalf("the transposition games: %+v, %v", page, err)
	}
	f.g1, f.g2, f.rulesets = page.Games[0].N, page.Games[1].N, page.Rulesets
	hostile, err := f.src.List(ctx, web.ListQuery{Criteria: "event=script", Valid: "valid"})
	if err != nil || len(hostile.Games) != 1 {
		t.Fatalf("the hostile game: %+v, %v", hostile, err)
	}
	f.g3 = hostile.Games[0].N

	f.shots = os.Getenv("PLATEAU_SCREENSHOTS")
	if f.shots == "" {
		f.shots = t.TempDir()
	} else if err := os.MkdirAll(f.shots, 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

// browserPage is one headless Chromium tab on a test server, with the
// waits and clicks the browser tests share.
type browserPage struct {
	t     *testing.T
	ctx   context.Context
	url   string
	loads int
}

func newBrowserPage(t *testing.T, bin, url string, width, height int) *browserPage {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "chromium")),
		chromedp.WindowSize(width, height),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelTab := chromedp.NewContext(actx)
	bctx, cancelTime := context.WithTimeout(bctx, 150*time.Second) // well under a minute on an idle machine; the margin is for a loaded one
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	return &browserPage{t: t, ctx: bctx, url: url}
}

// run does the actions, failing the test with what on an error.
func (p *browserPage) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	start := time.Now()
	defer func() {
		if d := time.Since(start); d > time.Second {
			p.t.Logf("%s: %v", what, d)
		}
	}()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// eval is the string value of the expression.
func (p *browserPage) eval(expr string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitJS waits until the expression is true.
func (p *browserPage) waitJS(what, expr string) {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](expr))
		if err != nil {
			p.t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			state, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`location.hash + ' | ' + document.querySelector('#status').textContent + ' | ' + document.querySelector('#count').textContent + ' | ' + document.querySelector('#poscount').textContent + ' | ' + document.querySelector('#posgames').textContent`))
			p.t.Fatalf("%s: %s still false (page: %s)", what, expr, state)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// evalJS is an action that runs the expression.
func evalJS(expr string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[any](expr)(ctx, tg)
		return chromedp.Void{}, err
	}
}

// cspClean fails when the page broke the Content-Security-Policy since it
// was loaded.
func (p *browserPage) cspClean() {
	p.t.Helper()
	if v := p.eval(`(window.__csp || []).join('; ')`); v != "" {
		p.t.Fatalf("Content-Security-Policy violations: %s", v)
	}
}

// navigate loads the page afresh at the fragment.
func (p *browserPage) navigate(what, fragment string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	p.loads++
	p.run(what, append([]chromedp.Action[chromedp.Void]{chromedp.Navigate(fmt.Sprintf("%s/?load=%d#%s", p.url, p.loads, fragment))}, actions...)...)
}

// open loads the page afresh on game n at node, and waits for it.
func (p *browserPage) open(n, node int) {
	p.t.Helper()
	p.cspClean()
	p.navigate("open game", fmt.Sprintf("%d/%d", n, node))
	p.waitJS("game open", fmt.Sprintf(`game !== null && game.n === %d && at === %d && document.querySelector('#board svg') !== null`, n, node))
	p.run("watch the policy", evalJS(`window.__csp = []; document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI))`))
}

// clickJS clicks the element the expression finds, from the page's own
// script in one step (a chromedp.Click finds the node, then clicks it: a
// list the page redraws in between loses the node, a flaky test under
// load); it waits until the element exists.
func (p *browserPage) clickJS(what, find string) {
	p.t.Helper()
	p.waitJS(what, `(() => { const e = `+find+`; if (!e) return false; e.click(); return true })()`)
}

func (p *browserPage) clickCSS(what, sel string) {
	p.t.Helper()
	p.clickJS(what, "document.querySelector(`"+sel+"`)")
}

func (p *browserPage) clickTreeMove(what, move string) {
	p.t.Helper()
	p.waitTree()
	p.clickJS(what, `[...document.querySelectorAll('#tree tr.tmove td.mv')].find(e => e.textContent === '`+move+`')`)
}

// waitTree waits for the tree of the board's position: the rows of the
// position before stay until the new ones come, and a click on one of
// them would play a move of the wrong position.
func (p *browserPage) waitTree() {
	p.t.Helper()
	p.waitJS("the tree of the position shown", `!document.querySelector('#tree').hasAttribute('aria-busy')`)
}

// screenshot writes the shot to the file.
func (p *browserPage) screenshot(file string, shot chromedp.Action[[]byte]) {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, shot)
	if err != nil || len(png) == 0 {
		p.t.Fatalf("screenshot %s: %v", file, err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// clickMove clicks a move of the main line by its text.
func clickMove(move string) chromedp.Action[chromedp.Void] {
	return evalJS(`[...document.querySelectorAll('#moves > .move')].find(e => e.textContent.startsWith('` + move + `')).click()`)
}

const browserStatus = `document.querySelector('#status').textContent`

// browserMoves: a move of the list goes to its own position (each move's
// click once went to the end of the line); into a variation by keyboard
// (↓ at the move it replaces), along it, and out (↑).
func browserMoves(p *browserPage) {
	status := browserStatus
	p.run("click a move", clickMove("Pc6-c5"))
	p.waitJS("the clicked move is current", `document.querySelector('#moves > .move.cur') && document.querySelector('#moves .move.cur').textContent === 'Pc6-c5' && location.hash.endsWith('/' + document.querySelector('#moves .move.cur').dataset.id)`)
	p.waitJS("the clicked move's position", status+`.startsWith('after 1... Pc6-c5')`)

	p.run("down", chromedp.KeyEvent(kb.ArrowDown))
	p.waitJS("in the variation", status+`.includes('Pf6-f5') && `+status+`.includes('variation')`)
	p.run("right", chromedp.KeyEvent(kb.ArrowRight))
	p.waitJS("along the variation", status+`.includes('2. Pe3-e4') && `+status+`.includes('variation')`)
	p.waitJS("the current move in a variation is white on blue", `getComputedStyle(document.querySelector('#moves .move.cur')).color === 'rgb(255, 255, 255)'`)
	p.run("up", chromedp.KeyEvent(kb.ArrowUp))
	p.waitJS("back on the main line", status+`.startsWith('after 1... Pc6-c5') && !`+status+`.includes('variation')`)
	p.run("home, then click the variation's move", chromedp.KeyEvent(kb.Home))
	p.clickCSS("click a variation move", `#moves .var .move`)
	p.waitJS("clicked into the variation", status+`.includes('variation')`)
	p.run("end of line", chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(kb.End))
	p.waitJS("end of the main line", status+`.startsWith('after 3. Ph3-h4')`)
	p.waitJS("NAG shown", `document.querySelector('#moves .nag') && document.querySelector('#moves .nag').textContent.trim() === '!'`)
	p.waitJS("comment shown", `[...document.querySelectorAll('#moves .cmt')].some(e => e.textContent === 'a side line')`)
}

// browserTree: the tree follows the board, and a tree move plays.
func browserTree(p *browserPage) {
	status := browserStatus
	p.run("home", chromedp.KeyEvent(kb.Home))
	p.waitJS("tree of the start", `[...document.querySelectorAll('#tree tr.tmove td.mv')].some(e => e.textContent === 'Rg2-f2')`)
	p.clickTreeMove("a tree move", "Pe3-e4")
	p.waitJS("the tree move is played", status+`.startsWith('after 1. Pe3-e4')`)
	p.waitJS("the tree follows", `[...document.querySelectorAll('#tree tr.tmove td.mv')].some(e => e.textContent === 'Pf6-f5') && ![...document.querySelectorAll('#tree tr.tmove td.mv')].some(e => e.textContent === 'Pe3-e4')`)
	p.waitJS("a played move not in the record is a local variation", `document.querySelector('#moves .move.local.cur') !== null`)
}

// browserTranspositions: the games with this position: at ply 4 of game
// 1, game 2 reaches it by another move order; its line opens game 2 at
// that ply. Then a search of this position from the page: both games (and
// a sample game), at ply 4.
func browserTranspositions(p *browserPage, f *browserFixture) {
	status := browserStatus
	p.open(f.g1, 0)
	p.run("ply 4", clickMove("Pf6-f5"))
	p.waitJS("at ply 4", status+`.includes('ply 4') && `+status+`.startsWith('after 2... Pf6-f5')`)
	other := fmt.Sprintf(`#posgames tr.pgame[data-n="%d"]`, f.g2)
	// The list of the position before (the start, which game 2 reaches at
	// ply 0) stays until this one arrives: wait for game 2's row at ply 4.
	p.waitJS("transposition listed", `document.querySelector('`+other+`') !== null && document.querySelector('`+other+`').textContent.includes('ply 4') && /[2-9]\d* occurrences/.test(document.querySelector('#poscount').textContent)`)
	p.clickCSS("open the transposition", other)
	p.waitJS("the other game at that ply", fmt.Sprintf(`location.hash.startsWith('#%d/') && `, f.g2)+status+`.startsWith('after 2... Pc6-c5') && `+status+`.includes('ply 4')`)

	p.clickCSS("search the position", `#a-search`)
	p.waitJS("position search", fmt.Sprintf(`!document.querySelector('#searchinfo').hidden && document.querySelectorAll('#list tbody tr').length === 3 && document.querySelector('#list tbody tr[data-n="%d"]') !== null && document.querySelector('#list tbody tr td.plycol').textContent === '4'`, f.g1))
	p.clickCSS("clear the search", `#s-clear`)
	p.waitJS("the whole list again", `document.querySelector('#searchinfo').hidden && document.querySelectorAll('#list tbody tr').length > 2`)
}

const browserListIDs = `[...document.querySelectorAll('#list tbody tr')].map(r => r.dataset.n).join(',')`

// browserListing: paging (▶ reads the page after the cursor of the page's
// last game, as the page's request says; ◀ comes back to the first page by
// its offset, 0), then sorting by plies, up then down.
func browserListing(p *browserPage, f *browserFixture) {
	listIDs := browserListIDs
	firstPage := p.eval(listIDs)
	if strings.Count(firstPage, ",") != 99 {
		p.t.Fatalf("the first page: %q (the test needs more than 100 games)", firstPage)
	}
	requested := func(param string) string {
		return `performance.getEntriesByType('resource').some(e => e.name.includes('/api/games?') && e.name.includes('` + param + `='))`
	}
	p.clickCSS("next page", `#p-next`)
	p.waitJS("the second page, after the cursor", `document.querySelector('#count').textContent.startsWith('101–') && `+listIDs+` !== '`+firstPage+`' && `+requested("after"))
	p.clickCSS("previous page", `#p-prev`)
	p.waitJS("the first page again", `document.querySelector('#count').textContent.startsWith('1–') && `+listIDs+` === '`+firstPage+`'`)

	plies := `[...document.querySelectorAll('#list tbody tr')].map(r => +r.querySelector('td.c-plies').textContent)`
	sorted := func(desc bool) string {
		cmp := "a[i-1] <= a[i]"
		if desc {
			cmp = "a[i-1] >= a[i]"
		}
		return `(a => a.length > 2 && a.every((x, i) => i === 0 || ` + cmp + `) && a[0] !== a[a.length-1])(` + plies + `)`
	}
	p.clickCSS("sort by plies", `#list th[data-sort="plies"]`)
	p.waitJS("sorted up", sorted(false))
	p.clickCSS("sort by plies, down", `#list th[data-sort="plies"]`)
	p.waitJS("sorted down", sorted(true))
}

// browserHostile: hostile text stays text.
func browserHostile(p *browserPage, f *browserFixture) {
	p.open(f.g3, 0)
	p.run("step", chromedp.KeyEvent(kb.ArrowRight))
	p.waitJS("payloads shown as text", `document.querySelector('#title').textContent.includes('"><img src=x onerror="window.__xss = 2">') && document.querySelector('#title').textContent.includes('<script>window.__xss = 1</script>') && document.querySelector('#comment').textContent.includes('<img src=x onerror=')`)
	p.waitJS("no payload ran", `window.__xss === undefined && document.querySelectorAll('img, b, #moves script, #title script, #tags script').length === 0`)
}

// browserExplorer: a board of one's own from a start; a tree move plays,
// and so do clicks on the board.
func browserExplorer(p *browserPage) {
	status := browserStatus
	p.navigate("explorer", "explore/ogi/", chromedp.WaitVisible(chromedp.CSS(`#board svg`)))
	p.waitJS("explorer board", `game !== null && game.explorer === true`)
	p.waitJS("explorer tree", `[...document.querySelectorAll('#tree tr.tmove td.mv')].some(e => e.textContent === 'Rg2-f2')`)
	p.clickTreeMove("a tree move", "Rg2-f2")
	p.waitJS("played on the explorer board", status+`.startsWith('after 1. Rg2-f2')`)
	// click-to-move: Gote's pawn c6 to c5
	p.run("click c6", evalJS(`squareClicked('c6')`))
	p.waitJS("targets shown", `document.querySelectorAll('#board circle[fill="rgba(20,110,40,0.75)"]').length > 0`)
	p.run("click c5", evalJS(`squareClicked('c5')`))
	p.waitJS("played by clicks", status+`.startsWith('after 1... Pc6-c5')`)
}

// patternIDs are the ids of the first page of the Ōgi games with the
// pattern, as the database answers it.
func (f *browserFixture) patternIDs(t *testing.T, pattern string) string {
	t.Helper()
	p, err := f.src.List(context.Background(), web.ListQuery{Game: "ogi", Valid: "valid", Criteria: url.Values{"pattern": {pattern}}.Encode(), Limit: 100})
	if err != nil {
		t.Fatalf("pattern %q: %v", pattern, err)
	}
	var ids []string
	for _, g := range p.Games {
		ids = append(ids, fmt.Sprint(g.N))
	}
	return strings.Join(ids, ",")
}

// browserPatternForm: a Sente rook on f2 and a Sente pawn on h4, by clicks
// on the form's board; the field gets the CLI's syntax and the list becomes
// the pattern's games, as the database answers the same text.
func browserPatternForm(p *browserPage, f *browserFixture) {
	t, listIDs := p.t, browserListIDs
	rook, both := f.patternIDs(t, "Sente:R@f2"), f.patternIDs(t, "Sente:R@f2 Sente:P@h4")
	if !strings.Contains(","+both+",", fmt.Sprintf(",%d,", f.g1)) || strings.Contains(","+both+",", fmt.Sprintf(",%d,", f.g2)) || rook == both {
		t.Fatalf("the patterns do not tell the test's games apart: %q, %q", rook, both)
	}
	p.open(f.g1, 0)
	before := p.eval(listIDs)
	p.clickCSS("more filters", `#more summary`)
	p.clickCSS("the pattern form", `#patform summary`)
	p.waitJS("the form's board", `document.querySelector('#pf-board [data-sq="f2"]') !== null && document.querySelector('#pf-game').value === 'ogi'`)
	p.run("Sente's rook", chromedp.SetValue(chromedp.CSS(`#pf-side`), "0"), chromedp.SetValue(chromedp.CSS(`#pf-piece`), "R"))
	p.run("click f2", chromedp.Click(chromedp.CSS(`#pf-board [data-sq="f2"]`)))
	p.waitJS("the field holds the term", `document.querySelector('#f-pattern').value === 'Sente:R@f2'`)
	p.waitJS("the list of the rook on f2", listIDs+` === '`+rook+`' && `+listIDs+` !== '`+before+`'`)
	p.run("Sente's pawn", chromedp.SetValue(chromedp.CSS(`#pf-piece`), "P"))
	p.run("click h4", chromedp.Click(chromedp.CSS(`#pf-board [data-sq="h4"]`)))
	p.waitJS("both terms", `document.querySelector('#f-pattern').value === 'Sente:R@f2 Sente:P@h4'`)
	p.waitJS("the list of both", listIDs+` === '`+both+`' && document.querySelectorAll('#pf-board .pfmark').length === 2`)
	// A material count row writes its term; clicking h4 again takes the
	// pawn off.
	p.clickCSS("add a count", `#pf-addmat`)
	p.waitJS("the count's term", `/^Sente:R@f2 Sente:P@h4 Sente:[A-Z*]>=1$/.test(document.querySelector('#f-pattern').value) && document.querySelector('#pf-material .pf-count') !== null`)
	p.run("pawns on the board ≥ 9", chromedp.SetValue(chromedp.CSS(`#pf-material .pf-count select:nth-of-type(2)`), "P"),
		chromedp.SetValue(chromedp.CSS(`#pf-material .pf-count input`), "9"),
		evalJS(`document.querySelector('#pf-material .pf-count input').dispatchEvent(new Event('change'))`))
	p.waitJS("the count in the field", `document.querySelector('#f-pattern').value === 'Sente:R@f2 Sente:P@h4 Sente:P>=9'`)
	p.waitJS("no game has nine pawns on the board", listIDs+` === '`+f.patternIDs(t, "Sente:R@f2 Sente:P@h4 Sente:P>=9")+`'`)
	p.run("scroll the list up", evalJS(`document.querySelector('#listbox').scrollTop = 0`))
	p.screenshot(filepath.Join(f.shots, "pattern-form.png"), chromedp.FullScreenshot(100))
	p.clickCSS("remove the count", `#pf-material .pf-count button`)
	p.run("click h4 again", chromedp.Click(chromedp.CSS(`#pf-board [data-sq="h4"]`)))
	p.waitJS("the pawn is off", `document.querySelector('#f-pattern').value === 'Sente:R@f2'`)
	p.waitJS("the list of the rook on f2 again", listIDs+` === '`+rook+`'`)
}

// browserBoards screenshots each ruleset's board, for a person to look
// at, and checks the piece legends: Ōgi's and Jetan's, opened for the
// screenshot; none for the disc games.
func browserBoards(p *browserPage, f *browserFixture) {
	for _, id := range f.rulesets {
		l, err := f.src.List(context.Background(), web.ListQuery{Game: id, Valid: "valid", Limit: 1})
		if err != nil || len(l.Games) == 0 {
			continue
		}
		p.open(l.Games[0].N, min(l.Games[0].Plies, 12))
		p.waitJS("tree of "+id, `document.querySelector('#tree tbody tr') !== null && document.querySelector('#posgames tbody tr') !== null`)
		legend := map[string]string{"ogi": "+RDragon 龍", "jetan": "APadwar"}[id]
		if legend != "" {
			p.waitJS("legend of "+id, `(() => { const l = document.querySelector('#legend'); l.open = true; return !l.hidden && [...l.querySelectorAll('li')].some(e => e.textContent.replace(/\s/g, '') === '`+strings.ReplaceAll(legend, " ", "")+`') })()`)
		} else {
			p.waitJS("no legend for "+id, `document.querySelector('#legend').hidden`)
		}
		// The whole page once, the game's part for the others (faster).
		shot := chromedp.FullScreenshot(100)
		if id != "ogi" {
			shot = chromedp.Screenshot(chromedp.CSS("#game"))
		}
		name := filepath.Join(f.shots, "board-"+url.PathEscape(id)+".png")
		if !strings.HasSuffix(name, ".png") {
			p.t.Fatalf("%s: no screenshot name", id)
		}
		p.screenshot(name, shot)
	}
}
