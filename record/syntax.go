// Reading (Reader), decisions where PGN and PDN are silent or ambiguous:
//
//   - Input: a UTF-8 BOM is skipped; UTF-16 is decoded (BOM, or guessed from
//     NUL bytes in the first four); LF, CRLF and lone CR end lines. A line
//     that is not valid UTF-8 is read line by line, so mixed files work
//     (Decode): when it holds UTF-8 characters it is UTF-8 with damaged
//     bytes, each replaced by U+FFFD, and the game has a warning at the
//     first (one warning a game, counting them all); when it holds none it
//     is Windows-1252 (Latin-1 plus the 0x80–0x9F punctuation), converted
//     without warning (a line longer than 1 MiB is decided piece by piece). Positions: Line is 1-based; Col is the 1-based byte
//     column in the decoded UTF-8 line; Offset is the byte offset in the
//     decoded stream (for UTF-8 input that is the file offset, BOM
//     included). A line longer than 1 MiB is
//     read in pieces of about 1 MiB, cut after a blank when there is one
//     near the cut, never inside a character; the pieces keep the line's
//     number and columns, and a token that spans a cut (a string, a word, a
//     comment) is read as one token: a record is one record wherever its
//     lines are cut.
//   - Size: a record is at most SetMaxRecord bytes of text from its first
//     token (4 MiB by default) and one token per 32 of those bytes (a
//     move held costs far more than its text); a larger one is reported
//     at its start ("record larger than 4 MiB"), its moves dropped, and
//     skipped whole without holding it: to its result, or to the next tag
//     section after its movetext (the tag pairs of its own tag section,
//     results written in them included, do not end the skip). A tag value
//     is no more limited than its record: one of 1.1 MiB reads whole.
//   - A '%' in column 1 outside a comment makes an escape line (ignored).
//   - Move numbers ("12." "12..." "12 ." "12.e4" "1.32-28"), and standalone
//     ellipses ("...", "…") are dropped. Digits alone are a move ("3228")
//     unless dots standing alone follow them on the line.
//   - A result is a word equal to one of 1-0 0-1 1/2-1/2 ½-½ * 2-0 0-2 1-1
//     0-0 3-0 0-3, or one of them with a colon for the dash as Russian
//     files write them (1:0 0:1 1/2:1/2), stored in the canonical spelling
//     (½-½ and 1/2:1/2 are 1/2-1/2), in the movetext and the Result tag;
//     "1-18" or "32-28" is a move. A Result tag that is no result but a
//     score ("4-6") makes the same word in the movetext the game's result,
//     never a move. A game ends after its result, or before the next '['
//     (tag section), or at the end of input. Tag pairs before any movetext
//     belong to the same game, even over several lines or after comments.
//   - Tag names start with a letter, of any alphabet ([Результат "1:0"]);
//     a value without quotes runs to the ']' of its line ([Round 1.1]).
//     An unescaped '"' inside a quoted value ([Event "The "Big" Open"]) is
//     read as PDN readers in the wild read it: a '"' that another '"'
//     follows on its line, and not before ']' or '[' (blanks skipped), is
//     part of the value, with a warning; so the record is never cut there.
//     A '"' before ']' or '[', or the last of its line, ends the value.
//     Localised names add the standard tags they stand for (localtags.go).
//   - Warnings (Game.Warnings, record.Warning): what departs from PDN's
//     grammar but has a reading a user wants is read, with a warning naming
//     its place and the grammar rule: a game without a result before the
//     next game's tags; a move number without a move; dots alone; moves
//     written '-' (unknown, kept as moves); a score read as the result; a
//     parenthesis whose first word has no digit (prose, as English books
//     write notes; an ordinal such as "1st" too), read as a comment up to
//     the ')' that closes it; unescaped quotes in a tag value. Spellings with one reading (1:0, a bare tag
//     value, "1- 6") are no warning.
//   - Strength marks: ! ? !! ?? !? ?! are NAGs 1–6, glued or standalone,
//     and also in parentheses as PDN writes them ("31-27(?)"). A longer run
//     is split into pairs then single marks, left to right ("!?!!!" is
//     $5 $3 $1). A '*' glued to the end of a move is PDN's forced-move mark,
//     NAG 7 ("18-23*"); a '*' standing alone is the result.
//   - Comments: the text between braces with white space runs collapsed to
//     one space and trimmed (so wrapping can never change a comment). A '{'
//     inside a comment is an error (PDN forbids nested comments; reading it
//     as text would leave a stray '}'). An open comment that reaches a line
//     starting with a tag pair ends there with an error, so that a missing
//     '}' does not swallow the games after it. A ';' comment runs to the end
//     of the line.
//   - Attachment: a comment after a move goes to its After; a comment after a
//     variation, or at the start of a variation, goes to the Before of the
//     next move (After of the last move when none follows); comments before
//     the first move of the main line are the game's Intro. A variation
//     "( … )" is attached to the move just before it, which it replaces; its
//     first move has that move's Ply. Ply counts move tokens from 0 (replay
//     sets the true value).
//   - Errors (all *Error wrapping ErrSyntax, with file:line:col): stray ')'
//     ']' '}', strings outside tags, a NAG or '(' before any move, an empty
//     variation, a result inside a variation, '$' without digits, variations
//     nested deeper than 512, unclosed strings, comments and variations
//     (reported at the opening token). An unclosed '(' ends at the next tag
//     section, which starts the next game. After an error the Reader skips
//     the rest of the record as after a record too large: from the tag
//     section when the error is in it (a stray ']' or string), so that the
//     record's later tags and moves are never read as a game of their own.
//
// Writing (Format), see Format for the canonical form. Tags other than the
// fixed ones keep the order in which they were read (so a tool's private
// tags stay together).
package record
