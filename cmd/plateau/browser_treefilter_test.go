package main

import (
	"path/filepath"
	"strconv"

	"github.com/chromedp/chromedp"
)

// treeMoves is the page's expression of the opening tree's moves, "move
// games" each, comma-separated.
const treeMoves = `[...document.querySelectorAll('#tree tr.tmove')].map(r => r.querySelector('td.mv').textContent + ' ' + r.querySelector('td.num').firstChild.textContent).join(',')`

// browserTreeFilter: the filter bar narrows the tree to a player's games
// as one side; the filter stays while the board steps (the tree of the
// next position is the filtered one, as the API gives it), and clearing
// it brings every game back.
func browserTreeFilter(p *browserPage, f *browserFixture) {
	status := browserStatus
	p.open(f.g1, 0)
	p.waitJS("the unfiltered tree of the start", `document.querySelectorAll('#tree tr.tmove').length > 3`)
	all := p.eval(treeMoves)
	p.clickCSS("open the filter bar", `#treefilter summary`)
	p.waitJS("the bar's fields", `document.querySelector('#tf-player').offsetParent !== null && document.querySelector('#tf-side').options[1].textContent === 'as Sente'`)
	p.run("filter: Alpha as Sente", evalJS(`(() => {
		const pl = document.querySelector('#tf-player'); pl.value = 'Alpha'; pl.dispatchEvent(new Event('input'));
		const sd = document.querySelector('#tf-side'); sd.value = '0'; sd.dispatchEvent(new Event('change'));
	})()`))
	p.waitJS("the tree of Alpha's games as Sente", treeMoves+` === 'Rg2-f2 1' && document.querySelector('#treebox').classList.contains('filtered') && document.querySelector('#tf-summary').textContent === 'Alpha as Sente'`)
	p.screenshot(filepath.Join(f.shots, "treefilter.png"), chromedp.CaptureScreenshot())

	p.run("step to the next move", clickMove("Rg2-f2"))
	p.waitJS("stepped", status+`.startsWith('after 1. Rg2-f2')`)
	p.waitJS("the filter stays", treeMoves+` === 'Pc6-c5 1' && document.querySelector('#tf-player').value === 'Alpha'`)
	p.run("ask the API", evalJS(`window.__tf = null; fetch('api/tree?' + new URLSearchParams({ game: 'ogi', fen: game.nodes[at].fen, player: 'Alpha', side: '0' }))
		.then(r => r.json()).then(ms => { window.__tf = ms.map(m => m.move + ' ' + m.games).join(','); })`))
	p.waitJS("the page's tree is the API's", `window.__tf !== null && window.__tf === `+treeMoves)

	p.clickCSS("clear the filter", `#tf-clear`)
	p.waitJS("every game again", `document.querySelectorAll('#tree tr.tmove').length > 1 && !document.querySelector('#treebox').classList.contains('filtered') && document.querySelector('#tf-summary').textContent === 'every game'`)
	p.open(f.g1, 0)
	p.waitJS("the unfiltered tree of the start again", treeMoves+` === `+strconv.Quote(all))
}
