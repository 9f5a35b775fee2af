package rules

// Pattern search tests millions of positions; building Board's placements
// (square names as strings) for each one costs more than playing the move.
// A Position may therefore also implement Cells, which copies its board
// into caller-owned bytes, one code per square, and its hands into counts,
// one per hand slot; a Layout, shared by every position that uses the same
// encoding, says what the squares, the codes and the slots are. A pattern
// is compiled once per Layout into tests on square indexes and codes, and
// each position is then tested without allocation. Board stays the
// definition: for every position, the placements that Cells and Layout
// describe (Placements) are exactly Board's, as a multiset.

// Piece is what a cell code or a hand slot holds.
type Piece struct {
	Kind     byte // the piece letter as in Placement.Kind; 0 for an empty cell or an unused code
	Side     Side
	Promoted bool
}

// Layout describes the encoding of a Cells position. One Layout value is
// shared by every position with that encoding (compare pointers).
type Layout struct {
	// Squares are the square names, as in Placement.Square, by cell index.
	Squares []string
	// Codes says what each cell code means; a code whose Kind is 0 is an
	// empty square.
	Codes [256]Piece
	// Hand says what each hand slot counts; nil for a game without hands.
	Hand []Piece
}

// Cells is implemented by positions that expose their board cheaply.
type Cells interface {
	// Layout is the position's encoding; the same pointer for every
	// position with the same encoding. Play and Clone keep it.
	Layout() *Layout
	// Cells writes the code of every square into board (of length
	// len(Layout().Squares)) and the number of pieces in every hand slot
	// into hand (of length len(Layout().Hand)). It does not allocate.
	Cells(board, hand []byte)
}

// Placements lists the placements that a Cells encoding describes: every
// non-empty square, then every non-empty hand slot (Count its number). It is
// Board's content, in an order of its own, for tests and for callers that
// hold cells.
func Placements(l *Layout, board, hand []byte) []Placement {
	var out []Placement
	for i, c := range board {
		if pc := l.Codes[c]; pc.Kind != 0 {
			out = append(out, Placement{Square: l.Squares[i], Side: pc.Side, Kind: pc.Kind, Promoted: pc.Promoted, Count: 1})
		}
	}
	for i, n := range hand {
		if pc := l.Hand[i]; n > 0 && pc.Kind != 0 {
			out = append(out, Placement{Side: pc.Side, Kind: pc.Kind, Promoted: pc.Promoted, Count: int(n)})
		}
	}
	return out
}

// Reserver is implemented by positions that keep a history growing with
// every move (for a repetition rule): CloneReserve is Clone with room for n
// more moves, so that a caller that knows how many moves it will play (a
// scan of stored games) does not grow the history move by move.
type Reserver interface {
	CloneReserve(n int) Position
}

// A Copier is a Position that copies itself into the memory of another
// position of its game, for callers that copy millions of positions and
// drop each copy soon (a pattern scan copies a start position for every
// game and a position for every variation): a copy then allocates nothing
// once dst has grown. It is optional: CopyInto works for every Position.
type Copier interface {
	// CopyInto makes dst an independent copy of the position, with room
	// for n more moves as CloneReserve, and returns it. dst is the caller's
	// to give up: nil, a position of another game (a new copy is made), or
	// a position that no other position shares memory with: one that
	// CopyInto returned and that has not been cloned since (a clone may
	// share its history with it). dst must not be used afterwards except
	// through the result.
	CopyInto(dst Position, n int) Position
}

// CopyInto returns a copy of p with room for n more moves, made in dst's
// memory when p is a Copier (see Copier for what dst may be), else by
// CloneReserve or Clone.
func CopyInto(dst, p Position, n int) Position {
	if c, ok := p.(Copier); ok {
		return c.CopyInto(dst, n)
	}
	if r, ok := p.(Reserver); ok {
		return r.CloneReserve(n)
	}
	return p.Clone()
}

// CopyStruct is CopyInto for a position that holds no slice or map (its
// struct is all of it): the copy is made in dst when dst is of p's type.
func CopyStruct[T any, PT interface {
	*T
	Position
}](dst Position, p PT) Position {
	d, _ := dst.(PT)
	if d == nil {
		d = PT(new(T))
	}
	*d = *p
	return d
}

// CopyHistory is a copy of live, a position's history, with room for n
// more entries: in buf's array when reuse is true and it is large enough
// (live may lie in that array: the copy moves it), else in a new one.
func CopyHistory[E any](buf []E, reuse bool, live []E, n int) []E {
	need := len(live) + max(n, 0)
	var h []E
	if reuse && cap(buf) >= need {
		h = buf[:len(live)]
	} else {
		h = make([]E, len(live), need+need/4+8)
	}
	copy(h, live)
	return h
}

// OverWhenStuck is implemented by positions whose game is over exactly when
// the side to move can play no move: ParseMove then refuses every text, and
// a move it accepts shows that Outcome is not over. A replay need not ask
// Outcome before such a move (in Ōgi, Outcome looks for a legal move).
type OverWhenStuck interface {
	OverWhenStuck()
}
