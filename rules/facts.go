package rules

// Coord is a square's place on a rectangular board: file and rank counted
// from 1 (a1 is {1, 1}). The zero Coord is no place: a drop's origin, or a
// square of a game whose squares are not named by file and rank (dames
// numbers, Dejarik cells).
type Coord struct{ File, Rank int8 }

// MoveFacts is MoveInfo in numbers, for programs that weigh every legal move
// of many positions (move-choice policies): no strings, nothing to allocate.
type MoveFacts struct {
	From, To  Coord // From is zero for a drop
	Captures  int16
	Promotes  bool
	Drop      bool
	KeepsTurn bool
}

// A FactsDescriber is a Position that describes moves in bulk as MoveFacts,
// faster than Describe move by move. It is optional: AppendFacts works for
// every Position.
type FactsDescriber interface {
	// AppendFacts appends the facts of each of moves, legal moves of the
	// position, to dst.
	AppendFacts(dst []MoveFacts, moves []Move) []MoveFacts
}

// AppendFacts appends the facts of each of moves (legal in p) to dst, through
// p's own AppendFacts when it has one, else through Describe and CoordOf.
func AppendFacts(p Position, dst []MoveFacts, moves []Move) []MoveFacts {
	if fd, ok := p.(FactsDescriber); ok {
		return fd.AppendFacts(dst, moves)
	}
	for _, m := range moves {
		dst = append(dst, FactsOf(p.Describe(m)))
	}
	return dst
}

// A MoveAppender is a Position that appends a move's text (FormatMove's) to
// a byte slice, for writers of many moves that would rather not allocate a
// string for each.
type MoveAppender interface {
	AppendMove(dst []byte, m Move) []byte
}

// AppendMove appends p.FormatMove(m) to dst, without a string when p is a
// MoveAppender.
func AppendMove(p Position, dst []byte, m Move) []byte {
	if ma, ok := p.(MoveAppender); ok {
		return ma.AppendMove(dst, m)
	}
	return append(dst, p.FormatMove(m)...)
}

// FactsOf converts a MoveInfo to MoveFacts.
func FactsOf(info MoveInfo) MoveFacts {
	return MoveFacts{
		From:      CoordOf(info.From),
		To:        CoordOf(info.To),
		Captures:  int16(min(info.Captures, 1<<15-1)),
		Promotes:  info.Promotes,
		Drop:      info.Drop,
		KeepsTurn: info.KeepsTurn,
	}
}

// CoordOf reads a square name made of letters then digits, or digits then
// letters ("e4", "G6", "j10", "10j"), as a Coord: letters a=1 … z=26 give
// the file, digits the rank. Any other name (a dames number "32", a Dejarik
// cell, "") gives the zero Coord.
func CoordOf(sq string) Coord {
	if len(sq) == 2 { // the common case: "e4", "G6"
		l, d := sq[0]|0x20, sq[1]
		if l >= 'a' && l <= 'z' && d >= '1' && d <= '9' {
			return Coord{int8(l-'a') + 1, int8(d - '0')}
		}
	}
	var file, rank, runs int
	prev := byte(0) // 'a' for a letter, '0' for a digit
	for i := 0; i < len(sq); i++ {
		var class byte
		switch ch := sq[i]; {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z':
			class, file = 'a', file*26+int(ch|0x20-'a'+1)
		case ch >= '0' && ch <= '9':
			class, rank = '0', rank*10+int(ch-'0')
		default:
			return Coord{}
		}
		if class != prev {
			runs, prev = runs+1, class
		}
		if runs > 2 || file > 127 || rank > 127 {
			return Coord{}
		}
	}
	if runs != 2 || file == 0 || rank == 0 {
		return Coord{}
	}
	return Coord{int8(file), int8(rank)}
}

// Dist is the number of King steps between two coordinates (Chebyshev
// distance); 0 when either is the zero Coord.
func Dist(a, b Coord) int {
	if a == (Coord{}) || b == (Coord{}) {
		return 0
	}
	df, dr := int(a.File)-int(b.File), int(a.Rank)-int(b.Rank)
	if df < 0 {
		df = -df
	}
	if dr < 0 {
		dr = -dr
	}
	return max(df, dr)
}

// Policy is what a move-choice policy weighs, for a Chooser. Weights are in
// the units of Noise, the width of the uniform random number added to every
// move's score.
type Policy struct {
	Noise    int
	Capture  int // per piece captured
	Promote  int // a promotion
	Progress int // per King step nearer to the enemy's royal piece
	Drop     int // a drop from the hand
	Royal    int // the cost of moving one's own royal piece
	// Safety: when another move exists, do not choose a move after which
	// the opponent can capture the mover's royal piece at once.
	Safety bool
}

// A Chooser is a Position that chooses a move by a Policy itself, faster than
// a caller can by scoring Legal's moves through MoveFacts (collection
// generators play millions of moves). A move that captures the enemy's royal
// piece (ending the game) is always chosen. Choose returns a legal move
// other than skip, doomed when Safety found no move that keeps the royal
// piece safe (the best move is then returned anyway), and ok false when
// the game is over (Outcome().Over) or there is no legal move other than
// skip: a caller need not ask the Outcome before each choice. The result is
// a function of the position, the policy and seed.
type Chooser interface {
	Choose(pol *Policy, seed uint64, skip Move) (m Move, doomed, ok bool)
}

// A TurnKeeper is a Position that tells whether a move keeps the turn
// (Describe(m).KeepsTurn) without building the rest of the MoveInfo, for
// callers that count the plies of many stored moves (a pattern scan).
type TurnKeeper interface {
	// KeepsTurn reports Describe(m).KeepsTurn for m, a move of the position.
	KeepsTurn(m Move) bool
}

// KeepsTurn reports p.Describe(m).KeepsTurn, through p's own KeepsTurn when
// it is a TurnKeeper.
func KeepsTurn(p Position, m Move) bool {
	if tk, ok := p.(TurnKeeper); ok {
		return tk.KeepsTurn(m)
	}
	return p.Describe(m).KeepsTurn
}
