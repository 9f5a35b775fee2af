// Command gencoll writes a generated collection (replay/generate) to
// standard output, for trying the database commands before `plateau
// generate` exists: gencoll GAME N [SEED].
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
	_ "github.com/plateau/plateau/rules/dames"
	_ "github.com/plateau/plateau/rules/dejarik"
	_ "github.com/plateau/plateau/rules/jetan"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: gencoll GAME N [SEED]")
		os.Exit(2)
	}
	g, err := rules.Lookup(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	n, _ := strconv.Atoi(os.Args[2])
	seed := uint64(1)
	if len(os.Args) > 3 {
		s, _ := strconv.Atoi(os.Args[3])
		seed = uint64(s)
	}
	gen, err := generate.New(g, seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	if _, err := gen.Write(context.Background(), w, n, generate.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w.Flush()
}
