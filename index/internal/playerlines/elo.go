package playerlines

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// EloTags are the names of the rating tags of ruleset game's sides (side
// 0 first): each side's name with Elo; none for a ruleset this program
// does not know.
func EloTags(game string) ([2]string, bool) {
	if tags, ok := eloTagsOf()[game]; ok {
		return tags, true
	}
	return eloTags(game)
}

// eloTagsOf are the rating tags of the rulesets registered when it is
// first called, so that a game's do not cost a lookup and two strings
// (a ruleset registered later is looked up each time).
var eloTagsOf = sync.OnceValue(func() map[string][2]string {
	m := map[string][2]string{}
	for _, rg := range rules.Games() {
		if tags, ok := eloTags(rg.ID()); ok {
			m[rg.ID()] = tags
		}
	}
	return m
})

// eloTags is EloTags, looked up.
func eloTags(game string) ([2]string, bool) {
	rg, err := rules.Lookup(game)
	if err != nil {
		return [2]string{}, false
	}
	s := rg.Sides()
	return [2]string{s[0] + "Elo", s[1] + "Elo"}, true
}

// EloSep separates the values of a side's rating in Line.Elo when its
// record has several values of the side's rating tag.
const EloSep = "\x00"

// Elo is the sides' ratings of a game of ruleset game with tags: the
// value of each side's rating tag (EloTags); several values of one tag
// are each kept, in text order, without repeats, joined by EloSep (the
// tags table's order, which is not the record's). Decision: a band holds
// a side when any of its values lies in it (InBand), as criteria's SQL
// reads the tags table and as a tag search finds either value, so a
// record that states two ratings is never hidden from a band that one of
// them falls in.
func Elo(game string, tags []record.Tag) [2]string {
	var out [2]string
	names, ok := EloTags(game)
	if !ok {
		return out
	}
	// Each side's values, on the stack for the few a record holds.
	var buf [2][4]string
	vals := [2][]string{buf[0][:0], buf[1][:0]}
	for _, t := range tags {
		for side, n := range names {
			if t.Name == n && t.Value != "" && !slices.Contains(vals[side], t.Value) {
				vals[side] = append(vals[side], t.Value)
			}
		}
	}
	for side, vs := range vals {
		slices.Sort(vs)
		out[side] = strings.Join(vs, EloSep)
	}
	return out
}

// elos are the rating tags of the stored games, by game (Fill).
type elos map[int64][]record.Tag

// readElos reads the rating tags of every ruleset's sides from the tags
// table.
func readElos(ctx context.Context, tx *sql.Tx) (elos, error) {
	names := eloTagNames()
	return queryElos(ctx, tx, `SELECT t.game, n.name, t.value FROM tags t JOIN tag_names n ON n.id = t.tag
		WHERE n.name IN (`+placeholders(len(names))+`)`, names...)
}

// eloTagNames is the rating tags' names (EloTags) of every ruleset, each
// once.
func eloTagNames() []any {
	var names []any
	for _, rg := range rules.Games() {
		tags, _ := EloTags(rg.ID())
		for _, n := range tags {
			if !slices.Contains(names, any(n)) {
				names = append(names, n)
			}
		}
	}
	return names
}

// placeholders is n comma-separated SQL parameters.
func placeholders(n int) string { return "?" + strings.Repeat(",?", n-1) }

// queryElos runs query, whose rows are (game, tag name, value), and
// gathers each game's tags.
func queryElos(ctx context.Context, tx *sql.Tx, query string, args ...any) (elos, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := elos{}
	for rows.Next() {
		var id int64
		var t record.Tag
		if err := rows.Scan(&id, &t.Name, &t.Value); err != nil {
			return nil, err
		}
		out[id] = append(out[id], t)
	}
	return out, rows.Err()
}

// of is the sides' ratings of game id of ruleset game.
func (e elos) of(id int64, game string) [2]string { return Elo(game, e[id]) }

// InBand reports whether rating v (or one of its values: Elo) is within
// one of spans, each the texts of its bounds, of one length: as
// criteria's SQL compares the tags' values (its length in characters,
// its bytes).
func InBand(v string, spans [][2]string) bool {
	for one := range strings.SplitSeq(v, EloSep) {
		n := utf8.RuneCountInString(one)
		for _, s := range spans {
			if n == utf8.RuneCountInString(s[0]) && s[0] <= one && one <= s[1] {
				return true
			}
		}
	}
	return false
}
