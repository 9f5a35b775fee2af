package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// closest is the name among names nearest to typed, "" when none is near
// enough to be what was meant: at most 2 edits (a letter added, dropped,
// changed, or two swapped) and fewer than half of typed's letters, or typed
// the start of exactly one name.
func closest(names []string, typed string) string {
	best, bestD := "", 3
	var prefixed []string
	for _, n := range names {
		if d := editDistance(strings.ToLower(typed), strings.ToLower(n)); d < bestD && 2*d < len([]rune(typed)) {
			best, bestD = n, d
		}
		if len(typed) >= 2 && strings.HasPrefix(n, typed) {
			prefixed = append(prefixed, n)
		}
	}
	if best == "" && len(prefixed) == 1 {
		return prefixed[0]
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b: the
// edits (insert, delete, substitute a rune, swap two adjacent runes) that
// turn a into b.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// commandNames are the names and aliases of commands.
func commandNames(cmds []*cli.Command) []string {
	var names []string
	for _, c := range cmds {
		names = append(names, c.Names()...)
	}
	return names
}

// flagNames are the names and aliases of flags.
func flagNames(flags []cli.Flag) []string {
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	return names
}

// dashed is a flag name as typed: -x or --name.
func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}
