// Package ogi implements Ōgi (王棋, "le Jeu du Roi"), the 8×8 shōgi
// variant of shared/rules/ogi.fr.txt, and registers it as game "ogi"
// (sides Sente, Gote; an illegal move ends the game and loses).
//
// Position notation (SFEN-like), ranks 8 to 1, Sente upper case, Gote lower
// case, '+' before a promoted piece, side to move b (Sente) or w (Gote),
// hands ("-" or e.g. "S2Pb+r": a count of 2 or more before the letter, '+'
// before a piece kept promoted by the King's privilege), the number of the
// next ply, and an optional fifth field: the plies since the last capture or
// unpromoted-pawn move (omitted when 0). The start is
//
//	lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1
//
// Handicap games are FEN tags in this notation (e.g. Sente's Rook and Bishop
// already promoted). A position is refused when a side has no King (on the
// board, or captured: in the opponent's hand as K), when a kind has more
// pieces than the full set, or when an unpromoted piece stands where it could
// never move (pawn or lance on the last rank, knight on the last two).
//
// Move notation, Western style with algebraic squares: P-e4 (short),
// Pe3-e4 (long), Bb2xg7+ (promotes), Bb2xg7= (declines), S*d4 (drop),
// +P*c5 (drop of a piece kept promoted), +Rb7-b8 (a promoted piece moves),
// Ke4xd5+ (the King captures a promoted piece and keeps it promoted in
// hand), Ke4xd5 (it is demoted). FormatMove always writes the origin, 'x'
// for a capture and '-' otherwise, '+' or '=' wherever promotion was
// possible, and for the King '+' for the privilege and nothing otherwise.
//
// Moves are uint64s holding origin, destination, flags and the moving and
// captured pieces; the board is a 64-square mailbox with precomputed step and
// ray tables; Legal allocates nothing when dst has room; ParseMove checks a
// long-form move directly (a short form looks for its origin) and the key is
// updated incrementally (Zobrist).
//
// Besides the rules, the package offers what a collection generator needs
// to play millions of moves (not rules; see choose.go, facts.go): MoveFacts
// in bulk, AppendMove (rules.MoveAppender), and Choose (rules.Chooser),
// which weighs every board move and a sample of drops on bitboards built
// from occupancy sets that Play keeps, in one pass keeping the best move
// (chooseAll, which keeps them all, settles the rare choices that one does
// not), and tests the King's safety by an attack test; the move it returns
// is always legal (repetition checked).
//
// Decisions where the text is silent or the notation needs one:
//   - Input: '-' and 'x' are both accepted whether or not the move captures;
//     a move with neither '+' nor '=' does not promote, so it is illegal
//     (RuleCompulsory) where promotion is compulsory; '=' is accepted on any
//     move that does not promote. The piece letter must match the piece's
//     state: Rb7-b8 for a promoted rook on b7 is RuleWrongPiece.
//   - Every illegal move has a precise rule name (the Rule* constants). For a
//     drop they are checked in this order: unpromoted pawn, piece in hand,
//     empty square, lance/knight rank, promotion suffix, repetition.
//   - Repetition: a move is illegal if the same piece (« la même pièce »:
//     the very piece, not another of its kind; for a drop « une pièce de même
//     type et de même état »), from the same square (or dropped), to the same
//     square, with the same promotion choice (and the same King's-privilege
//     choice), was already played in the game and gave the same position
//     (board with states, hands, side to move) as now. A piece is followed
//     from the moment it enters the board (the parsed position, or a drop:
//     pieces in hand of one kind and state are interchangeable, so a dropped
//     piece is a new one) through its moves; two Silvers that have swapped
//     squares are not the same piece. Identity is traced back through the
//     history only when move and position already match (samePiece). The Position carries the history of (move, resulting
//     key) from the position it was parsed from; Clone shares it, copy on
//     append. Only the moves since the last unpromoted-pawn move are
//     searched: such a move is irreversible (pawns only go forward, and a
//     captured pawn is demoted in hand and can never be dropped), so no
//     earlier position can recur.
//   - The King's privilege counts as two moves (keep / demote) in Legal and
//     perft. A captured King goes to the captor's hand (K) and the game is
//     over: "king captured". A side to move with no legal move at all loses
//     ("no legal move"), since any move it made would be illegal.
//   - The 100-ply rule allows a draw, it does not impose one: Outcome never
//     says drawn; CheckResult accepts "1/2-1/2" only once 100 plies have
//     passed without capture and without unpromoted-pawn move (a pawn that
//     promotes as it moves counts as an unpromoted-pawn move; drops do not
//     reset the count). "*" is always accepted, a decisive result in an
//     unfinished position is a resignation, a finished position needs exactly
//     its result.
//   - Key is a Zobrist hash of board, states, hands and side to move; the
//     move number and the draw count are kept in the Position but not hashed.
package ogi
