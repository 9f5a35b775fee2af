package treeagg

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// benchEntries is n games' moves of their first 8 plies as an import
// gives them to Flush: every game from one start, a few moves at each of
// the first plies, the deeper ones of few games; dates over ten years.
func benchEntries(n int) ([]Entry, []Game) {
	r := rand.New(rand.NewPCG(1, 2))
	games := make([]Game, n)
	var es []Entry
	for g := range games {
		games[g] = Game{Date: fmt.Sprintf("20%02d.%02d.%02d", 10+r.IntN(10), 1+r.IntN(12), 1+r.IntN(28)), S0: 1, Scored: true}
		pos := int64(0)
		for ply := range 8 {
			move := fmt.Sprintf("m%d", r.IntN(2+3*ply))
			es = append(es, Entry{Pos: pos, Move: move, Player: int64(1 + r.IntN(1000)), Game: int32(g)})
			pos = pos*31 + int64(len(move)) + int64(move[1])*7 + int64(ply)
		}
	}
	slices.SortFunc(es, EntryCmp)
	return es, games
}

// BenchmarkMonthRows: the rows of tree_months that a flush of 8,192
// games' moves upserts.
func BenchmarkMonthRows(b *testing.B) {
	es, games := benchEntries(8192)
	b.ReportAllocs()
	sc := &monthScratch{}
	for b.Loop() {
		monthRows(es, games, sc)
	}
}
