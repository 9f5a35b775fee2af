package main

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/plateau/plateau/replay/web"
	"github.com/plateau/plateau/rules"
)

// TestBrowserSetup drives the position set-up editor in headless Chromium
// (issue 43) on Ōgi (hands), Le loup et les moutons (a draughts ruleset)
// and Dejarik (the circular board): pieces placed and removed by clicks,
// the side to move, the string kept in step both ways, the rules' refusal
// shown, a position search and a game started from the set-up and saved;
// then every ruleset's start in the editor, a piece placed on it.
// Screenshots go to $PLATEAU_SCREENSHOTS or the test's temp dir.
func TestBrowserSetup(t *testing.T) {
	bin := chromium(t)
	db := editDB(t, filepath.Join(samples, "ogi", "osaka-club.pdn"), filepath.Join(samples, "loup-moutons"), filepath.Join(samples, "dejarik"))
	srv := newEditServer(t, db)
	shots := screenshotDir(t)
	p := newBrowserPage(t, bin, srv.URL, 1400, 950)
	p.run("open with the token", chromedp.Navigate(srv.URL+"/?token="+browserToken))
	p.waitJS("rulesets read", `rulesets.length > 3 && document.querySelector('#list tbody tr') !== null`)
	p.run("watch the policy", evalJS(`window.__csp = []; document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI))`))
	setupOgi(p, shots)
	setupLoup(p, shots)
	setupDejarik(p, shots)
	setupEvery(p, shots)
	p.cspClean()
}

// Set-up helpers: the palette's piece, the remove tool, a square of the
// set-up board, a hand's button.
func (p *browserPage) suTool(side int, kind string, promoted bool) {
	p.t.Helper()
	pr := "0"
	if promoted {
		pr = "1"
	}
	p.clickCSS("palette "+kind, fmt.Sprintf(`#su-palette .su-pc[data-side="%d"][data-kind="%s"][data-promoted="%s"]`, side, kind, pr))
	p.waitJS("tool "+kind, fmt.Sprintf(`su.tool && su.tool.side === %d && su.tool.kind === '%s'`, side, kind))
}

func (p *browserPage) suRemoveTool() {
	p.t.Helper()
	p.clickCSS("remove tool", `#su-remove`)
	p.waitJS("remove tool on", `su.tool && su.tool.remove`)
}

// suClick clicks square sq of the set-up board where the pointer would:
// on the piece drawn there, if any (the click goes through to the square).
func (p *browserPage) suClick(sq string) {
	p.t.Helper()
	p.run("click "+sq, evalJS(fmt.Sprintf(`(() => {
		const r = document.querySelector('#su-board [data-sq="%s"]').getBoundingClientRect();
		document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).dispatchEvent(new MouseEvent('click', { bubbles: true }));
	})()`, sq)))
}

// suWait waits for the editor's answer: its string and validity.
func (p *browserPage) suWait(what, cond string) {
	p.t.Helper()
	p.waitJS(what, `document.querySelector('#su-fen').value === su.position && (`+cond+`)`)
}

func (p *browserPage) suType(text string) {
	p.t.Helper()
	p.run("type "+text, evalJS(fmt.Sprintf(`(() => { const f = document.querySelector('#su-fen'); f.value = %q; f.dispatchEvent(new Event('input')); })()`, text)))
}

func (p *browserPage) suGame(id string) {
	p.t.Helper()
	p.run("ruleset "+id, evalJS(fmt.Sprintf(`(() => { const s = document.querySelector('#su-game'); s.value = %q; s.dispatchEvent(new Event('change')); })()`, id)))
}

// after is the position string of game id after the moves from its start.
func after(t *testing.T, id string, moves ...string) string {
	t.Helper()
	g, err := rules.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.NewPosition("")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		mv, err := pos.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		pos.Play(mv)
	}
	return pos.String()
}

// suSearch searches the position set up and waits for games in the list.
func (p *browserPage) suSearch(what string, atPly int) {
	p.t.Helper()
	p.clickCSS("search "+what, `#su-search:not([disabled])`)
	p.waitJS("games found: "+what, fmt.Sprintf(`!document.querySelector('#searchinfo').hidden && document.querySelector('#searchtext').textContent.includes('set up') && document.querySelectorAll('#list tbody tr[data-n]').length > 0 && [...document.querySelectorAll('#list tbody td.plycol')].every(e => e.textContent === '%d')`, atPly))
}

