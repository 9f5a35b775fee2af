// Package jsonl reads the JSON export of Plateau (JSON Lines, one
// replay.JSONGame per line: docs/json-export.md) back into record games, so
// that plateau import and add take what export --format json wrote.
//
// Decisions:
//   - A game is its tags (in order), its intro comments and its moves in
//     canonical form ("move", not "written") with their NAGs, comments and
//     variations; the result is the Result tag's, or the "result" field
//     when the tags have none. A record whose tags name no ruleset (an
//     export of an untagged file) gets the Game tag of the ruleset it was
//     read under ("game"), as the canonical form writes it.
//   - The export of an invalid game holds its moves only up to the error:
//     such a line is refused (an *record.Error naming its line), since
//     importing it would store a shorter game as valid. Import the PDN
//     export of such a game instead.
//   - A line that is not a JSON object of that form is an *record.Error at
//     its line; the reader goes on with the next line. Blank lines are
//     skipped. A line longer than the record size limit is skipped whole
//     and reported with record.TooLarge.
//   - Content decides, not the file name: Looks tells a JSON export from a
//     PDN file by its first bytes.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// Reader reads the games of a JSON export one by one.
type Reader struct {
	br   *bufio.Reader
	file string
	line int   // lines read
	off  int64 // bytes read
	max  int64
}

// NewReader returns a Reader of src; file is used in positions.
func NewReader(src io.Reader, file string) *Reader {
	return &Reader{br: bufio.NewReaderSize(src, 64<<10), file: file, max: record.DefaultMaxRecord}
}

// SetMaxRecord sets the size limit of a line (record.Reader.SetMaxRecord;
// n <= 0 means record.DefaultMaxRecord).
func (r *Reader) SetMaxRecord(n int64) {
	if n <= 0 {
		n = record.DefaultMaxRecord
	}
	r.max = n
}

// Next returns the next game, an *record.Error for a line that is not one
// (the Reader goes on after it), or io.EOF.
func (r *Reader) Next() (*record.Game, error) {
	for {
		pos := record.Pos{File: r.file, Line: r.line + 1, Col: 1, Offset: r.off}
		text, long, err := r.readLine()
		if err != nil {
			return nil, err
		}
		if long {
			return &record.Game{Pos: pos}, record.TooLarge(pos, r.max)
		}
		text = bytes.TrimSpace(bytes.TrimPrefix(text, []byte("\xef\xbb\xbf")))
		if len(text) == 0 {
			continue
		}
		var j replay.JSONGame
		if err := json.Unmarshal(text, &j); err != nil {
			return &record.Game{Pos: pos}, &record.Error{Pos: pos, Msg: fmt.Sprintf("not a game of the JSON export: %v", err)}
		}
		g, err := Record(&j)
		if err != nil {
			return &record.Game{Pos: pos}, &record.Error{Pos: pos, Msg: err.Error()}
		}
		g.Pos = pos
		return g, nil
	}
}

// readLine reads the next line (without its end); long reports one over
// the limit, skipped. io.EOF only when nothing is left.
func (r *Reader) readLine() (text []byte, long bool, err error) {
	var buf []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.off += int64(len(chunk))
		if !long {
			if int64(len(buf)+len(chunk)) > r.max {
				long, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil:
			r.line++
			return buf, long, nil
		case errors.Is(err, io.EOF):
			if len(buf) == 0 && !long {
				return nil, false, io.EOF
			}
			r.line++
			return buf, long, nil
		default:
			return nil, false, err
		}
	}
}

// ErrInvalidGame is wrapped by the error of Record for the export of an
// invalid game.
var ErrInvalidGame = errors.New("the JSON export of an invalid game holds its moves only up to its error: import its PDN export")

// Record is the record game of one game of the JSON export.
func Record(j *replay.JSONGame) (*record.Game, error) {
	if !j.Valid || j.Error != nil {
		msg := "no error given"
		if j.Error != nil {
			msg = j.Error.Message
		}
		return nil, fmt.Errorf("%w (%s)", ErrInvalidGame, msg)
	}
	g := &record.Game{Intro: j.Intro}
	named := false
	for _, t := range j.Tags {
		g.Tags = append(g.Tags, record.Tag{Name: t.Name, Value: t.Value})
		named = named || t.Name == "Game" || t.Name == "GameType"
	}
	if !named && j.Game != "" {
		g.Tags = append([]record.Tag{{Name: "Game", Value: j.Game}}, g.Tags...)
	}
	if g.Tag("Result") == "" {
		g.Result = j.Result
	}
	var err error
	if g.Moves, err = line(j.Moves, 0); err != nil {
		return nil, err
	}
	return g, nil
}

// line is a list of exported moves as a record line; depth counts the
// variations it is in, at most record.MaxDepth as in a PDN record.
func line(ms []replay.JSONMove, depth int) (record.Line, error) {
	if depth > record.MaxDepth {
		return nil, fmt.Errorf("variations nested more than %d deep", record.MaxDepth)
	}
	out := make(record.Line, 0, len(ms))
	for i := range ms {
		m := &ms[i]
		rm := &record.Move{Text: m.Move, Ply: m.Ply, NAGs: m.NAGs, Before: m.Before, After: m.After}
		if m.Move == "" {
			return nil, fmt.Errorf("a move without its \"move\" text (ply %d)", m.Ply+1)
		}
		for _, v := range m.Variations {
			if len(v) == 0 {
				continue
			}
			l, err := line(v, depth+1)
			if err != nil {
				return nil, err
			}
			rm.Variations = append(rm.Variations, l)
		}
		out = append(out, rm)
	}
	return out, nil
}

// Looks reports whether data (the start of a file) is a JSON export: after
// blanks (and a byte order mark), an object whose first member is one the
// export writes first ("id", "file", "index", "line" or "game"). A PDN
// file may start with a '{' comment, never with one of those.
func Looks(data []byte) bool {
	data = bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if !bytes.HasPrefix(data, []byte("{")) {
		return false
	}
	data = bytes.TrimLeft(data[1:], " \t\r\n")
	for _, k := range []string{`"id"`, `"file"`, `"index"`, `"line"`, `"game"`} {
		if rest, ok := bytes.CutPrefix(data, []byte(k)); ok {
			return bytes.HasPrefix(bytes.TrimLeft(rest, " \t"), []byte(":"))
		}
	}
	return false
}
