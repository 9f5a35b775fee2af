package web

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/plateau/plateau/record"
)

// RecordJSON is a record as the page edits it: tags, the comments before
// the first move, the moves with their comments, NAGs and variations, and
// the result. Format writes it in the canonical form.
type RecordJSON struct {
	Tags   [][2]string `json:"tags"`
	Intro  []string    `json:"intro,omitempty"`
	Moves  []MoveJSON  `json:"moves"`
	Result string      `json:"result,omitempty"` // the movetext's, when no Result tag says it
}

// MoveJSON is one move: its text, NAGs as the page shows them ("!", "?!",
// "$18", space-separated: Node.NAGs), comments before and after, and the
// variations that replace it.
type MoveJSON struct {
	Move   string       `json:"move"`
	NAGs   string       `json:"nags,omitempty"`
	Before []string     `json:"before,omitempty"`
	After  []string     `json:"after,omitempty"`
	Vars   [][]MoveJSON `json:"vars,omitempty"`
}

// maxRecordDepth bounds the nesting of variations of a record sent.
const maxRecordDepth = 200

// Record is the record.Game of r, its tags checked (the Date normalised).
func (r *RecordJSON) Record() (*record.Game, error) {
	g := &record.Game{Intro: r.Intro, Result: r.Result}
	for _, t := range r.Tags {
		name, value := strings.TrimSpace(t[0]), strings.TrimSpace(t[1])
		if name == "" {
			if value == "" {
				continue
			}
			return nil, fmt.Errorf("%w: a tag without a name (value %q)", ErrBadRecord, value)
		}
		if !tagName(name) {
			return nil, fmt.Errorf("%w: tag name %q: letters, digits and _ only", ErrBadRecord, name)
		}
		if name == "Date" {
			d, err := NormalizeDate(value)
			if err != nil {
				return nil, err
			}
			value = d
		}
		if value == "" && name != "Result" {
			continue // an emptied field of the form: the tag is removed
		}
		if g.Tag(name) != "" {
			return nil, fmt.Errorf("%w: tag %s given twice", ErrBadRecord, name)
		}
		g.Tags = append(g.Tags, record.Tag{Name: name, Value: value})
	}
	line, err := lineOf(r.Moves, 0, 0)
	if err != nil {
		return nil, err
	}
	g.Moves = line
	return g, nil
}

// Format is r's record in the canonical form.
func (r *RecordJSON) Format() ([]byte, error) {
	g, err := r.Record()
	if err != nil {
		return nil, err
	}
	return record.Format(g), nil
}

// lineOf is the line of moves ms whose first move is at ply (counted as
// the reader counts: replay numbers them when the record is stored).
func lineOf(ms []MoveJSON, ply, depth int) (record.Line, error) {
	if depth > maxRecordDepth {
		return nil, fmt.Errorf("%w: variations nested over %d deep", ErrBadRecord, maxRecordDepth)
	}
	line := make(record.Line, 0, len(ms))
	for i, m := range ms {
		text := strings.TrimSpace(m.Move)
		if text == "" || strings.ContainsAny(text, " \t\r\n{}();[]\"") {
			return nil, fmt.Errorf("%w: move %q (ply %d)", ErrBadRecord, m.Move, ply+i+1)
		}
		nags, err := ParseNAGs(m.NAGs)
		if err != nil {
			return nil, err
		}
		mv := &record.Move{Text: text, NAGs: nags, Before: m.Before, After: m.After, Ply: ply + i}
		for _, v := range m.Vars {
			if len(v) == 0 {
				continue
			}
			l, err := lineOf(v, ply+i, depth+1)
			if err != nil {
				return nil, err
			}
			mv.Variations = append(mv.Variations, l)
		}
		line = append(line, mv)
	}
	return line, nil
}

// nagNumber are the NAGs written as suffixes and signs, by their text.
var nagNumber = map[string]int{
	"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6,
	"□": 7, "=": 10, "∞": 13, "⩲": 14, "⩱": 15, "±": 16, "∓": 17, "+-": 18, "-+": 19,
}

// ParseNAGs reads NAGs as the page writes them: "!", "?!", "$18", "±"…,
// separated by spaces.
func ParseNAGs(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Fields(s) {
		if n, ok := nagNumber[f]; ok {
			out = append(out, n)
			continue
		}
		n, err := strconv.Atoi(strings.TrimPrefix(f, "$"))
		if !strings.HasPrefix(f, "$") || err != nil || n < 0 || n > 255 {
			return nil, fmt.Errorf("%w: NAG %q: !, ?, !!, ??, !?, ?!, a sign or $0…$255", ErrBadRecord, f)
		}
		out = append(out, n)
	}
	return out, nil
}

func tagName(s string) bool {
	for _, r := range s {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// NormalizeDate writes a date as the record format does, YYYY.MM.DD with
// ?? for an unknown part: "2026-7-14", "2026/07/14" and "2026.07.14" are
// "2026.07.14"; "2026" is "2026.??.??"; "" stays "". A date that is not
// one (a month 13, 31 February…) is an error (ErrBadRecord).
func NormalizeDate(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '-' || r == '/' })
	if len(parts) == 0 || len(parts) > 3 {
		return "", fmt.Errorf("%w: date %q: write it YYYY.MM.DD (?? for an unknown part)", ErrBadRecord, s)
	}
	for len(parts) < 3 {
		parts = append(parts, "??")
	}
	widths := [3]int{4, 2, 2}
	limits := [3]int{9999, 12, 31}
	var v [3]int
	for i, p := range parts {
		if strings.Trim(p, "?") == "" {
			parts[i] = strings.Repeat("?", widths[i])
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > limits[i] || len(p) > widths[i] {
			return "", fmt.Errorf("%w: date %q: write it YYYY.MM.DD (?? for an unknown part)", ErrBadRecord, s)
		}
		v[i] = n
		parts[i] = fmt.Sprintf("%0*d", widths[i], n)
	}
	if v[1] > 0 && v[2] > daysIn(v[0], v[1]) {
		return "", fmt.Errorf("%w: date %q: month %d has no day %d", ErrBadRecord, s, v[1], v[2])
	}
	return strings.Join(parts, "."), nil
}

// daysIn is the number of days of month m of year y (y 0: unknown, a leap
// year's February allowed).
func daysIn(y, m int) int {
	switch m {
	case 2:
		if y == 0 || (y%4 == 0 && (y%100 != 0 || y%400 == 0)) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
