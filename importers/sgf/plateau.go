package sgf

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Plateau's SGF (docs/sgf.md): what Write writes and Reader reads back
// unchanged. SGF has no game number for Plateau's games, so a game tree
// whose root has a GAME property (or AP[Plateau…]) is read as Plateau
// wrote it:
//   - root: GAME[id] is the Game tag; EV, PC, DT (YYYY-MM-DD), RO are
//     Event, Site, Date (YYYY.MM.DD), Round; PB and PW the ruleset's side
//     tags, Black or Sente for PB (the rules registry names the sides, so
//     that Ōgi's Sente and Gote and Jetan's Orange are SGF's players); RE is the
//     Result tag as written (Plateau's results, "2-0", not SGF's "B+R");
//     TAG holds every other tag as Name:Value, in order; C is the intro
//     comment; FF, CA and AP say only that the file is Plateau's SGF;
//   - a node: MOVE is the move in the ruleset's notation, C its comments
//     after it (one value each), CB those before it; its NAGs are, in
//     order, one of SGF's move annotations (TE[1] $1, TE[2] $3, BM[1] $2,
//     BM[2] $4, IT $5, DO $6), one of its position annotations (DM[1] $10,
//     UC[1] $13, GW[1] $14, GB[1] $15, GW[2] $18, GB[2] $19), then the
//     others in NAG[n] values, so that any list of NAGs reads back in its
//     order;
//   - variations are SGF variations: the first child continues the line.

// Private property identifiers of Plateau's SGF.
const (
	propGame   = "GAME"
	propTag    = "TAG"
	propMove   = "MOVE"
	propBefore = "CB"
	propNAG    = "NAG"
)

// sgfAnnotation is an SGF annotation property and value standing for a NAG.
type sgfAnnotation struct {
	id, val string
	nag     int
	move    bool // a move annotation (else a position annotation)
}

var annotations = []sgfAnnotation{
	{"TE", "1", 1, true}, {"TE", "2", 3, true}, {"BM", "1", 2, true}, {"BM", "2", 4, true},
	{"IT", "", 5, true}, {"DO", "", 6, true},
	{"DM", "1", 10, false}, {"UC", "1", 13, false}, {"GW", "1", 14, false}, {"GB", "1", 15, false},
	{"GW", "2", 18, false}, {"GB", "2", 19, false},
}

// annotationOf is the SGF annotation of nag in the move (or position)
// group, if it has one.
func annotationOf(nag int, move bool) (sgfAnnotation, bool) {
	for _, a := range annotations {
		if a.nag == nag && a.move == move {
			return a, true
		}
	}
	return sgfAnnotation{}, false
}

// nagOf is the NAG of an SGF annotation property and value, or 0.
func nagOf(id, val string, move bool) int {
	val = strings.TrimSpace(val)
	for _, a := range annotations {
		if a.id == id && a.move == move && (a.val == val || a.val == "" || (val == "" && a.val == "1")) {
			return a.nag
		}
	}
	return 0
}

// isPlateau reports whether a root node is Plateau's SGF.
func isPlateau(n *node) bool {
	for _, pr := range n.props {
		if pr.id == propGame || (pr.id == "AP" && strings.HasPrefix(pr.vals[0], "Plateau")) {
			return true
		}
	}
	return false
}

// plateauRoot reads the root properties of Plateau's SGF as tags; PB and
// PW are the side tags of the GAME's ruleset (sgfSides).
func (c *conv) plateauRoot(n *node) {
	var players []record.Tag // PB, PW: named so until the sides are known
	var tagged []record.Tag  // TAG's, after the players (the writer's order)
	var sides [2]string
	for _, pr := range n.props {
		switch pr.id {
		case "PB", "PW":
			players = append(players, record.Tag{Name: pr.id, Value: tagValue(c.text(strings.Join(pr.vals, ","), pr.pos))})
			continue
		case "FF", "CA", "AP", "C", propMove, propBefore, propNAG:
			continue // the file's format; the intro; a move is read as a node's
		case propTag:
			for _, v := range pr.vals {
				name, value, _ := strings.Cut(tagValue(c.text(v, pr.pos)), ":")
				tagged = append(tagged, record.Tag{Name: name, Value: value})
			}
			continue
		}
		v := tagValue(c.text(strings.Join(pr.vals, ","), pr.pos))
		switch pr.id {
		case propGame:
			c.g.Tags = append(c.g.Tags, record.Tag{Name: "Game", Value: v})
			if rg, err := rules.Lookup(v); err == nil {
				sides = rg.Sides()
			}
		case "DT":
			c.g.Tags = append(c.g.Tags, record.Tag{Name: "Date", Value: date(v)})
		case "RE":
			c.g.Tags = append(c.g.Tags, record.Tag{Name: "Result", Value: v})
		default:
			name, ok := tagOf[pr.id]
			if !ok {
				name = "SGF_" + pr.id
			}
			c.g.Tags = append(c.g.Tags, record.Tag{Name: name, Value: v})
		}
	}
	black, white := sgfSides(sides)
	for _, t := range players {
		t.Name = map[bool]string{true: black, false: white}[t.Name == "PB"]
		c.g.Tags = append(c.g.Tags, t)
	}
	c.g.Tags = append(c.g.Tags, tagged...)
}

// plateauNode reads a node of Plateau's SGF: its move (or nil) with its
// NAGs and comments before it, and its comments after it.
func (c *conv) plateauNode(n *node, ply int) (m *record.Move, after []string) {
	var before []string
	var moveNAG, posNAG int
	var nags []int
	for _, pr := range n.props {
		switch pr.id {
		case propMove:
			if m == nil {
				m = &record.Move{Text: c.text(pr.vals[0], pr.pos), Ply: ply, Pos: pr.pos}
			}
		case "C":
			for _, v := range pr.vals {
				after = append(after, collapse(c.text(v, pr.pos)))
			}
		case propBefore:
			for _, v := range pr.vals {
				before = append(before, collapse(c.text(v, pr.pos)))
			}
		case propNAG:
			for _, v := range pr.vals {
				if k, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && k >= 0 {
					nags = append(nags, k)
				}
			}
		default:
			if k := nagOf(pr.id, pr.vals[0], true); k > 0 && moveNAG == 0 {
				moveNAG = k
			} else if k := nagOf(pr.id, pr.vals[0], false); k > 0 && posNAG == 0 {
				posNAG = k
			}
		}
	}
	if m == nil {
		return nil, append(before, after...)
	}
	m.Before = before
	for _, k := range []int{posNAG, moveNAG} {
		if k > 0 {
			nags = append([]int{k}, nags...)
		}
	}
	if len(nags) > 0 {
		m.NAGs = nags
	}
	return m, after
}

// Looks reports whether data (the start of a file) is SGF: after blanks
// (and a byte order mark), '(' then ';'.
func Looks(data []byte) bool {
	data = bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if !bytes.HasPrefix(data, []byte("(")) {
		return false
	}
	return bytes.HasPrefix(bytes.TrimLeft(data[1:], " \t\r\n"), []byte(";"))
}
