package players

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/plateau/plateau/index/internal/gamerows"
)

// refCrosstable is the crosstable as it was scored before its players
// were numbered: sums by pairs of names, every line's cells, ranked by
// score on one scale, then points, then name. It is the reference the
// numbered table must agree with.
func refCrosstable(rows [][4]string) []Cross {
	type pair struct{ a, b string }
	score, norm, met := map[pair]float64{}, map[pair]float64{}, map[pair]int{}
	lines := map[string]*Cross{}
	for _, r := range rows {
		s0, s1, ok := gamerows.Scores(r[2])
		if !ok {
			continue
		}
		n0, n1, _ := Share(r[3], r[2])
		a, b := r[0], r[1]
		for _, n := range []string{a, b} {
			if lines[n] == nil {
				lines[n] = &Cross{Player: n}
			}
		}
		lines[a].Games++
		lines[b].Games++
		lines[a].Score += s0
		lines[b].Score += s1
		lines[a].Norm += n0
		lines[b].Norm += n1
		score[pair{a, b}] += s0
		score[pair{b, a}] += s1
		norm[pair{a, b}] += n0
		norm[pair{b, a}] += n1
		met[pair{a, b}]++
		met[pair{b, a}]++
	}
	out := []Cross{}
	for _, c := range lines {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Norm != out[j].Norm {
			return out[i].Norm > out[j].Norm
		}
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Player < out[j].Player
	})
	for i := range out {
		out[i].Against = make([]float64, len(out))
		out[i].NormAgainst = make([]float64, len(out))
		out[i].Met = make([]int, len(out))
		for j := range out {
			p := pair{out[i].Player, out[j].Player}
			out[i].Against[j], out[i].NormAgainst[j], out[i].Met[j] = score[p], norm[p], met[p]
		}
	}
	return out
}

// TestCrosstableMatchesReference: on events of Ōgi (1-0), draughts (2-0,
// 1-1, 0-2), Dejarik (series points, 0-0) and mixed games, with unscored
// games and players who meet themselves, the table and each of its pages
// are the reference's, line for line and cell for cell.
func TestCrosstableMatchesReference(t *testing.T) {
	results := map[string][]string{
		"ogi":      {"1-0", "0-1", "1/2-1/2", "*"},
		"draughts": {"2-0", "1-1", "0-2", "*"},
		"dejarik":  {"3-0", "0-2", "1-1", "0-0", "2-0", "0-3"},
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for _, ev := range []struct {
		name    string
		rulsets []string
		players int
		games   int
	}{
		{"ogi", []string{"ogi"}, 12, 300},
		{"draughts 2-0", []string{"draughts"}, 9, 200},
		{"dejarik series", []string{"dejarik"}, 6, 150},
		{"mixed", []string{"ogi", "draughts", "dejarik"}, 40, 2000},
		{"two players", []string{"draughts"}, 2, 7},
		{"one game unscored", []string{"ogi"}, 2, 0},
	} {
		var rows [][4]string
		for range ev.games {
			g := ev.rulsets[rng.IntN(len(ev.rulsets))]
			rs := results[g]
			a, b := fmt.Sprintf("P%02d", rng.IntN(ev.players)), fmt.Sprintf("P%02d", rng.IntN(ev.players))
			rows = append(rows, [4]string{a, b, rs[rng.IntN(len(rs))], g})
		}
		if ev.games == 0 {
			rows = append(rows, [4]string{"A", "B", "*", "ogi"})
		}
		want := refCrosstable(rows)
		r := &fakeRows{rows: rows}
		got, err := Crosstable(r, r.names, 0, nil)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n%+v, %v\nwant\n%+v", ev.name, got, err, want)
			continue
		}
		for _, pg := range [][2]int{{0, 5}, {3, 4}, {len(want) - 1, 10}, {len(want), 3}} {
			r := &fakeRows{rows: rows}
			page, n, err := CrosstablePage(r, r.names, 0, nil, pg[0], pg[1])
			off, end := min(max(pg[0], 0), len(want)), min(len(want), max(pg[0], 0)+pg[1])
			var wantPage []Cross
			for i := off; i < end; i++ {
				c := want[i]
				c.Against, c.NormAgainst, c.Met = c.Against[off:end], c.NormAgainst[off:end], c.Met[off:end]
				wantPage = append(wantPage, c)
			}
			if err != nil || n != len(want) || len(page) != len(wantPage) || len(page) > 0 && !reflect.DeepEqual(page, wantPage) {
				t.Errorf("%s, page %v: %d players\n%+v, %v\nwant %d\n%+v", ev.name, pg, n, page, err, len(want), wantPage)
			}
		}
	}
}