// suStart starts a game from the position set up, plays move on it and
// saves it; the game stored has the position in its FEN tag.
func (p *browserPage) suStart(id, move string) {
	p.t.Helper()
	fen := p.eval(`su.position`)
	p.clickCSS("start a game", `#su-play:not([disabled])`)
	p.waitJS("explorer on the set-up", fmt.Sprintf(`!!(game && game.explorer && game.game === %q && game.nodes[0].fen === su.position && document.querySelector('#setup').hidden && !document.querySelector('#editbox').hidden)`, id))
	if tags := p.eval(`game.tags.map(t => t.join('=')).join(' ')`); !strings.Contains(tags, "FEN="+fen) || !strings.Contains(tags, "SetUp=1") {
		p.t.Errorf("%s: tags of the game started %q, want FEN %q and SetUp", id, tags, fen)
	}
	p.run("play "+move, evalJS(fmt.Sprintf(`play(%q)`, move)))
	p.waitJS("played "+move, fmt.Sprintf(`game.nodes.length === 2 && game.nodes[1].move === %q`, move))
	p.clickCSS("save as new", `#ed-save`)
	p.waitJS("saved "+id, `!game.explorer && game.revision === 1 && game.plies === 1`)
	resp, err := http.Get(p.url + "/api/games/" + p.eval(`String(game.n)`) + "/record")
	if err != nil {
		p.t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		p.t.Fatal(err)
	}
	rec := string(b)
	if !strings.Contains(rec, `[FEN "`+fen+`"]`) || !strings.Contains(rec, `[SetUp "1"]`) || !strings.Contains(rec, move) {
		p.t.Errorf("%s: the record stored:\n%s\nwant the FEN %q, SetUp and %s", id, rec, fen, move)
	}
}

// setupOgi: the start, the Rook moved by a removal and a placement,
// Gote to move: the string is the position after Rg2-f2, and the search
// finds the club's games at ply 1; a typed string drawn; a Gote pawn
// taken into Sente's hand; a 17th pawn refused by the rules; a game
// started and saved.
func setupOgi(p *browserPage, shots string) {
	t := p.t
	p.clickCSS("set up", `#su-open`)
	start := after(t, "ogi")
	p.suWait("Ōgi's start", fmt.Sprintf(`su.valid && su.game === 'ogi' && su.position === %q && document.querySelectorAll('#su-board .su-on').length === 36`, start))
	if v := p.eval(`[...document.querySelectorAll('#su-palette .su-pc[data-side="0"]')].map(b => (b.dataset.promoted === '1' ? '+' : '') + b.dataset.kind).join(' ')`); v != "K I +I R +R B +B S +S N +N L +L P +P" {
		t.Errorf("Sente's palette %q: every piece, promoted too, but the King", v)
	}
	p.suRemoveTool()
	p.suClick("g2")
	p.suWait("the Rook off g2", `su.valid && su.position.startsWith('lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B6/')`)
	p.suTool(0, "R", false)
	p.suClick("f2")
	p.suWait("the Rook on f2", `su.valid && su.position.includes('/1B3R2/')`)
	p.clickCSS("Gote to move", `#su-tomove-1`)
	// The move number and the quiet-ply count are the start's.
	want := strings.Join(strings.Fields(after(t, "ogi", "Rg2-f2"))[:3], " ") + " 1"
	p.suWait("after Rg2-f2", fmt.Sprintf(`su.position === %q`, want))
	p.suSearch("Ōgi after Rg2-f2", 1)

	// String to board, and a string the rules cannot read.
	p.suType("4k3/8/8/8/8/8/8/4K3 b 2P 1")
	p.suWait("the typed position drawn", `su.valid && document.querySelectorAll('#su-board .su-on').length === 2 && document.querySelector('#su-hands [data-count="0P"]').textContent === '2' && document.querySelector('#su-tomove-0').checked`)
	p.suType("4k3/8 b - 1")
	p.waitJS("the fault named", `document.querySelector('#su-msg').className === 'bad' && document.querySelector('#su-msg').textContent.includes('want 8 ranks') && document.querySelectorAll('#su-board .su-on').length === 2`)
	p.suType("lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1")
	p.suWait("the start typed", `su.valid && document.querySelectorAll('#su-board .su-on').length === 36`)

	// Hands: a Gote pawn taken, in Sente's hand; then one more is a 17th.
	p.suRemoveTool()
	p.suClick("e6")
	p.clickCSS("a pawn into Sente's hand", `#su-hands button[data-hand="0P"][data-d="1"]`)
	p.suWait("the pawn in hand", `su.valid && / b P 1$/.test(su.position) && document.querySelector('#su-hands [data-count="0P"]').textContent === '1'`)
	p.clickCSS("one more pawn", `#su-hands button[data-hand="0P"][data-d="1"]`)
	p.suWait("a 17th pawn refused", `!su.valid && / b 2P 1$/.test(su.position) && document.querySelector('#su-msg').textContent.includes('more than 16 pieces of kind P') && document.querySelector('#su-play').disabled`)
	p.screenshot(filepath.Join(shots, "setup-ogi-refused.png"), chromedp.CaptureScreenshot())
	p.clickCSS("one pawn less", `#su-hands button[data-hand="0P"][data-d="-1"]`)
	p.suWait("valid again", `su.valid && / b P 1$/.test(su.position) && !document.querySelector('#su-play').disabled`)
	p.clickCSS("a promoted Rook into Gote's hand", `#su-hands button[data-hand="1+R"][data-d="1"]`)
	p.suWait("kept promoted by the King's privilege", `!su.valid && / b P\+r 1$/.test(su.position) && document.querySelector('#su-msg').textContent.includes('more than 2 pieces of kind R')`)
	p.suRemoveTool()
	p.suClick("b7")
	p.suWait("Gote's Rook taken off the board", `su.valid && su.position.startsWith('lnsiksnl/6b1/') && / b P\+r 1$/.test(su.position)`)
	p.screenshot(filepath.Join(shots, "setup-ogi.png"), chromedp.CaptureScreenshot())
	p.suStart("ogi", "Pd3-d4")
}

