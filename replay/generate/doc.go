// Package generate makes collections of complete, legal game records for any
// registered game, for tests, demonstrations and benchmarks at scale (the
// pipeline benchmark that imports them, internal/bench, lives beside the
// command, since it composes every package down to the index).
//
// A collection is a pure function of (game, seed, number of games): game i is
// played from its own random stream, seeded with (seed, i), against an opening
// book built once from the seed, so the output is byte-for-byte identical
// whatever the number of workers that make it.
//
// How a game is played (decisions made here):
//   - Openings come from a book: a small tree of early moves, built from the
//     seed by ranking the legal moves of each node with the policy below and
//     keeping the best few. A game walks down the book choosing children with
//     Zipf-like weights (the first child about twice as often as the second…)
//     and leaves it with a probability that grows with depth, so that opening
//     trees have a popular main line and real branches.
//   - After the book, a light policy chooses each move: it scores every legal
//     move from its rules.MoveFacts (captures, promotions, progress towards a
//     goal square or towards the enemy King/Princess, and a capture of that
//     piece, which wins) plus random noise whose width shrinks as the mover's
//     rating grows, and plays the best. A game whose positions choose their
//     own moves (rules.Chooser: Ōgi) is given the same weights as a
//     rules.Policy and does the scoring itself on its own move encoding,
//     looking at every board move and a sample of drops, and testing King
//     safety by an attack test instead of generating the replies, in one
//     pass that keeps only the best move; such a game's Outcome is asked
//     only when Choose fails (it does once the game is over) or before the
//     game is ended otherwise. That, one random draw per ply for the ply's
//     decisions, and one string per game for the moves' text (AppendMove)
//     are what make Ōgi collections fast to make. Where legal-move lists are short (dames, Dejarik,
//     Sauts…), each move is also tried on a copy of the position to see if it
//     wins at once, and the opponent's replies are looked at (a reply that
//     captures or wins marks the move down). In Ōgi and Jetan the mover
//     usually (96–99.5% of moves, more often the higher his rating) plays the
//     chosen move and looks whether a reply takes his King, Princess or
//     Chief, trying the next best moves if so; the replies' scores are reused
//     for the next ply, so no position is copied per candidate move. A side
//     for which no tried move saves the King or Princess usually resigns.
//   - A game ends by the rules (Outcome), or by a resignation of a side that is
//     clearly behind in captured material, a draw by agreement in a level
//     position late in the game, an unfinished game (*), or a ply limit
//     (adjudicated as a draw where the game allows one, otherwise *). Every
//     Result written is one the final position accepts (CheckResult).
//   - Players come from a pool of about 5,700 names, the same for every
//     seed (Latin with accents, Japanese, Cyrillic, Greek, Arabic, Korean,
//     Chinese); their order and ratings come from the seed. They are chosen with
//     a skewed law so that some players have many games; each has a rating,
//     written as <Side>Elo tags. Events, sites and dates (1975–2025) come from a
//     pool built from the seed. A few moves carry NAGs, comments (several
//     languages) and variations (an alternative legal move from the same
//     position and a few plies after it).
//   - Records never contain dames faults or huffs (Legal never lists them) nor
//     an Ōgi closing illegal move.
package generate
