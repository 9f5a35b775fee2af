package generate

import "github.com/plateau/plateau/rules"

// profile holds what the generator knows of a game beyond the rules
// interface: which piece to hunt, which squares to reach, how long games last
// and which Result values express a win, a loss or a draw. Unknown games get
// defaultProfile, which works for any game through the interface alone.
type profile struct {
	// target is the enemy piece whose capture wins ('K' in Ōgi, the
	// Princess 'P' in Jetan); 0 for none. Its square is found with Board at
	// the start and followed through the moves.
	target byte
	// chief is a second royal piece (Jetan's Chief): taking it with one's
	// own chief wins, with another piece draws; each side guards it.
	chief byte
	// goals[s] are squares side s wins by reaching (Sauts).
	goals [2][]rules.Coord
	// lookahead: when a position has at most this many legal moves, each is
	// tried on a copy of the position to find a move that wins at once.
	lookahead int
	// replies: in lookahead, the opponent's replies are examined too, and a
	// move that lets him win or capture at once is marked down.
	replies bool
	// bookDepth is the depth of the opening book, in plies; bookWidth the
	// number of book moves kept at each depth.
	bookDepth int
	bookWidth []int
	// maxPlies ends a game that is still going (adjudication).
	maxPlies int
	// resign: a side may resign when the opponent has captured at least this
	// many more pieces; 0 disables resignations.
	resign    int
	resignPly int // no resignation before this ply
	// agree is the probability per ply, after ply 40, of a draw by agreement
	// in a level position (where the rules allow the draw result).
	agree float64
	// wins[s] are Result values that give the win to side s, most usual
	// first; draws are draw Result values. The first one the final position
	// accepts is written.
	wins  [2][]string
	draws []string
	// Weights of the policy.
	capture, promote, progress, drop int
}

var defaultProfile = profile{
	lookahead: 48,
	bookDepth: 6,
	bookWidth: []int{5, 4, 3, 3, 2, 2},
	maxPlies:  300,
	resign:    3,
	resignPly: 30,
	agree:     0.003,
	wins:      [2][]string{{"1-0", "2-0", "3-0"}, {"0-1", "0-2", "0-3"}},
	draws:     []string{"1/2-1/2", "1-1"},
	capture:   60,
	promote:   40,
	progress:  8,
	drop:      0,
}

func profileOf(id string) profile {
	p := defaultProfile
	switch id {
	case "ogi":
		p.target = 'K'
		p.lookahead = 0
		p.bookDepth = 8
		p.bookWidth = []int{5, 4, 3, 3, 2, 2, 2, 2}
		p.maxPlies = 400
		p.resign = 6
		p.resignPly = 50
		p.progress = 3
		p.drop = 5
	case "jetan":
		p.target = 'P'
		p.chief = 'C'
		p.lookahead = 0
		p.resign = 6
		p.progress = 4
	case "sauts":
		p.goals = [2][]rules.Coord{{rules.CoordOf("A4"), rules.CoordOf("A5")}, {rules.CoordOf("H4"), rules.CoordOf("H5")}}
		p.resign = 0
		p.agree = 0
		p.progress = 20
		p.lookahead = 200
		p.replies = true
	case "draughts":
		p.wins = [2][]string{{"2-0", "1-0"}, {"0-2", "0-1"}}
		p.draws = []string{"1-1", "1/2-1/2"}
		p.agree = 0.02
		p.maxPlies = 200
		p.resign = 4
		p.replies = true
	case "dames", "dames-brigand":
		p.maxPlies = 200
		p.agree = 0.01
		p.resign = 4
		p.replies = true
	case "loup-moutons":
		p.resign = 0
		p.agree = 0
		p.bookDepth = 4
		p.bookWidth = []int{3, 2, 2, 2}
	case "dejarik":
		p.resign = 0
		p.agree = 0
		p.wins = [2][]string{{"3-0", "2-0", "1-0"}, {"0-3", "0-2", "0-1"}}
		p.draws = []string{"1-1", "0-0"}
		p.replies = true
		p.bookDepth = 4
		p.bookWidth = []int{3, 3, 2, 2}
	}
	return p
}
