// Package faults reads what is wrong with the stored games: the first
// error of each invalid game (List, GameErrors), those errors grouped by
// kind (Summary), and the warnings of valid games (Warnings, GameWarnings,
// Stored).
//
// Decisions: an error's kind is the rule an illegal move breaks, or else
// the message up to its first colon without its particulars (quoted
// moves and positions, the record's position, a trailing parenthesis),
// so that the games of one fault group together whatever the move; groups
// are sorted by size, then ruleset and kind. Lists are in import order
// (game id, then the order the warnings were stored in), and a limit of
// zero or less means no limit. The package only reads: the import stores
// the errors in the games table and the warnings in their own table
// (index's writer), and a game's warnings go with it (a trigger).
package faults
