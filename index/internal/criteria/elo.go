package criteria

import (
	"strconv"
	"strings"

	"github.com/plateau/plateau/rules"
)

// maxElo is the highest rating a band without MaxElo covers.
const maxElo = 99999

// elo adds Query.MinElo and MaxElo: both players rated within the band,
// their ratings being the tags named after the sides of the game's
// rules with Elo (SenteElo and GoteElo in Ōgi, WhiteElo and BlackElo in
// the dames family, BlackElo and OrangeElo in Jetan). A rating is a
// whole number written without sign, spaces or leading zeros; the tags
// table holds it as text, so that a band is read as one range of the
// index per number of digits (text of one length sorts as its number).
func (w *Where) elo(q *Query) {
	if q.MinElo <= 0 && q.MaxElo <= 0 {
		return
	}
	spans := EloSpans(q.MinElo, q.MaxElo)
	if len(spans) == 0 {
		w.Add("0")
		return
	}
	var conds []string
	var args []any
	for _, grp := range eloGroups(q.Game) {
		var rated []string
		for _, s := range spans {
			rated = append(rated, `SELECT t.game, t.tag FROM tags t WHERE t.tag IN (SELECT id FROM tag_names WHERE name IN (?, ?))
				AND t.value BETWEEN ? AND ? AND length(t.value) = ?`)
			args = append(args, grp.tags[0], grp.tags[1], s[0], s[1], len(s[0]))
		}
		in := "?" + strings.Repeat(", ?", len(grp.games)-1)
		for _, g := range grp.games {
			args = append(args, g)
		}
		conds = append(conds, `g.id IN (SELECT game FROM (`+strings.Join(rated, " UNION ALL ")+`)
			GROUP BY game HAVING count(DISTINCT tag) = 2) AND g.game IN (`+in+`)`)
	}
	// The arguments are in the order of the conditions: each group's
	// ranges, then its rulesets.
	w.Add("(("+strings.Join(conds, ") OR (")+"))", args...)
}

// EloSpans are the ratings a band of lo to hi (0: no bound) covers: spans
// of one number of digits, each the texts of its bounds, that a rating
// (a whole number written without sign, spaces or leading zeros) is
// compared with as text of the same length.
func EloSpans(lo, hi int) [][2]string {
	if hi <= 0 {
		hi = maxElo
	}
	return digitSpans(max(lo, 0), hi)
}

// eloGroup is the rulesets whose sides' rating tags have the same names.
type eloGroup struct {
	tags  [2]string
	games []string
}

// eloGroups groups the rulesets of game ("" for every one) by the names of
// their sides' rating tags, in the order of the rulesets.
func eloGroups(game string) []eloGroup {
	gs := rules.Games()
	if g, err := rules.Lookup(game); err == nil {
		gs = []rules.Game{g}
	} else if game != "" {
		return []eloGroup{{tags: [2]string{"", ""}, games: []string{game}}} // matches no game
	}
	var out []eloGroup
	for _, g := range gs {
		s := g.Sides()
		tags := [2]string{s[0] + "Elo", s[1] + "Elo"}
		i := 0
		for i < len(out) && out[i].tags != tags {
			i++
		}
		if i == len(out) {
			out = append(out, eloGroup{tags: tags})
		}
		out[i].games = append(out[i].games, g.ID())
	}
	return out
}

// digitSpans cuts the numbers lo..hi into spans of one number of digits,
// each as the texts of its bounds.
func digitSpans(lo, hi int) [][2]string {
	var out [][2]string
	for from := lo; from <= hi; {
		top := 9 // the largest number of from's digits
		for top < from {
			top = top*10 + 9
		}
		to := min(top, hi)
		out = append(out, [2]string{strconv.Itoa(from), strconv.Itoa(to)})
		from = top + 1
	}
	return out
}
