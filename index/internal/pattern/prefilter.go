package pattern

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/plateau/plateau/index/internal/patsig"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/rules"
)

// A Prefilter tells from a game's signature (internal/patsig) that none
// of its positions can match a pattern, so that a scan skips the game
// without replaying it. It only ever rejects a game whose bounds leave no
// position where every term holds taken one at a time: it is a superset,
// never a guess, and a game without a signature is tested.

// Prefilter is a pattern's test of signatures (Matcher.Prefilter).
type Prefilter struct {
	terms   []sigTerm
	squares []int      // the board sizes of the layouts compiled for
	sig     patsig.Sig // the signature being tested (May is not concurrent)
}

// sigTerm is a pattern term compiled for signatures.
type sigTerm struct {
	kind    TermKind
	codes   [256]bool // board codes of matching pieces, in any layout
	slots   []bool    // hand slots of matching pieces, in any layout
	regions uint8     // OnSquares: the regions of its squares
	side    int       // OnBoard, InHand of every piece of a side (2: both); -1 else
	op      cmpOp
	n       int
}

// Prefilter compiles m's terms for the signatures of games played on
// layouts (every board of the ruleset, as Layouts gives them): a term's
// codes, slots and regions are their union over the layouts. It is nil
// when no term can reject a game (only Empty terms, or no layout).
func (m *Matcher) Prefilter(layouts []*rules.Layout) *Prefilter {
	if len(layouts) == 0 {
		return nil
	}
	f := &Prefilter{}
	for i := range m.terms {
		t := &m.terms[i]
		if t.Kind == Empty {
			continue // a signature says where pieces stood, not where none did
		}
		st := sigTerm{kind: t.Kind, side: -1, op: opOf(t.Op), n: t.N}
		if t.Piece == 0 && t.Promo < 0 {
			st.side = 2
			if t.side >= 0 {
				st.side = t.side
			}
		}
		for _, l := range layouts {
			st.add(t, l)
			if !slices.Contains(f.squares, len(l.Squares)) {
				f.squares = append(f.squares, len(l.Squares))
			}
		}
		f.terms = append(f.terms, st)
	}
	if len(f.terms) == 0 {
		return nil
	}
	return f
}

// add adds to st what term t means on layout l.
func (st *sigTerm) add(t *mterm, l *rules.Layout) {
	for c := range l.Codes {
		if t.fits(l.Codes[c]) {
			st.codes[c] = true
		}
	}
	for k, pc := range l.Hand {
		if t.fits(pc) {
			for len(st.slots) <= k {
				st.slots = append(st.slots, false)
			}
			st.slots[k] = true
		}
	}
	if t.Kind == OnSquares {
		for i, s := range l.Squares {
			if t.sq[s] {
				st.regions |= 1 << patsig.Region(i, len(l.Squares))
			}
		}
	}
}

// May reports whether a game with signature sig may have a matching
// position: false only when its bounds rule one out. It is not safe for
// concurrent use.
func (f *Prefilter) May(sig []byte) bool {
	s := &f.sig
	s.Parse(sig)
	if !s.OK || !slices.Contains(f.squares, s.Squares) {
		return true // a board the pattern was not compiled for: test it
	}
	for i := range f.terms {
		t := &f.terms[i]
		var lo, hi int
		switch t.kind {
		case OnSquares:
			if !s.Stood(&t.codes, t.regions) {
				return false
			}
			continue
		case OnBoard:
			if t.side >= 0 {
				lo, hi = s.Board.Min[t.side], s.Board.Max[t.side]
			} else {
				lo, hi = s.BoardCount(&t.codes)
			}
		case InHand:
			if t.side >= 0 {
				lo, hi = s.Hand.Min[t.side], s.Hand.Max[t.side]
			} else {
				lo, hi = s.HandCount(t.slots)
			}
		}
		if !t.op.within(lo, hi, t.n) {
			return false
		}
	}
	return true
}

// within reports whether some count from lo to hi compares with v as o
// asks.
func (o cmpOp) within(lo, hi, v int) bool {
	switch o {
	case opNe:
		return lo != hi || lo != v
	case opLt:
		return lo < v
	case opLe:
		return lo <= v
	case opGt:
		return hi > v
	case opGe:
		return hi >= v
	}
	return lo <= v && v <= hi
}

// sigBlocks is the number of signature blocks (patsig.BlockGames games
// each) readFiltered reads at a time.
const sigBlocks = 16

// readFiltered is readBatches through a prefilter: it reads the
// signatures in id order, sigBlocks blocks at a time (internal/patsig),
// and then the rows of the games of these blocks that f does not rule
// out and cond selects.
func readFiltered(ctx context.Context, q Querier, f *Prefilter, cond string, args []any, free chan *batch, emit func(*batch) error) error {
	from := int64(-1 << 62)
	ids := make([]int64, 0, sigBlocks*patsig.BlockGames)
	may := func(id int64, sig []byte) {
		if f.May(sig) {
			ids = append(ids, id)
		}
	}
	for {
		rows, err := q.QueryContext(ctx, `SELECT block, sigs FROM pattern_sigs WHERE block >= ? ORDER BY block LIMIT ?`, from, sigBlocks)
		if err != nil {
			return err
		}
		ids = ids[:0]
		n := 0
		var block int64
		var blob sql.RawBytes
		for rows.Next() {
			if err := rows.Scan(&block, &blob); err != nil {
				rows.Close()
				return err
			}
			n++
			if !patsig.Entries(block, blob, may) {
				rows.Close()
				return fmt.Errorf("pattern signatures of block %d: %w", block, ErrSigCorrupt)
			}
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		from = block + 1
		if len(ids) == 0 {
			continue
		}
		games, err := q.QueryContext(ctx, `SELECT g.id, g.fen, g.final, g.moves FROM games g WHERE `+cond+
			` AND g.id IN (SELECT value FROM json_each(?)) ORDER BY g.id`, append(slices.Clip(args), store.JSONIDs(ids))...)
		if err != nil {
			return err
		}
		if err := emitRows(games, free, emit); err != nil {
			return err
		}
	}
}

// ErrSigCorrupt: a block of stored signatures does not parse.
var ErrSigCorrupt = errors.New("stored signatures corrupt")
