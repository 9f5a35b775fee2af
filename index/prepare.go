package index

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// TreeDepth is the number of plies from a game's start whose main-line moves
// are kept in the opening-tree aggregate. Deeper positions are answered from
// the positions table (few games share them).
const TreeDepth = 8

// prepared is a record replayed and turned into rows, by a worker.
type prepared struct {
	id      int64 // the game's id when an edit stores it again; 0 for a new game
	hash    [16]byte
	game    string
	valid   bool
	players [2]string
	event   string
	site    string
	date    string
	result  string
	term    string
	plies   int
	file    string
	offset  int64
	line    int
	size    int64
	err     *errInfo
	final   uint64
	fen     string // the start position when not the standard one
	moves   []byte
	text    []byte // canonical text
	tags    []record.Tag
	pos     []posRow
	tree    []treeRow
	comment string // all comments, for the text index
	annot   string
	warns   []warnRow
}

type errInfo struct {
	msg        string
	line, col  int
	ply        int
	move, rule string
}

type posRow struct {
	key  uint64
	ply  int
	vari int // 1 in a variation
}

type treeRow struct {
	key   uint64
	move  string
	mover int // side that played it
}

// columnTag reports whether a tag is stored in its own column, not in the
// tags table.
func columnTag(name string) bool {
	switch name {
	case "Game", "Event", "Site", "Date", "Result", "Termination":
		return true
	}
	return false
}

// preparer turns records into rows; one per worker.
type preparer struct {
	opts replay.Options
	enc  *zstd.Encoder
	// the ruleset detection chose for the last untagged game of prefFile,
	// within one chunk (replay.Options.Prefer)
	prefFile, prefer string
	// The replay of a game and the position that walks its first plies
	// for the opening tree are made in the memory of the game before:
	// nothing of them is kept in the rows but strings and numbers.
	rp   replay.Replayer
	tree rules.Position
	// treeMoves are the opening tree's move texts of earlier games
	// (treeMove).
	treeMoves []treeMoveSlot
}

// treeMoveSlot is a text of treeMove's cache and its key: its bytes and
// its length.
type treeMoveSlot struct {
	key  uint64
	text string
}

// treeMove returns s, a tree row's move text, as a string of its own: the
// writer keeps the tree's moves (treeEntry) for a whole transaction, and
// s may be the record's, in a block of the reader's texts (record's
// moveText) that it would keep alive. The first plies of a collection
// repeat few texts: a short one is taken from a small direct-mapped cache
// of the texts copied before, instead of a copy a row.
func (p *preparer) treeMove(s string) string {
	if len(s) >= 8 {
		return strings.Clone(s)
	}
	key := uint64(len(s)) << 56
	for i := 0; i < len(s); i++ {
		key |= uint64(s[i]) << (8 * i)
	}
	if p.treeMoves == nil {
		p.treeMoves = make([]treeMoveSlot, 1<<treeMoveBits)
	}
	slot := &p.treeMoves[(key*0x9E3779B97F4A7C15)>>(64-treeMoveBits)]
	if slot.key == key {
		return slot.text
	}
	t := strings.Clone(s)
	*slot = treeMoveSlot{key, t}
	return t
}

const treeMoveBits = 10

func newPreparer(opts replay.Options, enc *zstd.Encoder) *preparer {
	return &preparer{opts: opts, enc: enc}
}

