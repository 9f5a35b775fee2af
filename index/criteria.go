package index

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Query selects games. Every criterion set must hold.
type Query struct {
	Game string // ruleset id ("ogi", "draughts", …)
	// Player is matched against either side's name, Players against one side
	// each (side 0 first); names match fuzzily (see MatchPlayers).
	Player  string
	Players [2]string
	// Opponent, with Player: games of Player against Opponent, either way round.
	Opponent string
	Event    string // case-insensitive substring
	Site     string // case-insensitive substring
	// DateFrom and DateTo bound the Date tag; a prefix such as "2026" or
	// "2026.07" covers the whole year or month.
	DateFrom, DateTo   string
	Result             string // exact Result value
	Termination        string // case-insensitive substring
	MinPlies, MaxPlies int    // 0 means no bound
	Tags               []record.Tag
	Text               string // a Bleve query string over names, event, site, annotator, comments
	// Position is an exact position: games where it occurs (main line or
	// variation), with the ply of each occurrence.
	Position rules.Position
	Pattern  *Pattern
	// Invalid selects invalid games instead of valid ones.
	Invalid bool
	// IDs restricts to these games.
	IDs []int64

	Limit, Offset int // Limit 0 means 50; negative means no limit
	// Count asks for the total number of matches (a pattern search then
	// scans every candidate game).
	Count bool
}

func (q *Query) limit() int {
	switch {
	case q.Limit == 0:
		return 50
	case q.Limit < 0:
		return 1 << 62
	}
	return q.Limit
}

// Position resolves text to a position of the ruleset game: a position in
// its notation, or a list of moves from the start (move numbers allowed),
// or "" for the start.
func Position(game, text string) (rules.Position, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrQuery, err)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return g.NewPosition("")
	}
	pos, perr := g.NewPosition(text)
	if perr == nil {
		return pos, nil
	}
	pos, err = positionAfter(g, text)
	if err != nil {
		return nil, fmt.Errorf("%w: %q is neither a position (%s) nor moves from the start (%s)", ErrQuery,
			record.Clip(text, 80), record.ClipWords(perr.Error(), 80), record.ClipWords(err.Error(), 80))
	}
	return pos, nil
}

// PositionAfter is the position after moves (space-separated, move numbers
// allowed) from the start of the ruleset game.
func PositionAfter(game, moves string) (rules.Position, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrQuery, err)
	}
	pos, err := positionAfter(g, moves)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrQuery, err)
	}
	return pos, nil
}

// positionAfter plays moves from the start of g; its error names the move
// that cannot be played and its number.
func positionAfter(g rules.Game, moves string) (rules.Position, error) {
	pos, err := g.NewPosition("")
	if err != nil {
		return nil, err
	}
	n := 0
	for _, tok := range strings.Fields(moves) {
		if n := strings.TrimRight(tok, "."); isNumber(n) {
			continue
		}
		n++
		m, err := pos.ParseMove(tok)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", n, tok, err)
		}
		pos.Play(m)
	}
	return pos, nil
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && s != ""
}
