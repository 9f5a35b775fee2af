// Package stats says what a database holds: its games per ruleset and
// validity (GameCounts), its players, sources and sizes on disk
// (Describe), and the statistics page of `plateau serve` (NewOverview:
// games by ruleset, year and outcome, the longest games, the most active
// players).
//
// Decisions: counting the games reads the whole games table, which a
// server starting on a large database, or asked again after each commit
// of an import, should not pay; so an import stores the counts in meta
// when it ends (StoreCounts), labelled with the last game id and the
// number of edits made (the meta entry that deletes and repairs bump), and
// a reader counts only the games added since, or every game when the
// database was edited since the counts were stored (ids only grow while
// nothing is deleted). No transaction is needed: the last id and the
// edits are read first and the games counted up to that id; an edit made
// meanwhile leaves the result labelled with the edits before it, so that
// it is counted again next time. An edit that stores one game again (a
// save) moves the stored counts from the game as it was to the game as it
// is, in its transaction (Replaced), so that a save does not cost the next
// reader a count of every game. Sizes are those of the files as they lie
// on disk (a WAL included).
package stats