// setupLoup: the start searched; a second wolf refused, removed by a
// click on it; a sheep moved; the side to move; a game started there.
func setupLoup(p *browserPage, shots string) {
	t := p.t
	p.clickCSS("set up", `#su-open`)
	p.suGame("loup-moutons")
	g, err := rules.Lookup("loup-moutons")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.NewPosition("")
	if err != nil {
		t.Fatal(err)
	}
	start := pos.String()
	var wolf, sheep, free string
	taken := map[string]bool{}
	for _, pl := range pos.Board() {
		taken[pl.Square] = true
		if pl.Side == 1 {
			wolf = pl.Square
		} else if sheep == "" {
			sheep = pl.Square
		}
	}
	for _, c := range web.GeometryOf("loup-moutons", pos).Cells {
		if c.Name != "" && !taken[c.Name] && free == "" && c.Name > "10" && len(c.Name) == 2 {
			free = c.Name
		}
	}
	if wolf == "" || sheep == "" || free == "" {
		t.Fatalf("loup-moutons start %q: wolf %q, sheep %q, free %q", start, wolf, sheep, free)
	}
	p.suWait("the start", fmt.Sprintf(`su.valid && su.game === 'loup-moutons' && su.position === %q`, start))
	p.suSearch("loup-moutons' start", 0)
	p.suTool(1, "M", false)
	p.suClick(free)
	p.suWait("a second wolf refused", `!su.valid && document.querySelector('#su-msg').textContent.includes('exactly one wolf') && document.querySelector('#su-search').disabled`)
	p.screenshot(filepath.Join(shots, "setup-loup-refused.png"), chromedp.CaptureScreenshot())
	p.suClick(free)
	p.suWait("the second wolf removed by a click on it", fmt.Sprintf(`su.valid && su.position === %q`, start))
	p.suRemoveTool()
	p.suClick(sheep)
	p.suTool(0, "M", false)
	p.suClick(free)
	p.suWait("a sheep moved", fmt.Sprintf(`su.valid && su.position.includes(%q) && !su.position.includes('W%s,') && su.pieces.length === %d`, free, sheep, len(pos.Board())))
	other := "W"
	if strings.HasPrefix(start, "W") {
		other = "B"
	}
	p.clickCSS("the other side to move", `#su-tomove input:not(:checked)`)
	p.suWait("the other side to move", fmt.Sprintf(`su.valid && su.position.startsWith(%q)`, other+":"))
	p.screenshot(filepath.Join(shots, "setup-loup.png"), chromedp.CaptureScreenshot())
	set, err := g.NewPosition(p.eval(`su.position`))
	if err != nil {
		t.Fatal(err)
	}
	l := set.Legal(nil)
	if len(l) == 0 {
		t.Fatalf("no move from %s", set)
	}
	p.suStart("loup-moutons", set.FormatMove(l[0]))
}

