package revisions

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plateau/plateau/record"
)

// Note says what changed from record old to record cur, shortly: "tags
// Event, Date; moves from ply 23; comments 2→5; NAGs 0→1; variations
// 1→0". Either nil (a text that does not read as a record): "record
// replaced". Nothing found: "record text changed" (spacing, move numbers:
// what the canonical form writes the same).
func Note(old, cur *record.Game) string {
	if old == nil || cur == nil {
		return "record replaced"
	}
	var parts []string
	if tags := changedTags(old, cur); len(tags) > 0 {
		parts = append(parts, "tags "+strings.Join(tags, ", "))
	}
	if ply, ok := firstDiff(old.Moves, cur.Moves); ok {
		parts = append(parts, fmt.Sprintf("moves from ply %d", ply))
	}
	o, c := count(old), count(cur)
	for _, k := range []struct {
		name string
		a, b int
	}{{"comments", o.comments, c.comments}, {"NAGs", o.nags, c.nags}, {"variations", o.vars, c.vars}} {
		if k.a != k.b {
			parts = append(parts, fmt.Sprintf("%s %d→%d", k.name, k.a, k.b))
		}
	}
	if len(parts) == 0 && (o.commentText != c.commentText || o.nagList != c.nagList || old.Result != cur.Result) {
		parts = append(parts, "annotations edited")
	}
	if len(parts) == 0 {
		return "record text changed"
	}
	return strings.Join(parts, "; ")
}

// changedTags are the names of the tags added, removed or changed, in
// cur's order then old's.
func changedTags(old, cur *record.Game) []string {
	var names []string
	for _, t := range cur.Tags {
		if old.Tag(t.Name) != t.Value && !slices.Contains(names, t.Name) {
			names = append(names, t.Name)
		}
	}
	for _, t := range old.Tags {
		if cur.Tag(t.Name) == "" && t.Value != "" && !slices.Contains(names, t.Name) {
			names = append(names, t.Name)
		}
	}
	return names
}

// firstDiff is the first ply (1-based) where the main lines differ, as
// written; false when they are the same.
func firstDiff(a, b record.Line) (int, bool) {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i].Text != b[i].Text {
			return i + 1, true
		}
	}
	return 0, false
}

// counts are a record's annotations.
type counts struct {
	comments, nags, vars int
	commentText, nagList string // to tell an edit that keeps the counts
}

func count(g *record.Game) counts {
	var c counts
	var text, nags strings.Builder
	for _, s := range g.Intro {
		c.comments++
		text.WriteString(s)
	}
	var walk func(l record.Line)
	walk = func(l record.Line) {
		for _, m := range l {
			c.comments += len(m.Before) + len(m.After)
			for _, cs := range [][]string{m.Before, m.After} {
				for _, s := range cs {
					text.WriteString(s)
					text.WriteByte(0)
				}
			}
			c.nags += len(m.NAGs)
			fmt.Fprint(&nags, m.NAGs)
			c.vars += len(m.Variations)
			for _, v := range m.Variations {
				walk(v)
			}
		}
	}
	walk(g.Moves)
	c.commentText, c.nagList = text.String(), nags.String()
	return c
}
