package sgf

import (
	"io"
	"strconv"

	"github.com/plateau/plateau/record"
)

// Write writes g as one SGF game tree in Plateau's SGF (plateau.go,
// docs/sgf.md), followed by a line break. g is best in canonical form
// (replay's Canonical): the Reader gives back its tags, comments, NAGs,
// variations and moves as written, so that its canonical form is the same.
func Write(w io.Writer, g *record.Game) error {
	_, err := w.Write(Append(nil, g))
	return err
}

// Append appends g as Write writes it to b.
func Append(b []byte, g *record.Game) []byte {
	b = append(b, "(;FF[4]CA[UTF-8]AP[Plateau]"...)
	b = appendRoot(b, g)
	b = appendValues(b, "C", g.Intro)
	b = appendLine(b, g.Moves, false)
	return append(b, ")\n"...)
}

// rootProps are the tags written as SGF root properties (the first of each
// name; a Date only in the YYYY.MM.DD form, which SGF writes YYYY-MM-DD).
// The player tags are PB and PW (sgfSides).
var rootProps = map[string]string{
	"Game": propGame, "Event": "EV", "Site": "PC", "Date": "DT", "Round": "RO", "Result": "RE",
}

// sgfSides are the side tags written PB and PW: of a game's two sides
// (record.Game.Sides, its ruleset's), Black or Sente (the first mover of
// shogi, which SGF calls Black) is PB and the other PW; with no sides,
// Black and White.
func sgfSides(sides [2]string) (black, white string) {
	switch {
	case sides[0] == "" || sides[1] == "":
		return "Black", "White"
	case sides[1] == "Black" || sides[1] == "Sente":
		return sides[1], sides[0]
	}
	return sides[0], sides[1]
}

// rootOrder is the order of the root properties written, whatever the
// order of the tags (the canonical form orders these tags itself).
var rootOrder = []string{propGame, "EV", "PC", "DT", "RO", "PB", "PW", "RE"}

func appendRoot(b []byte, g *record.Game) []byte {
	vals := map[string]string{}
	var others []record.Tag
	black, white := sgfSides(g.Sides)
	for _, t := range g.Tags {
		id, ok := rootProps[t.Name]
		switch t.Name {
		case black:
			id, ok = "PB", true
		case white:
			id, ok = "PW", true
		}
		if _, dup := vals[id]; !ok || dup || (t.Name == "Date" && !isDate(t.Value)) {
			others = append(others, t)
			continue
		}
		v := t.Value
		if t.Name == "Date" {
			v = v[:4] + "-" + v[5:7] + "-" + v[8:]
		}
		vals[id] = v
	}
	for _, id := range rootOrder {
		if v, ok := vals[id]; ok {
			b = appendProp(b, id, v)
		}
	}
	if len(others) > 0 {
		b = append(b, propTag...)
		for _, t := range others {
			b = appendValue(b, t.Name+":"+t.Value)
		}
	}
	return b
}

// isDate reports a date YYYY.MM.DD in digits.
func isDate(v string) bool {
	if len(v) != 10 || v[4] != '.' || v[7] != '.' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if i != 4 && i != 7 && (v[i] < '0' || v[i] > '9') {
			return false
		}
	}
	return true
}

// appendLine appends the nodes of a line. A move with variations forks:
// the line from it on is the first child, each variation another; forked
// says that l's first move is such a move, whose variations the caller
// writes.
func appendLine(b []byte, l record.Line, forked bool) []byte {
	for i, m := range l {
		if len(m.Variations) > 0 && (i > 0 || !forked) {
			if b[len(b)-1] == '(' {
				// A variation whose first move has variations of
				// its own: a game tree starts with a node, so an
				// empty one comes before the fork.
				b = append(b, ';')
			}
			b = append(b, "\n("...)
			b = appendLine(b, l[i:], true)
			b = append(b, ')')
			for _, v := range m.Variations {
				b = append(b, "\n("...)
				b = appendLine(b, v, false)
				b = append(b, ')')
			}
			return b
		}
		b = appendNode(b, m)
	}
	return b
}

// appendNode appends the node of a move: MOVE, its NAGs, comments before
// (CB) and after (C).
func appendNode(b []byte, m *record.Move) []byte {
	if len(b) == 0 || b[len(b)-1] != '(' {
		b = append(b, '\n')
	}
	b = append(b, ';')
	b = appendProp(b, propMove, m.Text)
	nags := m.NAGs
	for _, move := range []bool{true, false} {
		if len(nags) == 0 {
			break
		}
		if a, ok := annotationOf(nags[0], move); ok {
			b = appendProp(b, a.id, a.val)
			nags = nags[1:]
		}
	}
	if len(nags) > 0 {
		b = append(b, propNAG...)
		for _, n := range nags {
			b = appendValue(b, strconv.Itoa(n))
		}
	}
	b = appendValues(b, propBefore, m.Before)
	return appendValues(b, "C", m.After)
}

// appendValues appends a property of one value per text (none without
// texts): several comments stay several.
func appendValues(b []byte, id string, texts []string) []byte {
	if len(texts) == 0 {
		return b
	}
	b = append(b, id...)
	for _, t := range texts {
		b = appendValue(b, t)
	}
	return b
}

func appendProp(b []byte, id, v string) []byte {
	return appendValue(append(b, id...), v)
}

// appendValue appends [v] with SGF's escapes ('\' before ']' and '\').
func appendValue(b []byte, v string) []byte {
	b = append(b, '[')
	for i := 0; i < len(v); i++ {
		if v[i] == ']' || v[i] == '\\' {
			b = append(b, '\\')
		}
		b = append(b, v[i])
	}
	return append(b, ']')
}
