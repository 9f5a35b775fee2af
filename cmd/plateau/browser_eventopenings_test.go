package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/replay"
)

// TestBrowserEventOpenings: an event's page lists its games' most played
// named openings below the crosstable, with their games and the first
// side's results, at 1366×768, 1920×1080 and 400×800 (within the page's
// width); a name lists the event's games of that opening. Screenshots
// event-openings-WIDTH.png.
func TestBrowserEventOpenings(t *testing.T) {
	bin := chromium(t)
	ctx := context.Background()
	db := namedSampleDB(t, filepath.Join(samples, "dejarik"))
	const event = "Wookiee series to 12 points"
	want, err := db.PlayedOpenings(ctx, index.Query{Event: event})
	if err != nil || len(want) < 2 {
		t.Fatalf("the event's named openings: %+v %v", want, err)
	}
	first := fmt.Sprintf("%s %d %d %d %d", want[0].Name, want[0].Games, want[0].Wins, want[0].Draws, want[0].Losses)
	srv := guardedServer(t, browse.New(db, replay.Options{}))
	shots := screenshotDir(t)
	for _, s := range []struct{ w, h int }{{1366, 768}, {1920, 1080}, {400, 800}} {
		p := newBrowserPage(t, bin, srv.URL, s.w, s.h)
		p.navigate("the event's page", "event/"+url.PathEscape(event))
		p.waitJS("the event's openings", fmt.Sprintf(`document.querySelectorAll('.e-named tbody tr:not(.pgroup)').length === %d`, len(want)))
		row := `[...document.querySelector('.e-named tbody tr:not(.pgroup)').children].slice(0, 5).map(td => td.textContent).join(' ')`
		if got := p.eval(row); got != first {
			t.Errorf("%d px: first opening %q, want %q", s.w, got, first)
		}
		if got := p.eval(`String(document.querySelector('.e-named').getBoundingClientRect().right <= document.documentElement.clientWidth)`); got != "true" {
			t.Errorf("%d px: the openings' table is wider than the page", s.w)
		}
		p.run("the table in view", evalJS(`document.querySelector('.e-named').scrollIntoView(); 0`))
		p.screenshot(filepath.Join(shots, fmt.Sprintf("event-openings-%d.png", s.w)), chromedp.CaptureScreenshot())
		if s.w == 1366 {
			p.clickCSS("an opening's name", `.e-named .oname .plink`)
			p.waitJS("the event's games of that opening", `document.querySelector('#f-opening').value === `+jsString(want[0].Name)+
				` && document.querySelector('#f-event').value === `+jsString(event)+` && document.querySelectorAll('#list tbody tr').length === `+fmt.Sprint(want[0].Games))
		}
		p.cspClean()
	}
	t.Logf("screenshots in %s", shots)
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
