package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

const browserToken = "browser-token"

// TestBrowserEdit drives the writing half of the page in headless
// Chromium (issue 43): the token link, a comment and a NAG added, a
// variation played on the board and deleted, a variation promoted, the Date tag set in the form, saved; the page
// reloaded shows revision 2 with them; a save made meanwhile elsewhere is
// a conflict the page names; a game entered on the explorer board (a move
// dragged, one clicked) is saved as a new game; records pasted are
// imported; an invalid game is corrected from its broken move's legal
// moves and saved valid.
func TestBrowserEdit(t *testing.T) {
	bin := chromium(t)
	ctx := context.Background()
	db := editDB(t, filepath.Join(samples, "ogi", "osaka-club.pdn"))
	srv := newEditServer(t, db)
	shots := screenshotDir(t)
	p := newBrowserPage(t, bin, srv.URL, 1500, 1000)

	p.run("open with the token", chromedp.Navigate(srv.URL+"/?token="+browserToken+"#1/0"))
	p.waitJS("game 1 open for editing", `game !== null && game.n === 1 && game.revision === 1 && !document.querySelector('#editbox').hidden`)
	if got := p.eval(`location.search + '|' + sessionStorage.getItem('plateau-token')`); got != "|"+browserToken {
		t.Errorf("token: address and storage %q, want it out of the address and kept", got)
	}
	p.run("watch the policy", evalJS(`window.__csp = []; document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI))`))
	browserAnnotate(p, shots)

	// Saved meanwhile by another writer: the page is told, nothing lost.
	if _, err := db.SaveRecord(ctx, 1, []byte(p.eval(`'[Game "ogi"]\n[Event "elsewhere"]\n\n1. Rg2-f2 *\n'`)), 2); err != nil {
		t.Fatal(err)
	}
	p.run("first move", clickMove("Rg2-f2"))
	p.clickCSS("a NAG on the first move", `#editbox .ed-nag[data-nag="?"]`)
	p.clickCSS("save", `#ed-save`)
	p.waitJS("conflict named", `document.querySelector('#ed-status').textContent.includes('revision 3') && document.querySelector('#ed-reload') !== null`)

	browserEnter(p, shots)
	browserPaste(p)
	browserCorrect(p)
	browserCorrectResult(p, shots)
	p.cspClean()
}

// browserAnnotate annotates game 1, saves it and reloads it.
func browserAnnotate(p *browserPage, shots string) {
	p.run("first move", clickMove("Rg2-f2"))
	p.waitJS("comment box", `at > 0 && document.querySelector('#ed-after') !== null`)
	p.run("comment", evalJS(`(() => { const t = document.querySelector('#ed-after'); t.value = 'A quiet start.'; t.dispatchEvent(new Event('input')); })()`))
	p.clickCSS("NAG !?", `#editbox .ed-nag[data-nag="!?"]`)
	p.waitJS("NAG shown", `[...document.querySelectorAll('#moves .move')].some(e => e.textContent === 'Rg2-f2 !?')`)
	// A variation played on the board, then deleted.
	p.run("a move off the main line", evalJS(`go(0); play('Sf1-f2')`))
	p.waitJS("local variation", `game.nodes[at].move === 'Sf1-f2' && document.querySelector('#moves .var .local') !== null`)
	p.clickCSS("delete the variation", `#ed-delvar:not([disabled])`)
	p.waitJS("variation deleted", `at === 0 && !document.querySelector('#moves').textContent.includes('Sf1-f2')`)
	p.clickJS("into the variation", `[...document.querySelectorAll('#moves .var .move')].find(e => e.textContent.startsWith('Ke1-e2'))`)
	p.clickCSS("promote", `#ed-promote:not([disabled])`)
	p.waitJS("promoted", `game.nodes.filter(n => n.depth === 0 && n.ply === 7).some(n => n.move === 'Ke1-e2' && game.nodes[n.parent].next === game.nodes.indexOf(n))`)
	p.clickCSS("tags form", `#ed-tagsbtn`)
	p.run("date", evalJS(`document.querySelector('#ed-tags [data-tag="Date"]').value = '2026-7-4'`))
	p.clickCSS("apply tags", `#ed-tagsok`)
	p.clickCSS("save", `#ed-save:not([disabled])`)
	p.waitJS("saved", `document.querySelector('#ed-status').textContent.includes('Saved as revision 2')`)
	p.screenshot(filepath.Join(shots, "edit-saved.png"), chromedp.CaptureScreenshot())

	p.navigate("reload", "1/0")
	p.waitJS("revision 2 read", `game !== null && game.n === 1 && game.revision === 2`)
	text := p.eval(`document.querySelector('#moves').textContent + ' | ' + document.querySelector('#tags').textContent`)
	for _, want := range []string{"A quiet start.", "Rg2-f2 !?", "Ke1-e2", "2026.07.04"} {
		if !strings.Contains(text, want) {
			p.t.Errorf("after the reload the game lacks %q: %s", want, text)
		}
	}
	if strings.Contains(text, "Sf1-f2") {
		p.t.Errorf("after the reload the deleted variation is back: %s", text)
	}
	// The promoted move's position: on the game's main line now.
	p.run("the promoted move", clickMove("Ke1-e2"))
	p.waitJS("position games follow the save", `document.querySelector('#posgames tr.self') !== null && !document.querySelector('#posgames').textContent.includes('variation')`)
	if main := p.eval(`(() => { let id = game.nodes[0].next, s = []; while (id >= 0) { s.push(game.nodes[id].move); id = game.nodes[id].next; } return s.slice(6, 8).join(' '); })()`); main != "Ke1-e2 Rb7-d7" {
		p.t.Errorf("main line after the promotion: %q, want Ke1-e2 Rb7-d7 at plies 7 and 8", main)
	}
}

