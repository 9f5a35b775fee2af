package bench

import (
	"context"
	"fmt"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/rules"
)

// patternScanRepeat is how many times each pattern of patternScans runs.
const patternScanRepeat = 2

// patternScans measures full pattern scans (every match counted) of
// patterns that the games' signatures (internal/patsig) rule out for many
// games, and of one they rule out for none: promoted pieces, material,
// hands, a promoted piece on a corner, an empty centre square. The
// patterns name sides by number and pieces by *, so that every ruleset
// has them; the matches are logged.
func (r *run) patternScans(ctx context.Context, db *index.DB, start rules.Position) error {
	c, ok := start.(rules.Cells)
	if !ok {
		return nil
	}
	sq := c.Layout().Squares
	pats := []struct{ text, note string }{
		{"+*>=3", "three promoted pieces on the board"},
		{"0:*<=8", "side 0 down to eight pieces"},
		{"1:*@hand>=4", "four pieces in side 1's hand"},
		{"0:+*@" + sq[0], "a promoted piece of side 0 on the first square"},
		{"0:+*@" + sq[0] + " 1:+*@" + sq[len(sq)-1], "promoted pieces of both sides on the first and last squares"},
		{"empty@" + sq[len(sq)/2], "a centre square empty: no game is skipped"},
	}
	for _, p := range pats {
		pat, err := index.ParsePattern(p.text)
		if err != nil {
			return err
		}
		matches := 0
		if err := latency(r.rep, "pattern search (full scan, "+p.text+")", p.note+", every match counted", repeat(pat, patternScanRepeat), func(pat *index.Pattern) error {
			res, err := db.Search(ctx, index.Query{Game: r.rep.Game, Pattern: pat, Count: true})
			matches = res.Total
			return err
		}); err != nil {
			return err
		}
		r.logf("pattern %q: %d games match", p.text, matches)
		r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("Pattern %q matches %s games.", p.text, thousands(matches)))
	}
	return nil
}
