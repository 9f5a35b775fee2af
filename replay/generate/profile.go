package generate

import "github.com/plateau/plateau/rules"

// profile holds what the generator knows of a game beyond the rules
// interface: which piece to hunt, which squares to reach, how long games last
// and which Result values express a win, a loss or a draw. It is the game's
// rules.Profile, said by the game's own package (see there for each field),
// in the generator's own fields.
type profile struct {
	target, chief byte
	goals         [2][]rules.Coord
	lookahead     int
	replies       bool
	bookDepth     int
	bookWidth     []int
	maxPlies      int
	resign        int
	resignPly     int
	agree         float64
	wins          [2][]string
	draws         []string
	// Weights of the policy.
	capture, promote, progress, drop int
}

// profileOf is the profile of game g (rules.ProfileOf).
func profileOf(g rules.Game) profile {
	p := rules.ProfileOf(g)
	return profile{
		target:    p.Target,
		chief:     p.Chief,
		goals:     p.Goals,
		lookahead: p.Lookahead,
		replies:   p.Replies,
		bookDepth: p.BookDepth,
		bookWidth: p.BookWidth,
		maxPlies:  p.MaxPlies,
		resign:    p.Resign,
		resignPly: p.ResignPly,
		agree:     p.Agree,
		wins:      p.Wins,
		draws:     p.Draws,
		capture:   p.Capture,
		promote:   p.Promote,
		progress:  p.Progress,
		drop:      p.Drop,
	}
}
