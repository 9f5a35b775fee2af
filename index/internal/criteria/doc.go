// Package criteria is the one definition of the database's search
// criteria: the Query a search is made of, the table of criteria by name
// from which the command line makes its flags and the web API reads its
// parameters (Criteria, ParseQuery), and their SQL over the games table
// (Where), with the date column's form (NormalizeDate) and the order and
// seek of a list (SortColumn, Seek, Cursor).
//
// Adding a criterion is a field of Query, a row of the table, its SQL in
// where.go (or in the database's resolution of names, for those that name
// players or text) and a field of the web form; HasCriteria counts it
// without being told.
//
// Decisions:
//
//   - A criterion is given once, unless it is a list (tags, ids); an empty
//     value sets nothing, so that an empty form field is no criterion.
//     Criteria that depend on each other (a player and a side, a date and
//     its bounds, a position and its game) are put together once every
//     one is read, so that their order does not matter.
//   - A position is written in the game's notation or as moves from the
//     start; a pattern and a position need the game (their notation is
//     the game's).
//   - Text criteria on the games' columns (event, site, termination) match
//     as player names do, without regard to case or accents, as substrings
//     of the folded text: the condition calls the SQL function
//     plateau_fold, which the database registers on each of its
//     connections with the fold function the caller hands to Columns.
//   - A date criterion is a date or a prefix of one ("2026", "2026.07"),
//     which covers the year or the month; a complete date in another form
//     is read as the date column stores dates (NormalizeDate).
//   - A tag criterion whose tag has a column of its own is that column's
//     exact value; a tag that names a side of the game's rules is that
//     side's player; the tags table holds the others.
//   - A rating band (min-elo, max-elo) holds both players: each side's
//     rating tag (the side's name and Elo: WhiteElo, GoteElo…) within it,
//     as a Scid or ChessBase header search does; a game with a side
//     unrated matches no band. A rating is a whole number as written
//     (no sign, spaces nor leading zeros): the tags table holds text, and
//     the band is read as one index range per number of digits.
//   - A list is ordered by one column then by game id, so that every order
//     is total and a page can start after a cursor (a seek: its cost does
//     not grow with the page's depth). SQLite puts NULL first in an
//     ascending order, last in a descending one, and Seek follows it.
//   - Counts (a list's total) are kept while the database is in the same
//     state (its last game id and its count of edits), for a bounded
//     number of queries.
//
// Errors about criteria wrap ErrQuery; those of ParseQuery are
// *CriterionError, naming the criterion at fault. The package knows the
// games table's columns, nothing of how the database runs its queries.
package criteria
