package main

import (
	"context"
	"path/filepath"
	"strconv"

	"github.com/chromedp/chromedp"
	"github.com/plateau/plateau/replay/web"
)

// browserPeople: a player's name in the tree or a game's header opens their page
// (their results, a plot by year, first moves, opponents), an opponent's
// name theirs; an event's name in the list opens its crosstable, scored
// on one scale (the draughts samples' 2-0 wins and 1/2-1/2 draws: 6 of 12
// each); the statistics page draws its plots; a game opened from the list
// hides the page. Screenshots of the three pages.
func browserPeople(p *browserPage, f *browserFixture) {
	p.t.Helper()
	page, err := f.src.List(context.Background(), web.ListQuery{Criteria: "event=Plateau+samples", Game: "draughts", Valid: "valid"})
	if err != nil || len(page.Games) == 0 {
		p.t.Fatalf("the draughts samples: %+v, %v", page, err)
	}
	p.open(page.Games[0].N, 0)
	p.clickCSS("a player's name in the tree", `#tree [data-player="Sijbrands, T."]`)
	p.waitJS("the player's page from the tree", `document.querySelector('#p-name')?.textContent === 'Sijbrands, T.' && document.querySelector('#game').hidden`)
	p.open(page.Games[0].N, 0)
	p.clickCSS("a player's name in the header", `#title [data-player="Sijbrands, T."]`)
	p.waitJS("the player's page", `location.hash === '#player/Sijbrands%2C%20T.' && document.querySelector('#p-name')?.textContent === 'Sijbrands, T.' && !document.querySelector('#people').hidden && document.querySelector('#game').hidden`)
	if got := p.eval(`document.querySelector('#people .pmeta').textContent`); got != "12 games, 2026.01.01 – 2026.01.01 · 3 won, 6 drawn, 3 lost · score 50%" {
		p.t.Errorf("player summary %q", got)
	}
	p.waitJS("the year plot and the tables", `document.querySelectorAll('#people svg.plot rect.bar').length >= 3 && document.querySelectorAll('.p-openings tbody tr:not(.pgroup)').length === 8 && document.querySelectorAll('.p-opponents tbody tr').length === 1`)
	p.screenshot(filepath.Join(f.shots, "people-player.png"), chromedp.CaptureScreenshot())
	// A period narrows the page (the hash keeps it); a year of the table
	// is one; "all dates" returns to the whole career.
	p.eval(`document.querySelector('#p-from').value = '2027'; document.querySelector('#p-period').requestSubmit(); 'ok'`)
	p.waitJS("the page of a period without games", `location.hash === '#player/Sijbrands%2C%20T.?from=2027' && document.querySelector('#people .pmeta')?.textContent.startsWith('0 games dated 2027 to …') === true`)
	p.clickJS("all dates", `[...document.querySelectorAll('#p-period .plink')].find(b => b.textContent === 'all dates')`)
	p.waitJS("the whole career again", `location.hash === '#player/Sijbrands%2C%20T.' && document.querySelector('#people .pmeta')?.textContent.startsWith('12 games, ') === true`)
	p.clickJS("a year of the table", `[...document.querySelectorAll('.p-years .plink')].find(b => b.textContent === '2026')`)
	p.waitJS("the page of one year", `location.hash === '#player/Sijbrands%2C%20T.?from=2026&to=2026' && document.querySelector('#people .pmeta')?.textContent.startsWith('12 games dated 2026 to 2026') === true && document.querySelector('#p-from').value === '2026'`)
	p.screenshot(filepath.Join(f.shots, "people-player-year.png"), chromedp.CaptureScreenshot())
	p.clickCSS("an opponent", `.p-opponents .plink`)
	p.waitJS("the opponent's page", `document.querySelector('#p-name')?.textContent === 'Baba Sy'`)

	p.clickJS("a draughts event in the list", `[...document.querySelectorAll('#list tbody tr')].find(tr => tr.querySelector('.c-game')?.textContent === 'draughts')?.querySelector('.c-event')`)
	p.waitJS("the crosstable", `document.querySelector('#e-name')?.textContent === 'Plateau samples · International draughts (FMJD)' && document.querySelectorAll('.crosstable tbody tr').length === 2`)
	for i := 1; i <= 2; i++ {
		row := `document.querySelector('.crosstable tbody tr:nth-child(` + strconv.Itoa(i) + `)')`
		if got := p.eval(row + `.querySelector('td.total').textContent + ' ' + ` + row + `.lastChild.textContent`); got != "6 9" {
			p.t.Errorf("crosstable line %d scores and points %q, want 6 9 (12 games, 2-0 wins and 1/2-1/2 draws on one scale)", i, got)
		}
	}
	p.screenshot(filepath.Join(f.shots, "people-crosstable.png"), chromedp.CaptureScreenshot())

	p.clickCSS("statistics", `#n-stats`)
	p.waitJS("the statistics", `document.querySelector('#s-title') !== null && document.querySelectorAll('#people svg.plot').length === 4 && document.querySelectorAll('.s-longest tbody tr').length === 10`)
	p.screenshot(filepath.Join(f.shots, "people-stats.png"), chromedp.CaptureScreenshot())
	p.clickCSS("a game of the list", `#list tbody tr:nth-child(2) td.c-n`)
	p.waitJS("the game replaces the page", `document.querySelector('#people').hidden && !document.querySelector('#game').hidden && location.hash !== '#stats'`)
	p.cspClean()
}
