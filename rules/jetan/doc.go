// Package jetan implements Jetan, the Martian chess of the rule text
// shared/rules/jetan.fr.txt, registered as game "jetan" (sides Black, Orange;
// an illegal move makes a record broken, it does not lose).
//
// Board and notation. Squares a1–j10, Black south (ranks 1–2), Orange north.
// Pieces: C Chief, P Princess, F Flier, D Dwar, W Warrior, A Padwar,
// T Thoat, N Panthan. Position notation (Parse, String):
//
//	wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Ee 0
//
// rows 10→1, Black upper case, digits for empty runs ("10" a whole row);
// side to move b/o; escape flags (E Black's Princess may still escape, e
// Orange's, "-" neither); plies played under the equal-forces draw rule. A
// fifth field, the result, is written only after a Chief or Princess has been
// taken, because the board alone cannot tell whether a Chief fell to the
// other Chief (a win) or to another piece (a draw). Moves are e2-e3 and
// e2xe5 (canonical; on input "-" is accepted for a capture, the separator
// may be left out, a piece letter may come first as in Ne2-e3, and the short
// form Ne3 / Nxe3 names the one piece of that kind that can go there).
//
// Movement. Every piece makes exactly its number of steps along a path that
// never visits a square twice, its start included (so it never ends where
// it began): Warrior 2 straight steps, Padwar 2 diagonal, Dwar 3 straight,
// Flier 3 diagonal, Chief and Princess 3 steps straight or diagonal in any
// mix, Thoat one straight and one diagonal step in either order (a knight's
// leap or an orthogonally adjacent square), Panthan one step forward,
// sideways or diagonally forward. Only the Flier and the Princess pass over
// pieces; for every other piece a move is legal when at least one path has
// all its intermediate squares empty. Several paths to one square are one
// move. A move ends on an empty square or captures the enemy piece there.
//
// Decisions where the text is open:
//   - The Princess never captures, not even the enemy Princess.
//   - A square is threatened when an enemy piece other than the Princess
//     could move there in the position after the Princess's move (her origin
//     empty). The same test applies to her escape.
//   - The escape ("coup de dix cases") is a move of up to ten king steps,
//     passing over pieces, onto an empty unthreatened square. Ten king steps
//     cover the whole 10×10 board, so she may escape to any such square. A
//     destination within her ordinary three-step reach is always an ordinary
//     move and never spends the escape; the escape is recognised from the
//     move's length and recorded in the position (E/e flags).
//   - Who moves first comes from the FEN; the standard start has Black move.
//   - Results: any piece moving onto the enemy Princess wins ("princess
//     taken"); a Chief taking the Chief wins ("chief takes chief"); any other
//     piece taking a Chief draws ("chief taken").
//   - The equal-forces draw: when both sides have three pieces or fewer and
//     the same total value (marks C 10, D 3, F 3, W 2, A 2, T 2, N 1, P 1),
//     every ply counts; after ten plies without a win the game is drawn
//     ("equal forces"). A capture restarts the count at 0 (a capture that
//     makes the forces equal starts it). Since both Chiefs and Princesses are
//     on the board while the game goes on, equal totals and equal pieces'
//     values are the same thing here.
//   - CheckResult: a finished game needs its exact result; an unfinished one
//     may end "*", with a win for either side (resignation) or with a draw
//     (agreement), as chess databases accept.
//   - A position may not hold more pieces of a kind than the start does, and
//     must hold both Chiefs and both Princesses unless the result field says
//     how the one missing was taken.
package jetan
