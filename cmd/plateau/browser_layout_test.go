package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/plateau/plateau/replay/web"
)

// layoutSize is a screen the page must fit: a desktop one shows the
// board, the moves and the opening tree at once without scrolling the
// page; a phone one shows everything in one column, nothing wider than
// the screen.
type layoutSize struct {
	w, h    int
	desktop bool
}

// TestBrowserLayout opens a game at 1366×768, 1920×1080 and 400×800 and
// checks where the page puts things (getBoundingClientRect): the board,
// the moves and the tree within the screen on a desktop, no horizontal
// overflow on a phone, where a finger dragging a piece moves it without
// scrolling the page; the ply column of a position search in sight; the
// tree's win / draw / loss bars. It screenshots each size into
// $PLATEAU_SCREENSHOTS or the test's temp dir, for a person to look at.
func TestBrowserLayout(t *testing.T) {
	bin := chromium(t)
	f := newBrowserFixture(t)
	for _, s := range []layoutSize{{1366, 768, true}, {1920, 1080, true}, {400, 800, false}} {
		name := fmt.Sprintf("%dx%d", s.w, s.h)
		t.Run(name, func(t *testing.T) {
			p := newBrowserPage(t, bin, f.srv.URL, s.w, s.h)
			p.run("viewport", chromedp.EmulateViewport(int64(s.w), int64(s.h)))
			p.open(f.g1, 0)
			p.run("ply 4", clickMove("Pf6-f5"))
			// The tree and the games of ply 4 (those of the start stay until
			// they come).
			p.waitJS("the tree of ply 4", browserStatus+`.includes('ply 4') && [...document.querySelectorAll('#tree td.mv')].some(e => e.textContent === 'Ph3-h4') && /^· 3 occurrences/.test(document.querySelector('#poscount').textContent)`)
			p.screenshot(filepath.Join(f.shots, "layout-"+name+".png"), chromedp.CaptureScreenshot())
			if !s.desktop {
				p.screenshot(filepath.Join(f.shots, "layout-"+name+"-page.png"), chromedp.FullScreenshot(100))
			}
			layoutFits(p, s)
			layoutPlyColumn(p, name, f)
			if !s.desktop {
				layoutTouch(p, s)
				layoutSetup(p, s, name, f)
			}
			layoutTreeBars(p, name, f)
			if s.w == 1366 {
				layoutReadme(p, f)
			}
			p.cspClean()
		})
	}
}

// layoutReadme screenshots, for the README (docs/explorer.png), an Ōgi
// sample game with comments and variations at its start: the list of the
// Ōgi games, the board, the moves and the opening tree on one screen.
func layoutReadme(p *browserPage, f *browserFixture) {
	t := p.t
	t.Helper()
	l, err := f.src.List(context.Background(), web.ListQuery{Game: "ogi", Valid: "valid", Limit: 100,
		Criteria: url.Values{"event": {"Ōsaka summer club"}, "player": {"Morel"}}.Encode()})
	if err != nil || len(l.Games) == 0 {
		t.Fatalf("the README's game: %+v, %v", l, err)
	}
	p.open(l.Games[0].N, 0)
	p.run("list the Ōgi games", chromedp.SetValue(chromedp.CSS(`#gamefilter`), "ogi"),
		evalJS(`document.querySelector('#gamefilter').dispatchEvent(new Event('change'))`))
	p.waitJS("the README's page", `document.querySelector('#h-white').textContent === 'sente' && document.querySelector('#list tbody tr.open') !== null && document.querySelectorAll('#tree tr.tmove').length > 5 && document.querySelector('#posgames tr.pgame') !== null`)
	p.screenshot(filepath.Join(f.shots, "explorer.png"), chromedp.CaptureScreenshot())
}

// layoutRect is the bounding rectangle of the element sel, as
// "left top right bottom" (integers), or "none".
func layoutRect(p *browserPage, sel string) string {
	return p.eval(`(() => { const e = document.querySelector('` + sel + `'); if (!e) return 'none';
		const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom].map(Math.round).join(' ') })()`)
}

