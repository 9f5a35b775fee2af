// Package dames plays the Schmidt "Jeu de dames" and its two variants,
// international draughts and every draughts GameType of PDN 3.0, with one
// move generator whose behaviour is a set of parameters per ruleset (the
// board's size, dark corner and numbering, who starts, the directions men
// and kings move and capture in, flying or short kings, capture precedence,
// crowning during a capture, when taken pieces leave the board). It
// registers:
//
//   - "dames": the Schmidt rules (shared/rules/dames.fr.txt);
//   - "dames-brigand": the same rules, but the side left without a piece or a
//     move wins;
//   - "loup-moutons": the wolf (one black man) against four sheep (white men);
//   - "draughts": international draughts (FMJD), also found by the aliases
//     "20", "20,W,10,10,N2,0" (PDN GameType) and "international";
//   - the 8×8 families, each also found by its PDN GameType number and full
//     GameType string: "checkers" (21, English draughts / American
//     checkers), "italian" (22), "pool" (23, American pool checkers),
//     "russian" (25), "brazilian" (26), "czech" (29). See "8×8 families";
//   - the other GameTypes of PDN 3.0 (gametype.rst), found the same way:
//     "spanish" (24), "canadian" (27, 12×12), "portuguese" (28), "turkish"
//     (30), "thai" (31), "frisian" (40), "spantsiretti" (41, 10×8); and the
//     variants of lidraughts that its exports carry, found by the GameType
//     numbers lidraughts writes for them: "breakthrough" (96), "frysk" (97),
//     "antidraughts" (98). See "PDN 3.0 families and lidraughts variants".
//
// Board and notation. Squares are PDN numbers, 1–50 on 10×10 and 1–32 on
// 8×8, square 1 the second square of Black's first row, the bottom-left
// corner (46, or 29) dark. White holds the high numbers and moves up; the
// families whose GameType numbers the board otherwise (Italian, Spanish,
// Portuguese, Thai) and Turkish, whose board has no numbers, are described
// below; geom.go reads the board of each from its GameType.
//
// Side order (the Result's, the player tags', rules.Side). A Result names
// first the side that the PDN GameType's start colour names (gametype.rst:
// "Start-colour: Either W or B - white/black side starts"). PDN 3.0 defines
// the Result tag by "see [Nemesis]" (pdntags.rst), PDN 2.0 for checkers,
// which says (pdn2.txt, 6.1.1.1.1.5 and 6.1.1.2.6): "1-0 indicating Black
// (Red) won the game", "0-1 indicating White won the game"; English
// checkers files follow it ("{white wins} 0-1"). So:
//   - checkers (21,B) and pool (23,B): Black then White, "1-0" a win for
//     Black, the first mover; thai (31,B) the same, by the same reading of
//     its start colour (no Thai source says otherwise);
//   - draughts (20,W), italian (22,W), russian (25,W), brazilian (26,W),
//     czech (29,W), spanish (24,W), canadian (27,W), portuguese (28,W),
//     turkish (30,W), frisian (40,W), spantsiretti (41,W): White then
//     Black, White moving first; so do lidraughts' variants;
//   - dames, dames-brigand and loup-moutons, which are no PDN GameType:
//     White then Black, as DESIGN.md names their player tags, although
//     Black moves first (the sheep are White, the wolf Black).
//
// Inside the package a side is a colour; it becomes a rules.Side (Game.side)
// where the interface hands one out: ToMove, Board, Layout, Drawing, and the
// Result of an Outcome.
//
// Positions are PDN FENs: "W:W31-50:B1-20" (side to move,
// then each colour's squares, K for kings, ranges a-b, "?" for the ruleset's
// first mover, an optional final dot, spaces ignored). String writes the
// canonical FEN: ascending squares, runs of three or more consecutive squares
// of one kind as ranges, no dot. Right after a fault it adds Plateau's own
// section ":H22,27" listing the pieces a huff may remove, so that String
// round-trips the whole position (the key depends on it too); in frisian
// and frysk its section ":RW28/2,B3/1" gives the kings' counts of moves in
// a row (run.go), and ":E5" the plies played in a kings-only ending
// (endgame.go).
//
// Moves are "32-28" (a step), "19x28" or "19:28" (a capture by origin and
// destination), "19x28x37" (the landing squares of a sequence; some of them
// may be left out), "H27" (a huff). A capture written with a hyphen is read
// when it is the only match, and a step written with x when nothing can be
// captured (both occur in real PDN files). The canonical form is "19x28",
// or the full path of landing squares when another legal capture has the
// same origin and destination; a short capture matching several sequences
// is an Ambiguous error listing them in that form. One move is one (origin,
// destination, captured set), as in published draughts perft counts.
//
// Rules of the Schmidt games and draughts (the 8×8 families differ as
// said below): men step one square diagonally
// forward and capture forward and backward; kings fly: they move any distance
// and capture a piece at any distance, landing on any empty square beyond it.
// A capture sequence is completed: it goes on while a further capture is
// possible and may not stop early. So a flying king that jumps a piece must
// land on a square beyond it from which it can take again, when one exists;
// only when none does may it land on any of them. The Russian, pool and
// Czech rules say so (sources in families_test.go); under the majority rule
// it follows from taking the most pieces; the Schmidt text is silent, and
// Plateau holds its games to the same completion rule. Pieces are removed when the sequence ends;
// a piece already jumped cannot be jumped again and blocks the way until then.
// A man is crowned only when its move ends on the far row (passing it during
// a capture does not crown). Capture is compulsory.
//   - dames and dames-brigand: any complete capture sequence may be chosen (no
//     majority rule). A move that ignores a possible capture (a "fault") is
//     accepted when read from a record, with the Describe Note "fault: ignored
//     a capture (…)", so that replay flags it; Legal never lists faults. The
//     opponent may then, before its own move, remove one piece that could have
//     captured (a piece that moved is taken where it went): a huff, written
//     "H27" as a separate move before its move; it keeps the turn (KeepsTurn)
//     and is not a ply. Only right after the fault; Legal never lists huffs.
//   - draughts: the FMJD majority rule: the sequence taking the most pieces
//     must be chosen, kings and men counting alike; ignoring a capture is an
//     Illegal move ("capture is compulsory"); there is no huffing.
//
// Outcome: the side to move with no piece ("no pieces left") or no legal move
// ("blocked") loses; in dames-brigand and antidraughts it wins. A side that is blocked but
// could free itself by a huff it may make is not blocked. Results: draughts
// use PDN points, "2-0" / "0-2" (CheckResult also takes "1-0", "0-1", "1-1"
// and "1/2-1/2", all found in PDN files); the Schmidt games use "1-0",
// "0-1", "1/2-1/2". There is no automatic draw but Frisian's (below); a
// draw or a decisive result is accepted in a position that is not over
// (agreement, resignation), "*" always; a position that is over needs its
// own winner.
//
// Loup et moutons: 8×8 by default, "B:W29-32:B1" (the sheep on White's first
// row, the wolf on square 1 of the far row, the wolf to move). It may also be
// played on 10×10: a position string then ends with Plateau's size section
// ":10x10" (PDN says the size only in the GameType tag), so that a 10×10
// position whose pieces all stand on squares 1–32 does not read back as an
// 8×8 one. String writes the section whenever the board is not the
// ruleset's default (8×8 here); the reader takes ":8x8" or ":10x10" in any
// ruleset whose board it names, and without it reads a FEN naming a square
// above 32 as 10×10, otherwise 8×8. A position has
// exactly one wolf and no kings. Sheep step diagonally forward, the wolf one
// square diagonally either way; nothing is captured and nobody is crowned.
// The wolf wins ("wolf behind the sheep", 0-1) as soon as it stands on a row
// nearer the sheep's side of the board than every sheep; the sheep win
// ("wolf trapped", 1-0) when the wolf to move cannot move; sheep that cannot
// move lose ("sheep blocked", 0-1).
//
// 8×8 families. Start "B:W21-32:B1-12" (checkers, pool: Black, on 1–12,
// moves first) or "W:W21-32:B1-12" (the others: White first). Squares are
// numbered as on 8×8 above (square 1 the second square of the top row, 29
// the bottom-left corner) except in italian, where the board is mirrored as
// PDN GameType 22 says (N2, invert flag 1): square 1 is the top-left corner,
// 32 the bottom-right one, the bottom-left corner is light. The rules are
// symmetric left to right, so both numberings play alike; only the
// drawing differs. russian, brazilian and czech write moves and square
// names in PDN's algebraic notation A0: "c3-d4", a1 the bottom-left corner
// (square 29), captures "d4:f6" in russian (PDN's separator for 25) and
// "d4xf6" in the others; numeric squares and either separator are read too,
// and so is the short notation of Russian literature, the file of the origin
// and the destination ("ed4", a capture "e:c5" or "e:c5:a3" with a landing),
// which means every legal move it fits: several are an Ambiguous error
// (short.go).
// Their FENs are written numeric (as the corpus files do) and read numeric or
// alphanumeric ("W:Wa1,c1:Bh8"). Results are written "1-0", "0-1",
// "1/2-1/2" (PDN's Default result type); PDN's points "2-0", "1-1", "0-2"
// are read too, as its reading grammar allows in any file. No family has huffing: ignoring a capture is an
// Illegal move ("capture is compulsory"). Per family:
//   - checkers: men step and capture forward only; kings move and capture one
//     square in every direction; any complete capture may be chosen; a man
//     reaching the far row is crowned and its move ends.
//   - italian: as checkers (short kings, men forward only, crowning ends the
//     move), and a man may not capture a king. Among captures: the one taking
//     the most pieces; if equal, a capture by a king rather than a man; then
//     the one taking the most kings; then the one meeting a king first
//     (earliest king in the order of capture, then the next…). A tie left
//     after all four is the player's choice.
//   - pool: men capture forward and backward, kings fly, any capture may be
//     chosen; a man passing the far row during a capture goes on as a man and
//     is crowned only if it ends there.
//   - russian: as pool, but a man reaching the far row during a capture is
//     crowned there and goes on capturing as a (flying) king.
//   - brazilian: the international rules on 8×8 (majority rule, kings and men
//     counting alike; crowned only when the move ends on the far row).
//   - czech: men step and capture forward only, kings fly; a capture by a
//     king must be chosen when a king can capture, otherwise any capture.
//
// In every family but Turkish and Thai pieces taken are removed when the
// sequence ends and cannot be jumped twice. A move is one (origin,
// destination, captured set, crowned during the capture): the last part only
// matters where a man crowned during a capture goes on as a king (russian,
// spantsiretti, turkish).
//
// PDN 3.0 families and lidraughts variants. Each is a parameter set of the
// same generator; the GameType string gives the board (gametype.rst), the
// sources below the rules, and where they disagree the choice is said.
//   - spanish (24) and portuguese (28): "24,W,8,8,N1,1" and "28,W,8,8,N1,1",
//     the same board: the bottom-left corner is light, square 1 is White's
//     bottom-right corner (h1) and the numbering runs right to left and up,
//     so White starts on 1–12 ("W:W1-12:B21-32") and moves first. Men step
//     and capture diagonally forward only, kings fly; among captures the one
//     taking the most pieces, then the most kings (the laws of quantity and
//     quality: Federação Portuguesa de Damas, "Regras do jogo de damas
//     clássicas", 2013, laws of capture; the rule summaries of Spanish
//     ("classic") draughts state the same, and so do R. Halbersma's DCTL
//     rules for Spanish, whose published perft Plateau matches). A
//     man reaching the far row is crowned and its move ends. The two
//     GameTypes play alike; they are two rulesets so that each file keeps its
//     name.
//   - canadian (27): "27,W,12,12,N2,0": the international rules on 12×12, 30
//     men a side on 1–30 and 43–72, PDN points as results (PDN's
//     International result type).
//   - turkish (30): "30,W,8,8,A0,0": every cell of the board plays and
//     squares are named a1–h8 only (moves "c3-c4", "d3xd5"; FENs list
//     squares "W:Wa2,b2,…", the alphanumeric FEN of fen.rst; numbers are
//     refused). 16 men a side on the second and third ranks, White first.
//     Men step one square forward or sideways and capture the same ways by
//     jumping an adjacent piece; kings move and capture along ranks and
//     files at any distance, landing on any empty square beyond. A piece
//     taken leaves the board at once, so its square may be crossed again;
//     a sequence may not turn back 180° between two captures; the sequence
//     taking the most pieces must be chosen, kings and men alike. A man
//     reaching the far row during a capture is crowned and goes on
//     capturing as a king (Wikipedia "Turkish draughts" and
//     draughts.github.io; an older Wikipedia text crowned it at the end of
//     the move — as a man on the far row can only go on sideways along it,
//     the two differ only where the king would turn). A single king against
//     a single man wins (Wikipedia: "A king versus single man also wins
//     the game"; endgame.go).
//   - thai (31): "31,B,8,8,N2,0": Black moves first and the numbering starts
//     from the corner at Black's top left, that is White's bottom right:
//     square 1 is g1, White's 8 men stand on 1–8 and Black's on 25–32
//     ("B:W1-8:B25-32"). Men step and capture diagonally forward only;
//     kings fly, but a king that captures lands on the square right behind
//     the piece it takes. A piece taken leaves the board at once, and a king
//     may then turn back over its square (DCTL's Thai rules; the checkers
//     wiki "Mak-hot"; mindsports.nl lets it go on only straight or at a
//     right angle). Any complete capture may be chosen. Captures are
//     written with PDN's separator for 31, "-" ("19-26-17"), and read with
//     "x" too.
//   - frisian (40): "40,W,10,10,N2,0": the international board and start.
//     Men step diagonally forward; men and kings capture in eight
//     directions: diagonally and straight along ranks and files (the next
//     square straight is two cells away, the same colour), forward and
//     backward, kings at a distance; kings move diagonally only (Official
//     Rules for Frisian Draughts, 2011, articles 7–9). The capture of the
//     most value must be chosen, a king worth more than a man and less than
//     two (lidraughts counts a man 100 and a king 199, DCTL 65 and 129: the
//     same order), then at equal value a capture by a king. A king may not
//     make more than three non-capturing moves in a row while its side has
//     men (mindsports.nl, lidraughts); the count is part of the position
//     (run.go). Results are written 1-0 (PDN's Default result type for 40).
//     Two kings against one are drawn after seven moves each, one king
//     against one after two moves each (lidraughts' Frisian rules; the
//     count is part of the position: endgame.go).
//   - spantsiretti (41): "41,W,10,8,A0,0": the Russian rules on a board of
//     10 files (a–j) and 8 ranks, 15 men a side on the first three ranks
//     (Games::Checkers' "russian_10x8 (spantsiretti)"; PDN names the type
//     after PlayOK's and Aurora Borealis' conventions). Notation as russian.
//   - antidraughts (98): the international rules, but the side to move
//     without a piece or a move wins (lidraughts: "Lose all your pieces (or
//     run out of moves) to win the game").
//   - breakthrough (96): the international rules, and the first side that
//     crowns a king wins ("crowned a king"; lidraughts: "The first player
//     who makes a king wins").
//   - frysk (97): the Frisian rules from "W:W46-50:B1-5" (lidraughts: "Frisian
//     draughts starting with 5 pieces each").
//
// The lidraughts variants write PDN points, as lidraughts does.
//
// Lenient readings the PDN standard allows: an alpha-numeric move may omit
// its separator ("a3b4", grammar.rst), read as the step or else the one
// capture between the two squares; a FEN section may be empty ("W::",
// the "empty ranges of pieces" of fen.rst's extensions). lidraughts ends
// some FENs with its clocks, ":H0:F1" (moves since the last capture or man
// move, move number): read and ignored when the F section is there.
//
// Board lists men as Kind 'M' and kings as Kind 'K' (Promoted); the sheep and
// the wolf are men. Diagram draws w/b men and W/B kings (s sheep, L wolf),
// and empty dark squares show their number.
package dames
