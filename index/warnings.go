package index

import (
	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/replay"
)

// Warnings: faults of a game's metadata that do not make it invalid (a
// Result tag that disagrees with the movetext or with an unfinished final
// position) and how an untagged record's ruleset was chosen (see package
// replay). They are kept in their own table, one row per warning, since
// layout version 3; a trigger removes a game's warnings with the game. The
// writer stores them (internal/writer), internal/faults reads them.
func init() {
	schema = append(schema,
		`CREATE TABLE IF NOT EXISTS warnings(
			game INTEGER NOT NULL, kind TEXT NOT NULL, msg TEXT NOT NULL, line INTEGER)`,
		`CREATE INDEX IF NOT EXISTS warnings_game ON warnings(game)`,
		`CREATE TRIGGER IF NOT EXISTS games_delete_warnings AFTER DELETE ON games
			BEGIN DELETE FROM warnings WHERE game = old.id; END`,
	)
}

// MaxPly is the last ply of an indexed position: a longer game is valid,
// its positions past MaxPly are not indexed (PlyLimit).
const MaxPly = gamerows.MaxPly

// WarnUnindexed is the kind of the warning PlyLimit.
const WarnUnindexed = gamerows.WarnUnindexed

// PlyLimit is the warning an import stores for a game with positions past
// MaxPly, which are not indexed: it names the first ply left out and the
// line of its move (validate prints the same); false for a game without.
func PlyLimit(g *replay.Game) (replay.Warning, bool) { return gamerows.PlyLimit(g) }