// prepare replays a record and turns it into rows, in stages: an
// unreadable record is kept with its error (unreadable); a readable one
// gets its columns (columns), its first error if any (recordError), and a
// valid one its move list, positions (positions), opening-tree moves
// (treeRows) and comments.
func (p *preparer) prepare(r Record) *prepared {
	if r.Game == nil {
		return unreadable(r)
	}
	rec := r.Game
	out := &prepared{file: r.File, size: r.Size, offset: rec.Pos.Offset, line: rec.Pos.Line}
	opts := p.opts
	if r.File == p.prefFile {
		opts.Prefer = p.prefer
	}
	g := p.rp.Replay(rec, opts)
	if d := g.Detected(); d != "" || p.prefFile != r.File {
		p.prefFile, p.prefer = r.File, d
	}
	canon := g.CanonicalView()
	out.columns(rec, g, canon, r.Size)
	if r.Err != nil || g.Err != nil {
		out.err = recordError(r.Err, g.Err)
		return out
	}
	out.valid = true
	if canon.Tag("FEN") != "" {
		out.fen = g.Start.String()
	}
	out.moves = movelist.Encode(g.Main)
	out.final = g.Final.Key()
	if !out.positions(g) {
		return out
	}
	out.tree = p.treeRows(g)
	var cb strings.Builder
	for _, c := range rec.Intro {
		cb.WriteString(c)
		cb.WriteByte(' ')
	}
	collectComments(&cb, rec.Moves)
	out.comment = record.Clip(cb.String(), maxTextComments)
	return out
}

// unreadable is the rows of a record the reader could not make a game
// of: its error, so that it is listed, under a hash of its place.
func unreadable(r Record) *prepared {
	out := &prepared{file: r.File, size: r.Size, game: "?"}
	msg := "unreadable record"
	if r.Err != nil {
		msg = r.Err.Error()
	}
	var re *record.Error
	if errors.As(r.Err, &re) {
		out.line, out.offset = re.Pos.Line, re.Pos.Offset
	}
	out.err = &errInfo{msg: msg, line: out.line}
	h := sha256.Sum256([]byte("unreadable\x00" + r.File + "\x00" + strconv.FormatInt(out.offset, 10) + "\x00" + msg))
	copy(out.hash[:], h[:])
	return out
}

// columns fills the game's columns from its record and replay: canonical
// text and its hash, ruleset, players, event, site, date, result,
// termination, plies, annotator, warnings, and the tags without a column
// of their own.
func (out *prepared) columns(rec *record.Game, g *replay.Game, canon *record.Game, size int64) {
	// The canonical text is about as long as the record's (room for a
	// little more: move numbers, long forms), in one allocation.
	text := record.AppendFormat(make([]byte, 0, size+size/8+64), canon)
	h := sha256.Sum256(text)
	copy(out.hash[:], h[:])
	out.text = text
	var sides [2]string
	if g.Rules != nil {
		out.game = g.Rules.ID()
		sides = g.Rules.Sides()
		out.players = [2]string{strings.TrimSpace(rec.Tag(sides[0])), strings.TrimSpace(rec.Tag(sides[1]))}
	} else {
		out.game = strings.ToLower(strings.TrimSpace(rec.Tag("Game")))
		if out.game == "" {
			out.game = "?"
		}
		out.players = [2]string{rec.Tag("White"), rec.Tag("Black")}
	}
	out.event, out.site, out.date = rec.Tag("Event"), rec.Tag("Site"), NormalizeDate(rec.Tag("Date"))
	out.result = canon.Tag("Result")
	out.term = g.Termination()
	out.plies = g.Plies()
	out.annot = rec.Tag("Annotator")
	out.warns = warnRows(g.Warnings)
	out.tags = make([]record.Tag, 0, len(canon.Tags))
	for _, t := range canon.Tags {
		// The players' tags are the players columns.
		if !columnTag(t.Name) && t.Name != sides[0] && t.Name != sides[1] && t.Value != "" {
			out.tags = append(out.tags, t)
		}
	}
}

// recordError is the first error of a record: the reader's (readErr),
// else the replay's.
func recordError(readErr error, replayErr *replay.Error) *errInfo {
	e := &errInfo{}
	if readErr != nil {
		e.msg = readErr.Error()
		var re *record.Error
		if errors.As(readErr, &re) {
			e.line, e.col = re.Pos.Line, re.Pos.Col
			if readErr == error(re) {
				// The position is in err_line and err_col; the message
				// says what is wrong (else `errors` names it twice).
				e.msg = re.Msg
			}
		}
		return e
	}
	e.msg = replayErr.Error()
	e.line, e.col = replayErr.Pos.Line, replayErr.Pos.Col
	// A move's text is in a block of the reader's (record's moveText): a
	// copy, not to keep the block.
	e.ply, e.move, e.rule = replayErr.Ply, strings.Clone(replayErr.Move), replayErr.Rule()
	return e
}

