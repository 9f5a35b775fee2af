// Package players finds players by name and reads their games: it
// matches a query's words against the words of the players' folded names
// (Names.Match), reads a page of the matched players' games in id order
// (ReadPage), builds the name index of a database made before it had one
// (BuildNameIndex), and scores games player against player (Crosstable).
//
// # Matching names
//
// Every word of the query must be a prefix of a word of the name, or
// within edit distance 1 of it (2 for words of 8 letters or more; only
// for query words of 4 letters or more). The names are compared folded
// (lower case, accents and punctuation removed: the caller folds, with
// the same function the writer folds the stored names with). The folded
// names of every player are read once per database handle and extended
// as players are added (ids only grow); each distinct name word is tested
// once per query word, and the edit distance is computed only within its
// bound of the table's diagonal.
//
// # Reading a page of a player's games
//
// Read player by player from the games' player indexes (games_p0 and
// games_p1), a page costs a seek for every matched player and side (a
// surname shared by 30 players is 60 seeks), each a random read of the
// disk in a large database. So the games are also listed by name word:
//
//   - name_words(id, word): every distinct word of a folded player name;
//   - name_games(word, game, player) WITHOUT ROWID: for each word, the
//     valid games of each player whose name has it, in game order (a
//     player of two words is listed under both).
//
// A query word matches a few name words (a prefix, or within the edit
// distance); every game of the matched players is under one of them. So a
// page can be read word by word (one seek each, the games of all the
// players sharing the word side by side in its leaves) instead of player
// by player: the query word chosen is the one whose matched name words
// are fewest, the entries read are kept only for the matched players
// (name_games holds the player), and the page is read by word when that
// is fewer seeks than by player and side (Match.PageWords). Only valid
// games are listed, as in tags; a search of invalid games reads by
// player. The writer stores the entries (store.Names); a database of
// layout 6 is given the two tables by its first writable open
// (BuildNameIndex), and a read-only handle on one reads player by player.
//
// Each key (a name word, or a player and side) is an arm whose games are
// in id order; ReadPage reads the arms a few ids at a time, several arms
// to a statement and a few statements at once, merges them, and tests
// the query's other conditions on the ids no arm can add to below, until
// the page is full (ReadPage). Past maxArms arms, or deep pages, or when
// the player indexes are out and no word serves, the caller reads the
// games table in id order instead (How). The costs and gains are in
// docs/storage.md and docs/queries.md.
//
// # Crosstables
//
// A game scores the points of its Result (Dejarik points included, as
// gamerows.Scores reads them) and, on one scale, each side's share of
// them (Share: a win 1, a draw ½ whether written 1-0, 2-0 or 1-1;
// Dejarik's points kept, being its scale); games without both players or
// without a scored result are left out; players are ranked by the score
// on one scale, then points, then name.
package players
