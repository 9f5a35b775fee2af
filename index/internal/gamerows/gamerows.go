// Package gamerows turns a record into the rows of its game: it replays
// the record (replay), and gives its canonical text and hash, its columns,
// its first error if invalid, and for a valid game its compact move list,
// every position (main line and variations), its opening-tree moves, tags,
// warnings and comments. One Preparer per worker; nothing is read from or
// written to the database.
//
// Decisions:
//
//   - A record the reader could not make a game of is kept, invalid, with
//     its error, under a hash of its file, offset and message, so that it
//     is listed.
//   - A rules package that panics on a record makes it invalid, saying so.
//   - A variation's branch point is the position of the line it branches
//     from (Var 0 on the main line).
//   - A game longer than MaxPly plies (or with a variation that goes past
//     it) is valid: its positions up to MaxPly are indexed, the others
//     are not, with a warning of kind WarnUnindexed naming the first ply
//     left out and its line (PlyLimit; validate gives the same one).
//   - The players' tags (the rules' side names) and the tags with a column
//     of their own (columnTag) are not tags rows.
//   - Untagged records of one file are detected as the ruleset detection
//     chose for the file's previous one, within one Preparer.
//   - A valid game's pattern signature (internal/patsig) sums up exactly
//     the positions a pattern scan tests, those its stored move list
//     replays to. It is written from the positions of the record's one
//     replay, as they are played (replay.Options.Visit,
//     pattern.PlaySigner): they are the same, and the game is not played
//     a second time. A record that detection tries under several rulesets
//     (replay's detect.go), whose replays are not shown, is signed from
//     its stored move list (pattern.Signer).
package gamerows

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/pattern"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// TreeDepth is the number of plies from a game's start whose main-line
// positions are stored under the aggregate's key in the position runs
// (posrun.Store.Key) and whose moves a player's opening line keeps
// (internal/playerlines).
const TreeDepth = 8

// TreeAggDepth is the number of plies from a game's start whose main-line
// moves are counted in the opening-tree aggregate (internal/treeagg): one
// ply more than TreeDepth, so that the tree of a position of ply
// TreeDepth, the last the players' lines and the marked keys reach, is
// read from the aggregate's rows too. Deeper positions are answered from
// the position runs (few games share them).
const TreeAggDepth = TreeDepth + 1

// MaxPly is the last ply of an indexed position (posrun.MaxPly): the
// positions of a longer game past it are not indexed (PlyLimit).
const MaxPly = posrun.MaxPly

// WarnUnindexed is the kind of the warning of a game whose positions past
// MaxPly are not indexed.
const WarnUnindexed = "unindexed"

// PlyLimit is the warning of a game with positions past MaxPly (main line
// first, then variations): the first move that leads past it, its ply and
// its line; false for a game that holds none.
func PlyLimit(g *replay.Game) (replay.Warning, bool) {
	st := pastMaxPly(g.Main)
	if st == nil {
		return replay.Warning{}, false
	}
	w := replay.Warning{Kind: WarnUnindexed, Text: fmt.Sprintf("the positions from ply %d on are not indexed (positions are indexed up to ply %d): a position search does not find them", st.Ply+1, MaxPly)}
	if st.Src != nil {
		w.Pos = st.Src.Pos
	}
	return w, true
}

// pastMaxPly is the first step of l or its variations after which the
// position is past MaxPly, nil when none is.
func pastMaxPly(l []*replay.Step) *replay.Step {
	for _, st := range l {
		if st.Ply >= MaxPly {
			return st
		}
		for _, v := range st.Variations {
			if s := pastMaxPly(v); s != nil {
				return s
			}
		}
	}
	return nil
}

// MaxComments bounds the comments of a game given to the text index: the
// first 32 KiB are searchable (Bleve's analysis of one large document
// costs many times its size).
const MaxComments = 32 << 10

// Record is one record as read from a source, ready to be prepared.
type Record struct {
	Game *record.Game // nil when the reader could not make a game of the text
	Err  error        // the read error, if any (*record.Error)
	File string
	Size int64 // bytes of source text the record took (0 if unknown)
}