// layoutFits checks the page against the screen: nothing wider than it;
// on a desktop the board, its buttons, the moves, the tree's head and
// first move within it and the page not scrolled; on a phone the game
// (scrolled to when opened) as wide as the screen, its board within it.
func layoutFits(p *browserPage, s layoutSize) {
	t := p.t
	t.Helper()
	if v := p.eval(`document.documentElement.scrollWidth + ' ' + innerWidth + ' ' + innerHeight`); v != fmt.Sprintf("%d %d %d", s.w, s.w, s.h) {
		t.Errorf("page width, screen width and height %q, want %d %d %d", v, s.w, s.w, s.h)
	}
	within := func(sel string) {
		t.Helper()
		var l, top, r, b int
		rect := layoutRect(p, sel)
		if _, err := fmt.Sscan(rect, &l, &top, &r, &b); err != nil {
			t.Errorf("%s: no element (%s)", sel, rect)
			return
		}
		if l < 0 || top < 0 || r > s.w || b > s.h || r-l < 20 || b-top < 8 {
			t.Errorf("%s at %s: not within the %d×%d screen", sel, rect, s.w, s.h)
		}
	}
	if s.desktop {
		for _, sel := range []string{`#board svg`, `#controls`, `#moves`, `#tree thead`, `#tree tbody tr.tmove`, `#listbox`} {
			within(sel)
		}
		if v := p.eval(`String(document.documentElement.scrollHeight)`); v != fmt.Sprint(s.h) {
			t.Errorf("page height %s: the page scrolls at %d×%d", v, s.w, s.h)
		}
		return
	}
	within(`#board svg`)
	within(`#controls`)
	var l, top, r, b int
	if _, err := fmt.Sscan(layoutRect(p, `#game`), &l, &top, &r, &b); err != nil || r-l < s.w-40 {
		t.Errorf("the game is %d px wide on a %d px screen", r-l, s.w)
	}
	for _, sel := range []string{`#moves`, `#tree`, `#listbox`, `#filters`} {
		if _, err := fmt.Sscan(layoutRect(p, sel), &l, &top, &r, &b); err != nil || l < 0 || r > s.w || r-l < s.w-60 {
			t.Errorf("%s at %d..%d on a %d px screen", sel, l, r, s.w)
		}
	}
}

// layoutPlyColumn searches the position of the board and checks that the
// list shows the ply of each game second, within the list's box.
func layoutPlyColumn(p *browserPage, name string, f *browserFixture) {
	p.clickCSS("search the position", `#a-search`)
	p.waitJS("position search", fmt.Sprintf(`!document.querySelector('#searchinfo').hidden && document.querySelector('#list tbody tr[data-n="%d"] td.plycol') !== null`, f.g1))
	if v := p.eval(fmt.Sprintf(`document.querySelector('#list tbody tr[data-n="%d"] td.plycol').textContent`, f.g1)); v != "4" {
		p.t.Errorf("the ply of game %d: %q, want 4", f.g1, v)
	}
	box, head := layoutRect(p, `#listbox`), layoutRect(p, `#list thead th.plycol`)
	var bl, bt, br, bb, hl, ht, hr, hb int
	if _, err := fmt.Sscan(box+" "+head, &bl, &bt, &br, &bb, &hl, &ht, &hr, &hb); err != nil || hl < bl || hr > br {
		p.t.Errorf("the ply column at %s, the list's box at %s: out of sight", head, box)
	}
	if v := p.eval(`[...document.querySelectorAll('#list thead th')].map(e => e.textContent).slice(0, 2).join('|')`); !strings.HasPrefix(v, "#|at ply") {
		p.t.Errorf("the position search's first columns: %q", v)
	}
	p.screenshot(filepath.Join(f.shots, "layout-"+name+"-search.png"), chromedp.CaptureScreenshot())
	p.clickCSS("clear the search", `#s-clear`)
	p.waitJS("the whole list again", `document.querySelector('#searchinfo').hidden && document.querySelector('#list thead th.plycol') === null`)
}

