// Package web turns replayed games into the JSON that the browser page of
// `plateau serve` draws, and serves it over HTTP: a page of the game list,
// filtered by the server (GET /api/games?q=&game=&valid=&offset=&limit=),
// and one game with every position of its main line and of its variations
// (GET /api/games/{n}), plus the page's static files. What is served is a
// Source: a Collection of record files here, or a database (index/browse).
//
// The page needs no rules logic: every position is sent as placements (the
// rules' Board()), side to move and position notation, and each game carries
// the board geometry to draw, computed here from the game id:
//   - ogi: 8×8, files a–h left to right, ranks 8→1 top down (Sente at the
//     bottom), hands beside the board;
//   - jetan: 10×10, files a–j, ranks 10→1 top down (Black at the bottom);
//   - sauts: 8×8, rows A–H top down, columns 1–8 left to right, goal squares
//     A4 A5 H4 H5 shaded (as rules/sauts' Diagram);
//   - the dames family: PDN numbered dark squares, square 1 the first dark
//     square of the top row (the second cell), White at the bottom (as
//     rules/dames' Diagram); 10×10 except loup-moutons, which is 8×8 unless
//     its start position is 10×10 (as rules/dames reads it: a ":10x10"
//     section or a square above 32),
//     and the 8×8 families: checkers and pool numbered like dames, italian
//     mirrored (square 1 the top-left corner), russian, brazilian and czech
//     named a1–h8 with files and ranks written around the board;
//   - dejarik: a round board, centre c, inner ring i1–i12 in front of the
//     outer ring o1–o12, 12 at the top and numbers running clockwise (as
//     rules/dejarik's Diagram);
//   - any other game: a grid guessed from its square names, so that a newly
//     registered game still shows (letters+digits squares).
//
// Decisions: the games of a collection are numbered 1… in the order read;
// its list filter keeps the games whose players, event, site, date, round,
// game or file hold every word, case and accents folded (Fold); a page holds
// DefaultLimit games unless asked for up to MaxLimit;
// a record that could not be read completely (a syntax error) is listed as
// invalid with the reader's error, and what was read of it is still
// replayed and shown. A game is replayed again on each request for it, so
// the server keeps only the records and their summaries in memory.
package web
