// Command chesspgn writes random legal chess games as PGN, the input that
// scripts/vs-peers.sh gives the chess peers (pgn-extract, Scid) beside
// Plateau's own generated Ōgi games.
//
//	go run . -games 150000 -seed 1 -out /tmp/chess-150000.pgn
//
// It is a module of its own so that Plateau's module gains no dependency:
// the chess rules (legal moves, SAN with its disambiguation and check
// marks) come from github.com/corentings/chess/v2, the maintained fork of
// notnil/chess.
//
// Decisions:
//   - Each move is drawn uniformly from the legal moves. A game ends by
//     checkmate (won), stalemate, insufficient material or the fifty-move
//     rule (drawn), or at a length drawn for it between MinPlies and
//     MaxPlies, where it gets a random decisive or drawn result as a
//     resignation or an agreement would (PGN does not tie a result to the
//     final position). The length range puts the mean near a real
//     collection's, so that plies per game and bytes per game compare.
//   - Game i is a function of (seed, i) alone, so the output does not
//     depend on the number of workers and a collection can be remade.
//   - Tags are the seven of PGN's roster, with players and events drawn from
//     fixed pools so that a database has a name index of a realistic size.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "chesspgn:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("chesspgn", flag.ContinueOnError)
	games := fs.Int("games", 1000, "games to write")
	seed := fs.Uint64("seed", 1, "seed of the random moves")
	out := fs.String("out", "-", "output file (- for standard output)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines generating; the output does not depend on it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *games < 0 || *workers < 1 {
		return fmt.Errorf("-games must be >= 0 and -workers >= 1")
	}
	w := stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := Write(bw, *seed, *games, *workers); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f, ok := w.(*os.File); ok && w != stdout {
		return f.Close()
	}
	return nil
}
