package rules

// A Profile says how a game's games usually go, for the generator of
// synthetic collections (replay/generate): which piece to hunt, which
// squares to reach, how long games last, when players resign or agree a
// draw, and which Result values express a win or a draw. A game says it
// from its own package by being a Profiler; a game that is not gets
// DefaultProfile, which plays any game through the interface alone.
type Profile struct {
	// Target is the enemy piece whose capture wins ('K' in Ōgi, the
	// Princess 'P' in Jetan); 0 for none. The generator finds it on the
	// start position's Board and follows it through the moves.
	Target byte
	// Chief is a second royal piece (Jetan's Chief): taking it with one's
	// own chief wins, with another piece draws; each side guards it.
	Chief byte
	// Goals[s] are the squares side s wins by reaching (Sauts).
	Goals [2][]Coord
	// Lookahead: when a position has at most this many legal moves, each is
	// tried on a copy of the position to find a move that wins at once.
	Lookahead int
	// Replies: in the lookahead, the opponent's replies are examined too,
	// and a move that lets him win or capture at once is marked down.
	Replies bool
	// BookDepth is the depth of the opening book, in plies; BookWidth[d]
	// the number of book moves kept at depth d.
	BookDepth int
	BookWidth []int
	// MaxPlies ends a game that is still going (adjudication).
	MaxPlies int
	// Resign: a side may resign when the opponent has captured at least
	// this many more pieces, not before ResignPly; 0 disables resignations.
	Resign    int
	ResignPly int
	// Agree is the probability per ply, late in a level game, of a draw by
	// agreement (where the rules allow the draw result).
	Agree float64
	// Wins[s] are Result values that give the win to side s, most usual
	// first; Draws are draw Result values. The first one the final position
	// accepts is written.
	Wins  [2][]string
	Draws []string
	// Weights of the move-choice policy: a capture, a promotion, a step
	// towards the target or a goal, a drop.
	Capture, Promote, Progress, Drop int
}

// A Profiler is a Game that says how its games usually go.
type Profiler interface {
	Profile() Profile
}

// DefaultProfile is the profile of a game that does not say: no target, a
// look one move ahead in positions of up to 48 moves, results "1-0" and
// "0-1" (or points where the rules want them), resignation three captures
// behind.
func DefaultProfile() Profile {
	return Profile{
		Lookahead: 48,
		BookDepth: 6,
		BookWidth: []int{5, 4, 3, 3, 2, 2},
		MaxPlies:  300,
		Resign:    3,
		ResignPly: 30,
		Agree:     0.003,
		Wins:      [2][]string{{"1-0", "2-0", "3-0"}, {"0-1", "0-2", "0-3"}},
		Draws:     []string{"1/2-1/2", "1-1"},
		Capture:   60,
		Promote:   40,
		Progress:  8,
		Drop:      0,
	}
}

// ProfileOf is g's profile: its own when it is a Profiler, else
// DefaultProfile.
func ProfileOf(g Game) Profile {
	if p, ok := g.(Profiler); ok {
		return p.Profile()
	}
	return DefaultProfile()
}
