// Package tui is the terminal replayer: a full-screen program (bubbletea,
// drawn with lipgloss) that steps through one replayed game with single
// keys. Its Model holds the whole state (where in the move tree, board
// orientation, pending input) and is driven by key messages, so it is
// tested without a terminal; Run puts it on a terminal's alternate screen.
//
// What it shows: the header (the game's number in its file, game, event, site, date, round, players,
// result and termination, and the record's first error if any), the board,
// hands in games that have them, the side to move, the current move with
// its NAGs and comments, the variations of the next move, and the move list
// of the current line with the current move highlighted, scrolled to keep it
// in view.
//
// Decisions made here (the issue and the design are silent on them):
//   - Boards are drawn from the rules' Board() placements on the drawing
//     the game's package gives (rules/draw, as the browser page does), so
//     that every game can be flipped, the last move's squares are
//     highlighted, and numbered boards (the dames family) show the number of
//     every dark square, occupied or not. Flipping turns the board half
//     round (the ring of Dejarik too). Pieces are written as the drawing's
//     glyphs say, else discs ○ and ●, letters upper case for the first side
//     and lower case for the second, '+' before a promoted piece.
//   - Keys: → l j ↓ Space next; ← h k ↑ Backspace back (j/k as in a
//     vertical list, l/h as on a horizontal line); Home g start of the game;
//     End G end of the current line; digits then Enter go to that ply;
//     v enters a variation of the next move and plays its first move
//     (with several, a chooser opens: ↑↓ or digits, Enter); x leaves the
//     variation, to the position where it branched; f flips; ? help; q,
//     Ctrl-C quit; Esc cancels input, the chooser or help.
//   - On a collection (Games: the games of a file, asked for one at a
//     time), ] and [ open the next and previous game at its start and o
//     opens the game list (↑↓ PgUp PgDn Home End, a number then Enter, Esc
//     closes it); the header says "game i of n" ("n so far" while the
//     collection still grows: the screen is redrawn as it does). A game
//     that cannot be shown leaves the current one on screen, with the
//     reason.
//   - The piece legend the drawing gives (draw.Board.Pieces: Ōgi's and
//     Jetan's) is written under the board, one piece a line, with which
//     case is which side; a short screen loses it first.
//   - Going back from a variation's first move leaves the variation (the
//     position before it is the branching position: no step that shows
//     nothing new).
//   - A ply number typed inside a variation goes to that ply of the
//     variation when the variation reaches it, else of the main line.
//   - Home goes to the start of the game, leaving variations; End stays in
//     the current line.
//   - A round board is drawn squat (1.5 rows a unit instead of 2) on
//     screens under 34 rows; a screen too short for the board loses the
//     board's last rows, never the status and key lines.
//
// Known cost: bubbletea v1 asks the terminal its background colour when
// the program starts (its package init, OSC 11 then a cursor report), so
// every plateau command whose output is a terminal does; terminals answer
// at once (tmux, screen and TERM=dumb are not asked), but a pseudo-terminal
// that answers nothing delays the start by termenv's 5 s time-out.
package tui
