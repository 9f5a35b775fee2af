package main

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// draughtsBoards are the boards of the draughts rulesets added for PDN 3.0
// and lidraughts, with the squares each draws as playable cells: the dark
// squares, or every square on the Turkish board.
var draughtsBoards = []struct {
	id      string
	squares int
}{
	{"spanish", 32}, {"portuguese", 32}, {"canadian", 72}, {"turkish", 64}, {"thai", 32},
	{"frisian", 50}, {"spantsiretti", 40}, {"antidraughts", 50}, {"breakthrough", 50}, {"frysk", 50},
}

// TestBrowserDraughtsBoards opens one sample game of each new draughts
// board in headless Chromium, at its 20th ply and at its end, checks that
// the board has the ruleset's playable squares and draws every piece of
// the position, and that the position's text under the board wraps only
// between squares (the Turkish one, the longest, was cut inside "c6"), and
// screenshots the game into $PLATEAU_SCREENSHOTS or the test's temp dir,
// for a person to look at (docs/draughts.md says what they showed).
func TestBrowserDraughtsBoards(t *testing.T) {
	bin := chromium(t)
	ctx := context.Background()
	dir := t.TempDir()
	db, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var paths []string
	for _, b := range draughtsBoards {
		paths = append(paths, filepath.Join(samples, b.id))
	}
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{ImportOptions: index.ImportOptions{DefaultGame: defaultGame}}); err != nil {
		t.Fatal(err)
	}
	src := browse.New(db, replay.Options{DefaultGame: defaultGame})
	srv := guardedServer(t, src)
	shots := screenshotDir(t)
	p := newBrowserPage(t, bin, srv.URL, 1200, 900)
	for _, b := range draughtsBoards {
		l, err := src.List(ctx, web.ListQuery{Game: b.id, Valid: "valid", Limit: 1})
		if err != nil || len(l.Games) == 0 {
			t.Fatalf("%s: no sample game (%v)", b.id, err)
		}
		// Its 20th ply, and the end of its main line (▶|; kings, most
		// often).
		for _, end := range []bool{false, true} {
			name := b.id
			p.open(l.Games[0].N, min(l.Games[0].Plies, 20))
			if end {
				name += "-end"
				p.clickCSS("end of "+b.id, "#b-end")
				p.waitJS("end of "+b.id, `game.nodes[at].next < 0`)
			}
			p.waitJS(name+" board", `document.querySelectorAll('#board svg .sq').length > 0`)
			if got := p.eval(`String(document.querySelectorAll('#board svg rect.sq').length)`); got != strconv.Itoa(b.squares) {
				t.Errorf("%s: %s playable squares drawn, want %d", name, got, b.squares)
			}
			if got, want := p.eval(`String(document.querySelectorAll('#board svg .pc').length)`), p.eval(`String(game.nodes[at].pieces.length)`); got != want {
				t.Errorf("%s: %s pieces drawn, the position has %s", name, got, want)
			}
			// The position under the board wraps between squares only.
			if got := p.eval(`String(document.querySelector('#fen').textContent === game.nodes[at].fen && document.querySelectorAll('#fen wbr').length > 0)`); got != "true" {
				t.Errorf("%s: the position's text is not the position's, or has no break opportunity", name)
			}
			p.screenshot(filepath.Join(shots, "draughts-"+name+".png"), chromedp.Screenshot(chromedp.CSS("#game")))
		}
	}
	p.cspClean()
	t.Logf("screenshots in %s", shots)
}