// setupDejarik: the position after White's first move typed (its first
// turn spent, :FB), drawn and searched; a pawn taken off an inner cell
// and put on the centre; White to move; a game started.
func setupDejarik(p *browserPage, shots string) {
	t := p.t
	p.clickCSS("set up", `#su-open`)
	p.suGame("dejarik")
	p.suWait("Dejarik's start", fmt.Sprintf(`su.valid && su.game === 'dejarik' && su.position === %q`, after(t, "dejarik")))
	typed := after(t, "dejarik", "o2-i2")
	p.suType(typed)
	p.suWait("the typed position drawn", fmt.Sprintf(`su.valid && su.position === %q && document.querySelector('#su-board [data-on="i2"]') !== null && document.querySelector('#su-board [data-on="o2"]') === null && document.querySelector('#su-tomove-1').checked`, typed))
	p.suSearch("Dejarik after o2-i2", 1)
	p.suRemoveTool()
	p.suClick("i2")
	p.suWait("the pawn off i2", `su.valid && !su.position.includes('i2') && su.position.endsWith(':FB')`)
	p.suTool(0, "P", false)
	p.suClick("c")
	p.suWait("a pawn on the centre", `su.valid && su.position.startsWith('B:Wc,o1,o3,o4:')`)
	p.clickCSS("White to move", `#su-tomove-0`)
	p.suWait("White to move", `su.valid && su.position.startsWith('W:Wc,o1,o3,o4:')`)
	p.screenshot(filepath.Join(shots, "setup-dejarik.png"), chromedp.CaptureScreenshot())
	p.suStart("dejarik", "c-o2")
}

// setupEvery opens every ruleset's start in the editor, every piece of
// its start drawn, and places a piece of the first side on an empty
// square: the rules write a string holding it (valid or not, said).
func setupEvery(p *browserPage, shots string) {
	t := p.t
	p.clickCSS("set up", `#su-open`)
	for _, r := range web.Rulesets() {
		g, err := rules.Lookup(r.ID)
		if err != nil {
			t.Fatal(err)
		}
		start, err := g.NewPosition("")
		if err != nil {
			t.Fatal(err)
		}
		taken := map[string]bool{}
		for _, pl := range start.Board() {
			taken[pl.Square] = true
		}
		free := ""
		for _, c := range r.Geometry.Cells {
			if c.Name != "" && !taken[c.Name] {
				free = c.Name
				break
			}
		}
		p.suGame(r.ID)
		p.suWait(r.ID+"'s start", fmt.Sprintf(`su.valid && su.game === %q && su.position === %q && document.querySelectorAll('#su-board .su-on').length === %d`, r.ID, start.String(), len(start.Board())))
		if free == "" || len(r.Pieces) == 0 {
			t.Errorf("%s: no empty square (%q) or no piece (%v) to set up", r.ID, free, r.Pieces)
			continue
		}
		p.suTool(0, r.Pieces[len(r.Pieces)-1].Kind, !r.Pieces[len(r.Pieces)-1].Plain)
		p.suClick(free)
		p.suWait(r.ID+": a piece placed on "+free, fmt.Sprintf(`su.position !== %q && su.position !== '' && document.querySelector('#su-board [data-on="%s"]') !== null && document.querySelector('#su-msg').className === (su.valid ? 'ok' : 'bad')`, start.String(), free))
		if r.ID == "jetan" {
			p.screenshot(filepath.Join(shots, "setup-jetan.png"), chromedp.CaptureScreenshot())
		}
	}
	p.clickCSS("statistics", `#n-stats`)
	p.waitJS("the statistics in the editor's place", `document.querySelector('#setup').hidden && !document.querySelector('#people').hidden`)
	p.clickCSS("set up again", `#su-open`)
	p.waitJS("the editor in the statistics' place", `!document.querySelector('#setup').hidden && document.querySelector('#people').hidden`)
}
