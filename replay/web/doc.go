// Package web turns replayed games into the JSON that the browser page of
// `plateau serve` draws, and serves it over HTTP: a page of the game list,
// filtered by the server (GET /api/games?q=&game=&valid=&offset=&limit=),
// and one game with every position of its main line and of its variations
// (GET /api/games/{n}), plus the page's static files. What is served is a
// Source: a Collection of record files here, or a database (index/browse).
//
// The page needs no rules logic: every position is sent as placements (the
// rules' Board()), side to move and position notation, and each game carries
// the board geometry to draw: the game's own drawing, which its rules
// package says (rules/draw: cells, coordinates, piece style and colours),
// in the page's JSON (Geometry); a game Plateau does not play gets a grid
// guessed from its square names (draw.Guess).
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
