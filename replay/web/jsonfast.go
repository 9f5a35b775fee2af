package web

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// A game's JSON is mostly its positions (a node of every piece for every
// ply), which encoding/json writes by reflection: the largest cost of a
// game's request (docs/queries.md). appendJSON
// writes a Detail by hand, its nodes and pieces, and the rest (summary,
// tags, geometry: small) through encoding/json: the same bytes as
// json.Marshal (TestDetailJSON), in a fraction of the time.

// appendJSON appends d as encoding/json would write it.
func (d *Detail) appendJSON(b []byte) ([]byte, error) {
	// The fields of Detail but the nodes, through encoding/json, then the
	// nodes in their place: Detail's fields in order are Summary's (inlined),
	// tags, intro, geometry, nodes, rest, notes.
	head, err := json.Marshal(struct {
		Summary
		Tags     [][2]string `json:"tags"`
		Intro    []string    `json:"intro,omitempty"`
		Geometry Geometry    `json:"geometry"`
	}{d.Summary, d.Tags, d.Intro, d.Geometry})
	if err != nil {
		return b, err
	}
	tail, err := json.Marshal(struct {
		Rest  []string `json:"rest,omitempty"`
		Notes []string `json:"notes,omitempty"`
	}{d.Rest, d.Notes})
	if err != nil {
		return b, err
	}
	b = append(b, head[:len(head)-1]...) // without its '}'
	b = append(b, `,"nodes":`...)
	if d.Nodes == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range d.Nodes {
			if i > 0 {
				b = append(b, ',')
			}
			b = d.Nodes[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	if len(tail) > 2 { // not {}
		b = append(b, ',')
		b = append(b, tail[1:]...)
	} else {
		b = append(b, '}')
	}
	return b, nil
}

// appendJSON appends n as encoding/json writes it (Node's field order and
// omitempty).
func (n *Node) appendJSON(b []byte) []byte {
	b = append(b, `{"parent":`...)
	b = strconv.AppendInt(b, int64(n.Parent), 10)
	b = append(b, `,"next":`...)
	b = strconv.AppendInt(b, int64(n.Next), 10)
	if len(n.Vars) > 0 {
		b = append(b, `,"vars":[`...)
		for i, v := range n.Vars {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ']')
	}
	b = appendField(b, "move", n.Move)
	b = appendField(b, "number", n.Number)
	b = append(b, `,"ply":`...)
	b = strconv.AppendInt(b, int64(n.Ply), 10)
	b = append(b, `,"depth":`...)
	b = strconv.AppendInt(b, int64(n.Depth), 10)
	b = appendField(b, "from", n.From)
	b = appendField(b, "to", n.To)
	b = appendField(b, "nags", n.NAGs)
	b = appendStrings(b, "before", n.Before)
	b = appendStrings(b, "after", n.After)
	b = appendField(b, "note", n.Note)
	b = append(b, `,"pieces":`...)
	if n.Pieces == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range n.Pieces {
			p := &n.Pieces[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"sq":`...)
			b = appendString(b, p.Square)
			b = append(b, `,"side":`...)
			b = strconv.AppendInt(b, int64(p.Side), 10)
			b = append(b, `,"kind":`...)
			b = appendString(b, p.Kind)
			if p.Promoted {
				b = append(b, `,"promoted":true`...)
			}
			b = append(b, `,"count":`...)
			b = strconv.AppendInt(b, int64(p.Count), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"toMove":`...)
	b = strconv.AppendInt(b, int64(n.ToMove), 10)
	b = append(b, `,"fen":`...)
	b = appendString(b, n.FEN)
	b = appendField(b, "over", n.Over)
	return append(b, '}')
}

// appendField appends ,"name":"s" unless s is empty (omitempty).
func appendField(b []byte, name, s string) []byte {
	if s == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, s)
}

// appendStrings appends ,"name":[…] unless ss is empty (omitempty).
func appendStrings(b []byte, name string, ss []string) []byte {
	if len(ss) == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':', '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string as encoding/json writes it:
// HTML's <, > and & escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029
// escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