// layoutTreeBars: the tree of Dejarik's start, whose sample games score
// wins, draws (1-1, and 0-0 series: o4-c's two games) and other points;
// every bar's segments are the move's wins, draws and losses as the API
// gives them, fill the bar, and their shares add up to 100 %; no text
// says NaN.
func layoutTreeBars(p *browserPage, name string, f *browserFixture) {
	t := p.t
	t.Helper()
	p.navigate("Dejarik's start", "explore/dejarik/")
	p.waitJS("the tree of Dejarik's start", `game !== null && game.game === 'dejarik' && [...document.querySelectorAll('#tree td.mv')].some(e => e.textContent === 'o4-c')`)
	p.screenshot(filepath.Join(f.shots, "layout-"+name+"-dejarik.png"), chromedp.CaptureScreenshot())
	var api []web.TreeMove
	resp, err := http.Get(f.srv.URL + "/api/tree?game=dejarik&fen=")
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&api)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	bars := p.eval(`JSON.stringify([...document.querySelectorAll('#tree tr.tmove')].map(tr => {
		const bar = tr.querySelector('.wdl'), segs = [...bar.querySelectorAll('.seg[data-pct]')];
		const w = segs.reduce((a, s) => a + s.getBoundingClientRect().width, 0);
		const n = c => +(bar.querySelector('.seg.' + c)?.dataset.n || 0);
		return {move: tr.querySelector('td.mv').textContent, wdl: [n('w0'), n('dr'), n('w1')],
			short: Math.round(bar.getBoundingClientRect().width - w), pct: segs.reduce((a, s) => a + +s.dataset.pct, 0),
			score: tr.querySelector('td.t-score').textContent};
	}))`)
	var rows []struct {
		Move       string
		WDL        [3]int
		Short, Pct int
		Score      string
	}
	if err := json.Unmarshal([]byte(bars), &rows); err != nil || len(rows) != len(api) || len(rows) < 3 {
		t.Fatalf("the tree's bars: %s (%v), the API's %d moves", bars, err, len(api))
	}
	for i, r := range rows {
		m := api[i]
		if m.Wins == nil {
			t.Fatalf("%s: no wins from the API", m.Move)
		}
		want := [3]int{m.Wins[0], m.Scored - m.Wins[0] - m.Wins[1], m.Wins[1]}
		if r.Move != m.Move || r.WDL != want || r.Short < -1 || r.Short > 1 || r.Pct != 100 {
			t.Errorf("%s: won, drawn, lost %v (the API: %v), %d px short of the bar, shares adding to %d%%", r.Move, r.WDL, want, r.Short, r.Pct)
		}
		if m.Move == "o4-c" && (want != [3]int{0, 2, 0} || r.Score != "–") {
			t.Errorf("o4-c, two 0-0 series: %v, score %q, want two draws and –", want, r.Score)
		}
	}
	if v := p.eval(`[document.body.innerText, ...[...document.querySelectorAll('[title]')].map(e => e.title)].join('\\n').match(/.{0,20}NaN.{0,20}/g)?.join(' | ') || ''`); v != "" {
		t.Errorf("the page says NaN: %s", v)
	}
}