// positions lists every position of a valid game, main line and
// variations, a variation's branch point with the line it branches from;
// false, the game stored invalid, when one is past maxIndexedPly.
func (out *prepared) positions(g *replay.Game) bool {
	firsts := map[*replay.Step]bool{}
	npos := 1 // the positions Positions reports: the start, …
	var mark func([]*replay.Step)
	mark = func(l []*replay.Step) {
		npos += len(l) // … one after each move, …
		for _, st := range l {
			for _, v := range st.Variations {
				if len(v) > 0 {
					firsts[v[0]] = true
					npos++ // … and one where a variation branches off
					mark(v)
				}
			}
		}
	}
	mark(g.Main)
	out.pos = make([]posRow, 0, npos)
	g.Positions(func(ps replay.Position) {
		depth := ps.Depth
		if ps.Next != nil && firsts[ps.Next] {
			// The position where a variation branches off belongs to
			// the line it branches from.
			depth--
		}
		v := 0
		if depth > 0 {
			v = 1
		}
		out.pos = append(out.pos, posRow{key: ps.Key, ply: ps.Ply, vari: v})
	})
	for _, r := range out.pos {
		if r.ply > maxIndexedPly {
			out.valid = false
			out.err = &errInfo{msg: fmt.Sprintf("too long to index: a position at ply %d (positions are indexed up to ply %d)", r.ply, maxIndexedPly), ply: r.ply}
			out.pos = nil
			return false
		}
	}
	return true
}

// treeRows are the opening-tree moves of a valid game: the main line's
// first TreeDepth plies, each with the position it is played from.
func (p *preparer) treeRows(g *replay.Game) []treeRow {
	pos := rules.CopyInto(p.tree, g.Start, TreeDepth)
	p.tree = pos
	rows := make([]treeRow, 0, min(TreeDepth, len(g.Main)))
	for _, st := range g.Main {
		if st.Ply >= TreeDepth {
			break
		}
		if !st.Info.KeepsTurn {
			rows = append(rows, treeRow{key: pos.Key(), move: p.treeMove(st.Text), mover: int(pos.ToMove())})
		}
		pos.Play(st.Move)
	}
	return rows
}

func collectComments(b *strings.Builder, l record.Line) {
	for _, m := range l {
		for _, c := range m.Before {
			b.WriteString(c)
			b.WriteByte(' ')
		}
		for _, c := range m.After {
			b.WriteString(c)
			b.WriteByte(' ')
		}
		for _, v := range m.Variations {
			collectComments(b, v)
		}
	}
}

// scores reads a Result value as each side's points: "1-0", "0-1",
// "1/2-1/2", draughts "2-0"/"1-1", Dejarik points "3-0"… ok is false for "*"
// or anything else.
func scores(result string) (s0, s1 float64, ok bool) {
	a, b, found := strings.Cut(strings.TrimSpace(result), "-")
	if !found {
		return 0, 0, false
	}
	x, ok1 := points(a)
	y, ok2 := points(b)
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	return x, y, true
}

func points(s string) (float64, bool) {
	switch s {
	case "1/2", "½":
		return 0.5, true
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v > 1000 {
		return 0, false
	}
	return v, true
}

// maxIndexedPly is the last ply of an indexed position (posrun.MaxPly): a
// longer record is stored invalid.
const maxIndexedPly = posrun.MaxPly

// saltKey is the stored form of a position key: the key mixed with the game
// id, so that two rulesets sharing a key scheme (dames and dames-brigand)
// never share stored positions.
func saltKey(game string, key uint64) int64 {
	h := fnv.New64a()
	h.Write([]byte(game))
	return int64(key ^ h.Sum64())
}
