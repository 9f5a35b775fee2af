// Package sauts implements Sauts, the 8×8 jumping race of
// shared/rules/sauts.fr.txt, registered as game "sauts" (sides White, Black).
//
// Board and notation. Rows A–H (Black starts on rows B and C at the top,
// White on rows F and G at the bottom), columns 1–8; squares are written G6.
// A position is written row A first, 'b'/'w' for pawns, digits for runs of
// empty squares, then the side to move:
// "8/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/8 w" is the start. White moves
// first. White's half is rows E–H, Black's rows A–D. A4 and A5 are White's
// targets (Black's own goals), H4 and H5 Black's targets (White's own goals).
//
// Moves. A move is either one home move or one chain of jumps, never both:
//   - a home move is an orthogonal slide of any length over empty squares,
//     starting and ending in the mover's half (so it never crosses the middle
//     line), written G2-E2;
//   - a jump goes over an adjacent pawn of the mover's own, in any of eight
//     directions, onto the empty square just behind, anywhere on the board; a
//     chain of jumps may stop after any jump, never lands twice on one square
//     (its origin included), and ends when it lands on an opposing goal. It is
//     written with every landing square: G6-E4-C4-A2-A4.
//
// No move enters or passes over its own goals. Reaching an opposing goal
// wins at once ("1-0" or "0-1", termination "goal reached"); a side to move
// with no legal move loses ("blocked"). There are no captures.
//
// Decisions where the text is silent:
//   - One move per origin and destination (the perft unit). All chains between
//     the same two squares are one move, and so is a home move with the same
//     ends, since each leaves the same position. FormatMove writes the home
//     move if there is one, otherwise the shortest chain, ties broken by the
//     alphabetical order of the squares (A1 < A2 < … < H8).
//   - ParseMove accepts any valid chain and also the short form "G6-A4"
//     (origin and destination), which is never ambiguous. Row letters may be
//     lower case on input. A chain whose first step is a legal home move is
//     reported as "home move before jump" (the text's last rule of 3.2).
//   - A move may not end where it began (a chain cannot return to its origin).
//   - Results: "1-0", "0-1", "*", and "1/2-1/2". The text has no draw rule; a
//     draw (by agreement) and a resignation are accepted in an unfinished
//     position; a finished position requires its own result.
//   - Position notation: each side has one to eight pawns (there are no
//     captures; fewer pawns are allowed for studies), no pawn on its own
//     goals, at most one side on a target, and then the other side to move.
//   - An illegal move is a broken record, not a loss.
package sauts
