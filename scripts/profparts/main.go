// Command profparts prints the CPU of an import's profile (plateau import
// --cpuprofile, plateau bench --cpuprofile) by the code it ran: replay,
// record reading, SQLite, position runs, the tree aggregate, Bleve, zstd,
// the collector (internal/bench.Parts), as a Markdown table.
//
//	go run ./scripts/profparts [-games N] PROFILE
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/plateau/plateau/internal/bench"
)

func main() {
	games := flag.Int("games", 0, "games imported (for the µs a game)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: profparts [-games N] PROFILE")
		os.Exit(2)
	}
	parts, err := bench.PartsOfFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Print(bench.PartsTable(parts, *games))
}
