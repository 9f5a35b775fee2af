// Package openings keeps the named openings of a database: names given
// by the user to positions of a ruleset, and the name of each game.
//
// A name belongs to a position, not to a line of moves: it is stored
// under the position's salted key, the key that position search uses
// (gamerows.SaltKey), so that a game that reaches the position by a
// transposition gets the name. A file of names (Read) is either records
// (PDN, the repository's record format) whose Opening tag, with an
// optional Variation ("Opening, Variation"), names the position after
// their main line, or lines "ruleset<TAB>name<TAB>moves". Every entry is
// replayed by its rules (Resolve); an entry that does not play is an
// error naming its file, line and move, and the other entries still
// count. A name given again for the same position replaces the old one.
//
// A game's opening is the name of the deepest named position that its
// main line reaches within its first MaxPly plies (Deepest): names nest
// ("Sicilian", then "Sicilian, Najdorf"), and the one reached last wins.
// A game whose record starts from a set-up position gets a name when
// it reaches a named position all the same.
//
// Decision: a game's opening is stored, one row per named game in
// GamesTable (game, opening id), not looked up when read. A search by
// opening (a prefix of the name) is then the ids of the few names that
// match and an index range per name, whatever the number of games; a
// lookup at read time would take a position search per named position
// and, for each game found, every deeper named position it might also
// reach. The cost is paid when the names change: the façade computes
// the names of every game of the rulesets of the names imported, from the
// stored move lists (GameKeys, MaxPly plies each), in one transaction,
// and the names of new games after each import (from a high-water mark,
// meta opening_hw) and of a saved game after its save. Renaming a
// position (the same key) keeps its id and changes no game's row.
//
// Names are compared folded, with the function that folds player names
// (the SQL function plateau_fold): a search by opening folds the names
// when it reads them (they are few: MatchSQL), and each name keeps its
// folded form (openings.folded) for the game list sorted by opening, which
// reads it for every game.
package openings
