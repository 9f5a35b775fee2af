package pattern

import (
	"fmt"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/patsig"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// Worker tests games against one pattern; one per goroutine.
type Worker struct {
	g       rules.Game
	m       *Matcher
	starts  map[string]rules.Position // parsed start positions by FEN
	layouts map[*rules.Layout]*cellMatcher
	// For the current game: its cells (nil to test Board) and the matcher
	// of its layout.
	cells       rules.Cells
	cm          *cellMatcher
	board, hand []byte
	// pos[d] is the memory of the position played at variation depth d
	// (0 the main line), reused from game to game through rules.CopyInto:
	// a game's copies allocate nothing once they have grown.
	pos []rules.Position
	// sig, for a Signer's worker, takes every position instead of the
	// matcher (sign.go).
	sig *patsig.Builder
}

// NewWorker is a worker testing the games of g against m.
func NewWorker(g rules.Game, m *Matcher) *Worker {
	return &Worker{g: g, m: m, starts: map[string]rules.Position{}, layouts: map[*rules.Layout]*cellMatcher{}}
}

// start returns a copy of the start position given by a FEN ("" for the
// standard one), parsed once per worker, with room for the moves of the
// stored list (a history that grows with every move is allocated once), in
// the worker's main-line position.
func (w *Worker) start(fen string, moves []byte) (rules.Position, error) {
	p, ok := w.starts[fen]
	if !ok {
		var err error
		if p, err = w.g.NewPosition(fen); err != nil {
			return nil, err
		}
		if len(w.starts) > 64 { // handicap starts are few; bound the cache anyway
			clear(w.starts)
		}
		w.starts[fen] = p
	}
	d := movelist.NewDecoder(moves)
	return w.copy(0, p, &d), nil
}

// bind prepares the tests for the positions of a game starting at pos. The
// rules keep a position's layout through Play.
func (w *Worker) bind(pos rules.Position) {
	c, ok := pos.(rules.Cells)
	if !ok {
		w.cells, w.cm = nil, nil
		if w.sig != nil {
			w.sig.Fail()
		}
		return
	}
	l := c.Layout()
	if w.sig != nil {
		w.sig.Reset(l)
	}
	cm := w.layouts[l]
	if cm == nil {
		cm = w.m.compileCells(l)
		w.layouts[l] = cm
	}
	w.cells, w.cm = c, cm
	if len(w.board) < len(l.Squares) {
		w.board = make([]byte, len(l.Squares))
	}
	if len(w.hand) < len(l.Hand) {
		w.hand = make([]byte, len(l.Hand))
	}
	w.board, w.hand = w.board[:len(l.Squares)], w.hand[:len(l.Hand)]
}

// test reports whether the pattern matches pos (a position of the bound
// game).
func (w *Worker) test(pos rules.Position) bool {
	if w.cells == nil && w.sig != nil {
		return false // no signature (bind): the game is walked for nothing
	}
	if w.cells == nil {
		return w.m.match(pos.Board())
	}
	// pos is the bound game's position or a clone of it (a variation):
	// clones share the type, so the assertion is cheap and exact.
	return w.testCells(pos.(rules.Cells))
}

// testCells is test for a position of the bound game that has cells.
func (w *Worker) testCells(pos rules.Cells) bool {
	pos.Cells(w.board, w.hand)
	if w.sig != nil {
		w.sig.Add(w.board, w.hand)
		return false
	}
	return w.cm.match(w.board, w.hand)
}

// Cand is one game to test and, after MatchGame or MatchRecord, the
// answer.
type Cand struct {
	ID    int64
	FEN   string // the start position, "" for the standard one
	Final int64  // the stored key of the main line's last position
	Moves []byte // the stored move list
	// The answer: the first matching position, if OK; Stale when the
	// stored moves do not replay (then match the record).
	Ply   int
	Var   bool
	OK    bool
	Stale bool
	Err   error
}

// MatchGame finds the first position of a game that matches (main line and
// variations, in play order), playing the stored move values as they are
// decoded. If the main line does not end on the stored final key (a rules
// package whose move encoding changed), or a stored move makes the rules
// panic, the game is marked stale: it is then matched from its record.
func (w *Worker) MatchGame(c *Cand) {
	c.OK, c.Stale, c.Err = false, false, nil
	defer func() {
		if recover() != nil {
			c.OK, c.Stale = false, true
		}
	}()
	pos, err := w.start(c.FEN, c.Moves)
	if err != nil {
		c.Err = err
		return
	}
	w.bind(pos)
	d := movelist.NewDecoder(c.Moves)
	found := w.test(pos)
	if found {
		c.OK, c.Ply, c.Var = true, 0, false
	} else {
		found = w.line(&d, pos, 0, 0, c)
	}
	if d.Err() != nil {
		c.Err = d.Err()
		return
	}
	if found {
		// A match before the end cannot be checked against the final key:
		// replay the main line to check it.
		if !w.trusted(c) {
			c.OK, c.Stale = false, true
		}
		return
	}
	if d.Rest() != 0 {
		c.Err = fmt.Errorf("%w: %d bytes after the main line", movelist.ErrCorrupt, d.Rest())
		return
	}
	if pos.Key() != uint64(c.Final) {
		c.Stale = true
	}
}

// line plays one line of the stored move list (internal/movelist) from pos,
// testing the position after every move; variations are played, from a
// copy, before the move they replace. It returns true at the first match.
func (w *Worker) line(d *movelist.Decoder, pos rules.Position, ply, depth int, c *Cand) bool {
	n := d.Uvarint()
	if n > uint64(d.Rest()) {
		d.Fail()
		return false
	}
	// The line's position's optional interfaces, asserted once for the
	// line rather than at every move.
	tk, _ := pos.(rules.TurnKeeper)
	var cells rules.Cells
	if w.cells != nil {
		cells = pos.(rules.Cells)
	}
	for ; n > 0 && d.Err() == nil; n-- {
		m, nv := d.Step()
		if d.Err() != nil || nv > uint64(d.Rest()) {
			d.Fail()
			return false
		}
		for ; nv > 0; nv-- {
			if w.line(d, w.copy(depth+1, pos, d), ply, depth+1, c) {
				return true
			}
			if d.Err() != nil {
				return false
			}
		}
		if tk != nil && !tk.KeepsTurn(m) || tk == nil && !pos.Describe(m).KeepsTurn {
			ply++
		}
		pos.Play(m)
		if cells != nil && w.testCells(cells) || cells == nil && w.test(pos) {
			c.OK, c.Ply, c.Var = true, ply, depth > 0
			return true
		}
	}
	return false
}

// copy copies pos into the worker's position of a depth, for the line that
// d is at, with room for its moves. The position copied before at that
// depth is given up: its line is over (variations are played one at a
// time, depth first).
func (w *Worker) copy(depth int, pos rules.Position, d *movelist.Decoder) rules.Position {
	for len(w.pos) <= depth {
		w.pos = append(w.pos, nil)
	}
	n := 0
	peek := *d
	if v := peek.Uvarint(); peek.Err() == nil && v <= uint64(peek.Rest()) {
		n = int(v)
	}
	c := rules.CopyInto(w.pos[depth], pos, n)
	w.pos[depth] = c
	return c
}

// trusted replays the main line of the stored moves and compares its final
// key with the stored one.
func (w *Worker) trusted(c *Cand) bool {
	pos, err := w.start(c.FEN, c.Moves)
	if err != nil {
		return false
	}
	d := movelist.NewDecoder(c.Moves)
	n := d.Uvarint()
	for ; n > 0 && d.Err() == nil; n-- {
		m, nv := d.Step()
		for ; nv > 0 && d.Err() == nil; nv-- {
			movelist.SkipLine(&d)
		}
		pos.Play(m)
	}
	return d.Err() == nil && pos.Key() == uint64(c.Final)
}

// MatchRecord is MatchGame's fallback for a stale game: it replays the
// stored record text.
func (w *Worker) MatchRecord(rec *record.Game, c *Cand) {
	c.OK, c.Stale, c.Err = false, false, nil
	g := replay.Replay(rec, replay.Options{})
	if g.Err != nil || g.Start == nil {
		c.Err = fmt.Errorf("stored record does not replay: %v", g.Err)
		return
	}
	w.bind(g.Start)
	if w.test(g.Start) {
		c.OK, c.Ply, c.Var = true, 0, false
		return
	}
	var walk func(steps []*replay.Step, pos rules.Position, ply int) bool
	walk = func(steps []*replay.Step, pos rules.Position, ply int) bool {
		for _, s := range steps {
			for _, v := range s.Variations {
				if walk(v, pos.Clone(), ply) {
					return true
				}
			}
			pos.Play(s.Move)
			if !s.Info.KeepsTurn {
				ply++
			}
			if w.test(pos) {
				c.OK, c.Ply, c.Var = true, ply, s.Depth > 0
				return true
			}
		}
		return false
	}
	walk(g.Main, g.Start.Clone(), 0)
}
