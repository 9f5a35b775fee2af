package record_test

import (
	"testing"
)

// TestTagValueQuotes: an unescaped '"' inside a tag value that another
// '"' follows on its line, and not before ']' or '[', is part of the
// value, with a warning at the first such quote; the record is one record
// (the games after it are read as they are), and well-formed values have
// no warning.
func TestTagValueQuotes(t *testing.T) {
	const rule = "STRING is written"
	tests := []struct {
		name, src string
		tag       string // the name of the tag checked in the first game
		value     string
		games     int // games read (no errors)
		warns     []want
	}{
		{"a quoted word", "[Event \"The \"Big\" Open\"]\n[Site \"s\"]\n\n1. 32-28 *\n\n[Event \"b\"]\n1. 32-28 *", "Event", `The "Big" Open`, 2,
			[]want{{1, 13, "tag Event: 2 unescaped '\"' read as part of the value", rule}}},
		{"a quote at the end", "[Event \"He said \"hi\"\"]\n1. 32-28 *", "Event", `He said "hi"`, 1,
			[]want{{1, 17, "2 unescaped", rule}}},
		{"a quote at the start", "[Event \"\"Big\" Open\"] 1. 32-28 *", "Event", `"Big" Open`, 1,
			[]want{{1, 9, "2 unescaped", rule}}},
		{"one quote", "[White \"O\"Neil, J.\"]\n[Black \"B\"]\n1. 32-28 *", "White", `O"Neil, J.`, 1,
			[]want{{1, 10, "1 unescaped", rule}}},
		{"pairs on one line", "[Event \"a\"] [Site \"b \"c\" d\"][Round \"1\"]\n1. 32-28 *", "Site", `b "c" d`, 1,
			[]want{{1, 22, "tag Site: 2 unescaped", rule}}},
		{"blanks before the bracket", "[Event \"x \"y\" \" ]\n1. 32-28 *", "Event", `x "y" `, 1,
			[]want{{1, 11, "2 unescaped", rule}}},
		{"escaped quotes are well-formed", "[Event \"The \\\"Big\\\" Open\"]\n1. 32-28 *", "Event", `The "Big" Open`, 1, nil},
		{"a plain value", "[Event \"a\"] [Site \"b\"]\n1. 32-28 *", "Site", "b", 1, nil},
		{"the next line is its own", "[Event \"a\"b\"]\n[Site \"c\"]\n1. 32-28 *", "Site", "c", 1,
			[]want{{1, 10, "1 unescaped", rule}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gs, errs := readAll(t, tt.src)
			if len(errs) != 0 || len(gs) != tt.games {
				t.Fatalf("%d games, errors %v; want %d games", len(gs), errs, tt.games)
			}
			g := gs[0]
			if v := g.Tag(tt.tag); v != tt.value {
				t.Errorf("%s = %q, want %q", tt.tag, v, tt.value)
			}
			if len(g.Moves) != 1 {
				t.Errorf("%d moves, want 1", len(g.Moves))
			}
			checkWarnings(t, g.Warnings, tt.warns)
		})
	}
}
