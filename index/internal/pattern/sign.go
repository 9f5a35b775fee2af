package pattern

import (
	"github.com/plateau/plateau/index/internal/patsig"
	"github.com/plateau/plateau/rules"
)

// Signer writes the signatures (internal/patsig) of stored games, walking
// their positions as a scan's Worker does, so that a signature sums up
// exactly the positions a pattern is tested on. One per goroutine; it
// keeps a worker per ruleset.
type Signer struct {
	workers map[string]*Worker
}

// Sign appends to dst the signature of a stored game of ruleset g: its
// start position (fen, "" for the standard one), its move list
// (internal/movelist) and the key of its main line's last position. It
// appends nothing for a game whose positions it cannot all know: a
// ruleset whose positions have no cells, stored moves that do not replay
// to final or make the rules panic (a stale game, tested from its record).
func (s *Signer) Sign(dst []byte, g rules.Game, fen string, moves []byte, final uint64) []byte {
	w := s.workers[g.ID()]
	if w == nil {
		if s.workers == nil {
			s.workers = map[string]*Worker{}
		}
		w = NewWorker(g, &Matcher{})
		w.sig = &patsig.Builder{}
		s.workers[g.ID()] = w
	}
	c := Cand{FEN: fen, Final: int64(final), Moves: moves}
	w.sig.Fail() // until bind resets it for the game's layout
	w.MatchGame(&c)
	if c.Err != nil || c.Stale || c.OK {
		return dst
	}
	return w.sig.Append(dst)
}

// PlaySigner writes the signature of a game from its positions as its
// replay plays them (replay.Visitor), so that an import plays each game
// once: the replay's moves are the ones its stored move list keeps
// (internal/movelist), so the positions, and the signature, are those Sign
// gives for the stored game. One per goroutine; it keeps its memory from
// game to game.
type PlaySigner struct {
	b           patsig.Builder
	board, hand []byte
	// started: Start was called since Forget; cells: its position has
	// cells (else the game gets no signature, as from Sign).
	started, cells bool
}

// Forget starts over: the positions shown before are forgotten. Call it
// before each replay shown to s.
func (s *PlaySigner) Forget() { s.started, s.cells = false, false }

// Start takes a game's start position (replay.Visitor).
func (s *PlaySigner) Start(pos rules.Position) {
	s.started = true
	c, ok := pos.(rules.Cells)
	s.cells = ok
	if !ok {
		return
	}
	l := c.Layout()
	s.b.Reset(l)
	if cap(s.board) < len(l.Squares) {
		s.board = make([]byte, len(l.Squares))
	}
	if cap(s.hand) < len(l.Hand) {
		s.hand = make([]byte, len(l.Hand))
	}
	s.board, s.hand = s.board[:len(l.Squares)], s.hand[:len(l.Hand)]
	s.add(c)
}

// Played takes the position after a move (replay.Visitor).
func (s *PlaySigner) Played(pos rules.Position) {
	if s.cells {
		// The positions of a game share the start's type, which has
		// cells.
		s.add(pos.(rules.Cells))
	}
}

func (s *PlaySigner) add(c rules.Cells) {
	c.Cells(s.board, s.hand)
	s.b.Add(s.board, s.hand)
}

// Append appends to dst the signature of the game shown since Forget:
// nothing for a game whose positions have no cells. shown is false when
// no replay was shown (no Start): the caller signs the game otherwise
// (Sign).
func (s *PlaySigner) Append(dst []byte) (_ []byte, shown bool) {
	if !s.started {
		return dst, false
	}
	if !s.cells {
		return dst, true
	}
	return s.b.Append(dst), true
}
