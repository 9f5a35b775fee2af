package index

import (
	"github.com/plateau/plateau/index/internal/gamerows"
)

// TreeDepth is the number of plies from a game's start whose main-line
// positions have the aggregate's key in the position runs and whose moves
// the players' lines keep (gamerows.TreeDepth); TreeAggDepth, of those
// whose moves the opening-tree aggregate counts (gamerows.TreeAggDepth).
const (
	TreeDepth    = gamerows.TreeDepth
	TreeAggDepth = gamerows.TreeAggDepth
)

// prepared is a record replayed and turned into the rows of its game
// (internal/gamerows).
type prepared = gamerows.Rows

// scores reads a Result value as each side's points (gamerows.Scores).
func scores(result string) (s0, s1 float64, ok bool) { return gamerows.Scores(result) }

// saltKey is the stored form of a position key (gamerows.SaltKey).
func saltKey(game string, key uint64) int64 { return gamerows.SaltKey(game, key) }