// Rows is a record replayed and turned into the rows of its game.
type Rows struct {
	ID      int64 // the game's id when an edit stores it again; 0 for a new game
	Hash    [16]byte
	Game    string
	Valid   bool
	Players [2]string
	Event   string
	Site    string
	Date    string // normalized (Options.NormalizeDate)
	Result  string
	Term    string
	Plies   int
	File    string
	Offset  int64
	Line    int
	Size    int64
	Err     *ErrInfo
	Final   uint64
	FEN     string // the start position when not the standard one
	Moves   []byte // the compact move list (internal/movelist)
	Sig     []byte // the pattern signature (internal/patsig); nil: none
	Text    []byte // canonical text
	Tags    []record.Tag
	Pos     []Position
	Tree    []TreeMove
	Comment string // all comments, for the text index
	Annot   string
	Warns   []Warning

	// TreeLine is the main line's moves before ply TreeDepth, the huffs
	// among them included: those Tree's moves are played by
	// (internal/playerlines).
	TreeLine []rules.Move
}

// ErrInfo is the first error of an invalid record: its message and where.
type ErrInfo struct {
	Msg        string
	Line, Col  int
	Ply        int
	Move, Rule string
}

// Position is a position of a valid game: its rules key, ply, and Var 1
// in a variation.
type Position struct {
	Key uint64
	Ply int
	Var int
}

// TreeMove is a main-line move of a game's first TreeAggDepth plies: the key
// of the position it is played from, its text, and the side that played
// it.
type TreeMove struct {
	Key   uint64
	Move  string
	Mover int
}

// Warning is one warning of a game (replay.Warning).
type Warning struct {
	Kind, Msg string
	Line      int
}

