// Package dejarik implements classic Dejarik (the "jeu de Groï") as in
// shared/rules/dejarik.fr.txt, registered as the game "dejarik".
//
// # Board and notation
//
// Cells: c (the centre), i1–i12 (the inner ring) and o1–o12 (the outer
// ring); iK is in front of oK and numbers run the same way round both
// rings, clockwise on the diagram (12 at the top), so that iK±1 are the
// cells beside iK and the ring wraps from 12 to 1. The start has White on
// o1–o4 and Black on o7–o10, White to move (the text's diagram is lost).
//
// A position is written in the PDN manner: side to move, then each side's
// cells, then an optional first-turn field:
//
//	W:Wo1,o2,o3,o4:Bo7,o8,o9,o10        the start (both first turns to come)
//	B:Wi1,o2,o3,o4:Bo7,o8,o9,o10:FB     White has played, Black has not
//	W:Wc,i2,o3,o4:Bi8,o9,o10:F-         both have played
//
// ":F" lists the sides whose first turn is still to come ("-" for none);
// without it both are, so each side's first move from a FEN tag is its first
// turn. String writes the field whenever it is not "WB", so positions round
// trip, and the field is part of Key.
//
// Moves are origin-first landing cell: o1-i1 (exit), o4-c (Dejarik),
// c-o9 (Dejarik inverse), i3-o3 (re-entry), o2-i3 (diagonal exit), o2-i4
// (double diagonal exit). A diagonal exit is written with its first landing
// cell; the augmentations and the capture follow from the rules. On input,
// 'x' may stand for '-', letters may be upper case, and a diagonal exit may
// list its augmentation landings (o2-i3-i5), which must be the forced ones.
// Describe gives the final cell and the number of pawns taken.
//
// # Rule decisions where the text is open
//
//   - Double diagonal exit oK → iK±2: the text asks for no pawn "ni devant,
//     ni à côté, ni sur la case en diagonale donnant accès à la case
//     destination". With the text's own definitions ("à côté" = neighbours
//     on the same ring), that is iK (in front), oK±1 (beside the pawn, on the
//     side of the exit) and iK±1 (the diagonal cell leading to the
//     destination), which are exactly the cells between oK and iK±2; the
//     destination must be empty as every destination. The single diagonal
//     exit oK → iK±1 needs iK and iK±1 empty.
//   - Augmentation goes on in the direction of the diagonal exit, two cells
//     along the inner ring, both empty (a pawn never passes over another);
//     it repeats while the pawn again stands in front of one of its own
//     pawns, and stops for good the first time the two cells cannot be
//     crossed.
//   - Captures: only a diagonal exit (single, double, augmented) takes, at
//     each landing: an enemy pawn beside the landing cell on the inner ring
//     is removed and the move ends there (the text's special case: capture
//     takes precedence over augmentation). The cell beside the landing cell
//     on the side the pawn came from is always empty (it is the cell in
//     front of the origin, the diagonal cell, or the augmentation's first
//     cell), so one move takes at most one pawn. A straight exit, a Dejarik
//     or a re-entry never takes.
//   - Game end, judged on the position after each move, in this order: the
//     side that just moved has its four pawns in a run on the inner ring
//     (3 points) or, having lost one, its three (1 point); the same for the
//     side to move (a capture can leave its last three aligned); a side has
//     lost two pawns (2 points for the other); the position (pawns, side to
//     move, first-turn flags) has occurred three times in the game (1-1);
//     the side to move has no move ("si tous les pions sont bloqués": the
//     game cannot go on, DESIGN's "a blocked side", 0-0).
//   - « Si la même position arrive trois fois dans une partie »: the
//     position counted includes the first-turn flags. Reason: they change
//     which moves are legal (« la sortie en diagonale n'est pas possible au
//     premier tour de chaque joueur »), and a position is what decides the
//     game from there on (as castling rights do in chess); two boards alike,
//     one before a player's first turn and one after, are not the same
//     position. The flags clear with each side's first move, so this only
//     tells apart the positions before those moves from later ones.
//   - « Si tous les pions sont bloqués, la partie est déclarée nulle »: read
//     as "the side to move has no move". Reason: a turn cannot be passed, so
//     a side to move without a move cannot go on and the game must end there
//     even if the other side could still move; and while the side to move
//     has a move the game goes on, whatever the other side's pawns can do.
//     Requiring every pawn of both sides to be stuck would leave the first
//     case without an end.
//   - Results are the points, White first: 3-0, 0-3, 1-0, 0-1, 2-0, 0-2,
//     1-1, 0-0. The text knows no resignation nor agreed result, so a record
//     of an unfinished game must say "*" (CheckResult), and a finished one
//     exactly its result. Points and Series total a series of games toward
//     the 12 points (Target) that win it.
//   - A position must give each side 1 to 4 pawns, and at least one side
//     more than two (a FEN may set up what no game reaches).
//
// Perft counts one move per origin and first landing cell.
package dejarik
