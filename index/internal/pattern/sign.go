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