// warnings are the rows of a replay's warnings.
func warnings(ws []replay.Warning) []Warning {
	var out []Warning
	for _, w := range ws {
		out = append(out, Warning{Kind: w.Kind, Msg: w.Text, Line: w.Pos.Line})
	}
	return out
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

// Options are what a Preparer needs beyond the records.
type Options struct {
	Replay replay.Options
	// NormalizeDate turns a Date tag into the date column's form; nil
	// keeps it as written.
	NormalizeDate func(string) string
}

// Preparer turns records into rows; one per worker: it keeps memory from
// one record to the next.
type Preparer struct {
	opts Options
	// the ruleset detection chose for the last untagged game of prefFile,
	// within one chunk (replay.Options.Prefer)
	prefFile, prefer string
	// The replay of a game is made in the memory of the game before:
	// nothing of it is kept in the rows but strings and numbers.
	rp replay.Replayer
	// treeMoves are the opening tree's move texts of earlier games
	// (treeMove).
	treeMoves []treeMoveSlot
	// sig writes a game's pattern signature as its replay plays it; sign,
	// from its stored move list when the replay was not shown to sig.
	sig  pattern.PlaySigner
	sign pattern.Signer
}

// treeMoveSlot is a text of treeMove's cache and its key: its bytes and
// its length.
type treeMoveSlot struct {
	key  uint64
	text string
}

// treeMove returns s, a tree row's move text, as a string of its own: the
// writer keeps the tree's moves (treeagg.Entry) for a whole transaction, and
// s may be the record's, in a block of the reader's texts (record's
// moveText) that it would keep alive. The first plies of a collection
// repeat few texts: a short one is taken from a small direct-mapped cache
// of the texts copied before, instead of a copy a row.
func (p *Preparer) treeMove(s string) string {
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

// NewPreparer is a preparer of records under opts.
func NewPreparer(opts Options) *Preparer {
	return &Preparer{opts: opts}
}

// ForgetDetection forgets the ruleset that detection chose for the last
// untagged record: records prepared in parallel (an import's chunks) keep
// the preference within their run only.
func (p *Preparer) ForgetDetection() { p.prefFile, p.prefer = "", "" }

// Prepare replays a record and turns it into rows. A rules package that
// panics on the record makes it an invalid record saying so.
func (p *Preparer) Prepare(r Record) (out *Rows) {
	defer func() {
		if v := recover(); v != nil {
			r.Game, r.Err = nil, fmt.Errorf("internal error while replaying: %v", v)
			out = p.prepare(r)
		}
	}()
	return p.prepare(r)
}

// prepare replays a record and turns it into rows, in stages: an
// unreadable record is kept with its error (unreadable); a readable one
// gets its columns (columns), its first error if any (recordError), and a
// valid one its move list, positions (positions), opening-tree moves
// (treeRows) and comments.
func (p *Preparer) prepare(r Record) *Rows {
	if r.Game == nil {
		return unreadable(r)
	}
	rec := r.Game
	out := &Rows{File: r.File, Size: r.Size, Offset: rec.Pos.Offset, Line: rec.Pos.Line}
	opts := p.opts.Replay
	if r.File == p.prefFile {
		opts.Prefer = p.prefer
	}
	p.sig.Forget()
	opts.Visit = &p.sig
	g := p.rp.Replay(rec, opts)
	if d := g.Detected(); d != "" || p.prefFile != r.File {
		p.prefFile, p.prefer = r.File, d
	}
	canon := g.CanonicalView()
	date := p.opts.NormalizeDate
	if date == nil {
		date = func(s string) string { return s }
	}
	out.columns(rec, g, canon, r.Size, date)
	if r.Err != nil || g.Err != nil {
		out.Err = recordError(r.Err, g.Err)
		return out
	}
	out.Valid = true
	if canon.Tag("FEN") != "" {
		out.FEN = g.Start.String()
	}
	out.Moves = movelist.Encode(g.Main)
	out.Final = g.Final.Key()
	sig, shown := p.sig.Append(nil)
	if !shown {
		sig = p.sign.Sign(nil, g.Rules, out.FEN, out.Moves, out.Final)
	}
	if len(sig) > 0 {
		out.Sig = sig
	}
	out.positions(g)
	out.Tree, out.TreeLine = p.treeRows(g)
	var cb strings.Builder
	for _, c := range rec.Intro {
		cb.WriteString(c)
		cb.WriteByte(' ')
	}
	Comments(&cb, rec.Moves)
	out.Comment = record.Clip(cb.String(), MaxComments)
	return out
}

// unreadable is the rows of a record the reader could not make a game
// of: its error, so that it is listed, under a hash of its place.
func unreadable(r Record) *Rows {
	out := &Rows{File: r.File, Size: r.Size, Game: "?"}
	msg := "unreadable record"
	if r.Err != nil {
		msg = r.Err.Error()
	}
	var re *record.Error
	if errors.As(r.Err, &re) {
		out.Line, out.Offset = re.Pos.Line, re.Pos.Offset
	}
	out.Err = &ErrInfo{Msg: msg, Line: out.Line}
	h := sha256.Sum256([]byte("unreadable\x00" + r.File + "\x00" + strconv.FormatInt(out.Offset, 10) + "\x00" + msg))
	copy(out.Hash[:], h[:])
	return out
}

// columns fills the game's columns from its record and replay: canonical
// text and its hash, ruleset, players, event, site, date, result,
// termination, plies, annotator, warnings, and the tags without a column
// of their own.
func (out *Rows) columns(rec *record.Game, g *replay.Game, canon *record.Game, size int64, date func(string) string) {
	// The canonical text is about as long as the record's (room for a
	// little more: move numbers, long forms), in one allocation.
	text := record.AppendFormat(make([]byte, 0, size+size/8+64), canon)
	h := sha256.Sum256(text)
	copy(out.Hash[:], h[:])
	out.Text = text
	var sides [2]string
	if g.Rules != nil {
		out.Game = g.Rules.ID()
		sides = g.Rules.Sides()
		out.Players = [2]string{strings.TrimSpace(rec.Tag(sides[0])), strings.TrimSpace(rec.Tag(sides[1]))}
	} else {
		out.Game = strings.ToLower(strings.TrimSpace(rec.Tag("Game")))
		if out.Game == "" {
			out.Game = "?"
		}
		out.Players = [2]string{rec.Tag("White"), rec.Tag("Black")}
	}
	out.Event, out.Site, out.Date = rec.Tag("Event"), rec.Tag("Site"), date(rec.Tag("Date"))
	out.Result = canon.Tag("Result")
	out.Term = g.Termination()
	out.Plies = g.Plies()
	out.Annot = rec.Tag("Annotator")
	out.Warns = warnings(g.Warnings)
	out.Tags = make([]record.Tag, 0, len(canon.Tags))
	for _, t := range canon.Tags {
		// The players' tags are the players columns.
		if !columnTag(t.Name) && t.Name != sides[0] && t.Name != sides[1] && t.Value != "" {
			out.Tags = append(out.Tags, t)
		}
	}
}

// recordError is the first error of a record: the reader's (readErr),
// else the replay's.
func recordError(readErr error, replayErr *replay.Error) *ErrInfo {
	e := &ErrInfo{}
	if readErr != nil {
		e.Msg = readErr.Error()
		var re *record.Error
		if errors.As(readErr, &re) {
			e.Line, e.Col = re.Pos.Line, re.Pos.Col
			if readErr == error(re) {
				// The position is in err_line and err_col; the message
				// says what is wrong (else `errors` names it twice).
				e.Msg = re.Msg
			}
		}
		return e
	}
	e.Msg = replayErr.Error()
	e.Line, e.Col = replayErr.Pos.Line, replayErr.Pos.Col
	// A move's text is in a block of the reader's (record's moveText): a
	// copy, not to keep the block.
	e.Ply, e.Move, e.Rule = replayErr.Ply, strings.Clone(replayErr.Move), replayErr.Rule()
	return e
}

// positions lists every position of a valid game up to MaxPly, main line
// and variations, a variation's branch point with the line it branches
// from; those past MaxPly are left out, with the warning PlyLimit.
func (out *Rows) positions(g *replay.Game) {
	var firsts map[*replay.Step]bool // nil for a game without variations
	npos := 1 + branches(g.Main, &firsts)
	out.Pos = make([]Position, 0, npos)
	if firsts == nil && g.Start != nil {
		out.mainPositions(g)
	} else {
		out.treePositions(g, firsts)
	}
	if w, ok := PlyLimit(g); ok {
		out.Warns = append(out.Warns, warnings([]replay.Warning{w})...)
	}
}

// mainPositions lists the positions of a game without variations as
// Positions reports them (the start, then the position after each move,
// a huff's with the ply of the position before it), up to MaxPly,
// without the walk and its calls.
func (out *Rows) mainPositions(g *replay.Game) {
	out.Pos = append(out.Pos, Position{Key: g.Start.Key()})
	ply := 0
	for _, st := range g.Main {
		if !st.Info.KeepsTurn {
			ply = st.Ply + 1
		}
		if ply <= MaxPly {
			out.Pos = append(out.Pos, Position{Key: st.Key, Ply: ply})
		}
	}
}

// treePositions lists the positions of a game from Positions, firsts
// being the first steps of its variations.
func (out *Rows) treePositions(g *replay.Game, firsts map[*replay.Step]bool) {
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
		if ps.Ply <= MaxPly {
			out.Pos = append(out.Pos, Position{Key: ps.Key, Ply: ps.Ply, Var: v})
		}
	})
}