// layoutTouch drags a piece with a finger (touch events, as a phone sends
// them) on the board of a one-column page: the move is played and the page
// does not scroll (the board's touch-action), while the same gesture on the
// text under the board scrolls it (so that the check can fail).
func layoutTouch(p *browserPage, s layoutSize) {
	t := p.t
	t.Helper()
	p.run("touch", chromedp.EmulateViewport(int64(s.w), int64(s.h), chromedp.EmulateTouch))
	v, err := web.View(p.eval(`game.game`), p.eval(`game.nodes[at].fen`), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var mv web.LegalMove
	for _, m := range v.Legal {
		if m.From != "" && m.To != "" && m.From[0] == m.To[0] { // a straight move up or down the board
			mv = m
			break
		}
	}
	if mv.Move == "" {
		t.Fatalf("no move along a file in %s", v.Node.FEN)
	}
	centre := func(sel string) (x, y float64) {
		t.Helper()
		var l, top, r, b int
		if _, err := fmt.Sscan(layoutRect(p, sel), &l, &top, &r, &b); err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return float64(l+r) / 2, float64(top+b) / 2
	}
	scrolled := func() string { return p.eval(`String(Math.round(document.scrollingElement.scrollTop))`) }
	x0, y0 := centre(`#board [data-sq="` + mv.From + `"]`)
	x1, y1 := centre(`#board [data-sq="` + mv.To + `"]`)
	before, plies := scrolled(), p.eval(`String(game.nodes.length)`)
	p.run("drag "+mv.Move+" with a finger", touchDrag(x0, y0, x1, y1)...)
	p.waitJS("the move dragged played", `game.nodes[at].move === '`+mv.Move+`' && game.nodes.length === `+plies+` + 1`)
	if after := scrolled(); after != before {
		t.Errorf("dragging %s with a finger scrolled the page from %s to %s px", mv.Move, before, after)
	}
	// The control: the same gesture on the position text under the board.
	fx, fy := centre(`#fen`)
	p.run("the same gesture on the text", touchDrag(fx, fy, fx, fy+(y1-y0))...)
	p.waitJS("the text scrolls the page", `String(Math.round(document.scrollingElement.scrollTop)) !== '`+before+`'`)
}

// touchDrag is a finger put down at x0, y0, moved in steps to x1, y1 and
// lifted.
func touchDrag(x0, y0, x1, y1 float64) []chromedp.Action[chromedp.Void] {
	touch := func(typ input.DispatchTouchEventType, pts ...*input.TouchPoint) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
			return err
		})
	}
	acts := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, &input.TouchPoint{X: x0, Y: y0})}
	const steps = 8
	for i := 1; i <= steps; i++ {
		f := float64(i) / steps
		acts = append(acts, chromedp.Sleep(30*time.Millisecond), touch(input.DispatchTouchEventTypeTouchMove, &input.TouchPoint{X: x0 + f*(x1-x0), Y: y0 + f*(y1-y0)}))
	}
	return append(acts, chromedp.Sleep(30*time.Millisecond), touch(input.DispatchTouchEventTypeTouchEnd))
}

// layoutSetup opens the position set-up editor on a phone: nothing wider
// than the screen, its board as wide as the screen allows.
func layoutSetup(p *browserPage, s layoutSize, name string, f *browserFixture) {
	t := p.t
	t.Helper()
	p.clickCSS("set up", `#su-open`)
	p.waitJS("the set-up editor", `!document.querySelector('#setup').hidden && su.valid && document.querySelectorAll('#su-board .su-on').length > 0`)
	p.run("to the editor", evalJS(`document.querySelector('#setup').scrollIntoView()`))
	p.screenshot(filepath.Join(f.shots, "layout-"+name+"-setup.png"), chromedp.CaptureScreenshot())
	if v := p.eval(`String(document.documentElement.scrollWidth)`); v != fmt.Sprint(s.w) {
		t.Errorf("with the set-up editor the page is %s px wide on a %d px screen", v, s.w)
	}
	var l, top, r, b int
	if _, err := fmt.Sscan(layoutRect(p, `#su-board svg`), &l, &top, &r, &b); err != nil || l < 0 || r > s.w || r-l < s.w-60 {
		t.Errorf("the set-up board at %d..%d on a %d px screen", l, r, s.w)
	}
	p.clickCSS("close the editor", `#su-close`)
	p.waitJS("the game again", `document.querySelector('#setup').hidden && !document.querySelector('#game').hidden`)
}
