package index

import (
	"hash/fnv"

	"github.com/klauspost/compress/zstd"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/replay"
)

// TreeDepth is the number of plies from a game's start whose main-line moves
// are kept in the opening-tree aggregate. Deeper positions are answered from
// the position runs (few games share them).
const TreeDepth = gamerows.TreeDepth

// prepared is a record replayed and turned into the rows of its game
// (internal/gamerows), by an import's worker or an edit.
type prepared = gamerows.Rows

// preparer turns the records of one worker into rows.
type preparer struct{ *gamerows.Preparer }

// newPreparer is a preparer replaying under opts (the encoder is the
// worker's, unused by the rows).
func newPreparer(opts replay.Options, _ *zstd.Encoder) *preparer {
	return &preparer{gamerows.NewPreparer(gamerows.Options{Replay: opts, NormalizeDate: NormalizeDate})}
}

// prepare turns a record into rows (a rules package's panic makes it an
// invalid record).
func (p *preparer) prepare(r Record) *prepared {
	return p.Prepare(gamerows.Record{Game: r.Game, Err: r.Err, File: r.File, Size: r.Size})
}

// scores reads a Result value as each side's points (gamerows.Scores).
func scores(result string) (s0, s1 float64, ok bool) { return gamerows.Scores(result) }

// saltKey is the stored form of a position key: the key mixed with the game
// id, so that two rulesets sharing a key scheme (dames and dames-brigand)
// never share stored positions.
func saltKey(game string, key uint64) int64 {
	h := fnv.New64a()
	h.Write([]byte(game))
	return int64(key ^ h.Sum64())
}
