package index

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