// branches marks in *firsts the first steps of the variations of l and
// of theirs, made when there are some, and returns the positions that
// Positions reports for l but the start: one after each move, and one
// where a variation branches off.
func branches(l []*replay.Step, firsts *map[*replay.Step]bool) int {
	n := len(l)
	for _, st := range l {
		for _, v := range st.Variations {
			if len(v) > 0 {
				if *firsts == nil {
					*firsts = map[*replay.Step]bool{}
				}
				(*firsts)[v[0]] = true
				n += 1 + branches(v, firsts)
			}
		}
	}
	return n
}

// treeRows are the opening-tree moves of a valid game: the main line's
// first TreeAggDepth plies, each with the position it is played from;
// and the moves of its first TreeDepth plies, huffs included
// (Rows.TreeLine). The keys and movers are the replay's (Step.Key of the
// step before, Step.Mover): the line is not played again.
func (p *Preparer) treeRows(g *replay.Game) ([]TreeMove, []rules.Move) {
	rows := make([]TreeMove, 0, min(TreeAggDepth, len(g.Main)))
	line := make([]rules.Move, 0, min(TreeDepth, len(g.Main)))
	key := g.Start.Key()
	for _, st := range g.Main {
		if st.Ply >= TreeAggDepth {
			break
		}
		if !st.Info.KeepsTurn {
			rows = append(rows, TreeMove{Key: key, Move: p.treeMove(st.Text), Mover: int(st.Mover)})
		}
		if st.Ply < TreeDepth {
			line = append(line, st.Move)
		}
		key = st.Key
	}
	return rows, line
}

// Comments writes the comments of a line and its variations, each followed
// by a space.
func Comments(b *strings.Builder, l record.Line) {
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
			Comments(b, v)
		}
	}
}

// SaltKey is the stored form of a position key: the key mixed with the
// game id, so that two rulesets sharing a key scheme (dames and
// dames-brigand) never share stored positions.
func SaltKey(game string, key uint64) int64 {
	h := fnv.New64a()
	h.Write([]byte(game))
	return int64(key ^ h.Sum64())
}

// Scores reads a Result value as each side's points: "1-0", "0-1",
// "1/2-1/2", draughts "2-0"/"1-1", Dejarik points "3-0"… ok is false for "*"
// or anything else.
func Scores(result string) (s0, s1 float64, ok bool) {
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