// browserEnter enters a game on the explorer board, a move dragged and
// one clicked, and saves it as a new game.
func browserEnter(p *browserPage, shots string) {
	p.run("explorer", evalJS(`explore('ogi', '')`))
	p.waitJS("explorer board", `!!(game && game.explorer && !document.querySelector("#editbox").hidden)`)
	drag := func(from, to string) {
		p.run("drag "+from+"-"+to, evalJS(fmt.Sprintf(`(() => {
			const at = sq => { const r = document.querySelector('#board [data-sq="' + sq + '"]').getBoundingClientRect(); return { clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, bubbles: true, button: 0 }; };
			const b = document.querySelector('#board');
			b.dispatchEvent(new PointerEvent('pointerdown', at(%q)));
			setTimeout(() => b.dispatchEvent(new PointerEvent('pointerup', at(%q))), 300);
		})()`, from, to)))
	}
	drag("g2", "f2")
	p.waitJS("dragged move played", `game.nodes.length === 2 && game.nodes[1].move === 'Rg2-f2'`)
	p.run("click Id8", evalJS(`squareClicked('d8')`))
	p.waitJS("selected", `selected !== null`)
	p.run("click c7", evalJS(`squareClicked('c7')`))
	p.waitJS("clicked move played", `game.nodes.length === 3 && game.nodes[2].move === 'Id8-c7'`)
	p.clickCSS("tags form", `#ed-tagsbtn`)
	p.run("players", evalJS(`document.querySelector('#ed-tags [data-tag="Sente"]').value = 'Entered, Ed'`))
	p.clickCSS("apply tags", `#ed-tagsok`)
	p.clickCSS("save as new", `#ed-save`)
	p.waitJS("new game saved", `!game.explorer && game.revision === 1 && game.players[0] === 'Entered, Ed' && game.plies === 2`)
	p.screenshot(filepath.Join(shots, "edit-entered.png"), chromedp.CaptureScreenshot())
}

// browserPaste imports two records pasted, one of them invalid.
func browserPaste(p *browserPage) {
	p.clickCSS("paste box", `#ed-paste`)
	p.run("paste", evalJS("document.querySelector('#ed-pastetext').value = "+"`"+`[Game "ogi"]
[Sente "Pasted, Pat"]

1. Rg2-f2 {pasted} Id8-c7 *

[Game "ogi"]
[Sente "Broken, Bea"]

1. Rg2-f2 Id8-c7 2. Zz9-z8 Ic7-d8 *

[Game "draughts"]
[White "Wrong, Wes"]
[FEN "W:W28:B23"]
[SetUp "1"]
[Result "0-2"]

1. 28x19 *
`+"`"))
	p.clickCSS("import", `#ed-import`)
	p.waitJS("imported", `document.querySelectorAll('#ed-pasteout div').length === 3 && document.querySelector('#ed-pasteout').textContent.includes('invalid')`)
}

// browserCorrectResult corrects the pasted game whose Result contradicts
// its end (White took Black's last piece; the Result says 0-2): the page
// offers the rules' result, and the game saved with it is valid.
func browserCorrectResult(p *browserPage, shots string) {
	p.clickJS("the game with a wrong Result", `document.querySelectorAll('#ed-pasteout div a')[2]`)
	p.waitJS("open", `!!(game && !game.explorer && game.players[0] === "Wrong, Wes" && !game.valid && game.revision === 1)`)
	p.run("end", evalJS(`toEnd()`))
	p.waitJS("the rules' result offered", `document.querySelector('#ed-fix')?.textContent.includes('The Result says 0-2, but the game is over here: 2-0') === true`)
	p.screenshot(filepath.Join(shots, "edit-result.png"), chromedp.CaptureScreenshot())
	p.clickCSS("set the Result", `#ed-fixresult`)
	p.waitJS("Result set", `tagValue('Result') === '2-0' && document.querySelector('#ed-status').textContent.includes('The Result is now 2-0')`)
	p.clickCSS("save", `#ed-save:not([disabled])`)
	p.waitJS("saved valid", `game.valid && game.revision === 2 && game.result === '2-0'`)
}

// browserCorrect corrects the invalid game pasted: its broken move is
// replaced by a legal one, the rest reads, and it is saved valid.
func browserCorrect(p *browserPage) {
	p.clickJS("the broken game", `document.querySelectorAll('#ed-pasteout div a')[1]`)
	p.waitJS("broken game open", `!!(game && !game.explorer && game.players[0] === "Broken, Bea" && game.revision === 1 && (game.rest || []).length === 2)`)
	p.run("end", evalJS(`toEnd()`))
	p.clickJS("a legal move in place of the broken one", `[...document.querySelectorAll('#ed-fix .ed-fixmove')].find(e => e.textContent === 'La1-a2')`)
	p.waitJS("the rest reads", `document.querySelector('#ed-status').textContent.includes('reads to its end (1 more moves)')`)
	p.clickCSS("save", `#ed-save:not([disabled])`)
	p.waitJS("saved valid", `game.valid && game.revision === 2 && document.querySelector('#ed-status').textContent.includes('Saved as revision 2')`)
}
