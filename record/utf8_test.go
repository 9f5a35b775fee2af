package record_test

import (
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
)

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		replaced int
	}{
		{"Ōsaka", "Ōsaka", 0},
		{"\xc5\x8csaka \xff open", "Ōsaka \uFFFD open", 1},   // UTF-8 with one bad byte
		{"M\xfcnchen \xe9t\xe9", "München été", 0},           // no UTF-8: Windows-1252
		{"\x93quoted\x94", "\u201cquoted\u201d", 0},          // its 0x80–0x9F punctuation
		{"\xc3\xa9\xe2\x82 \xc3", "é\uFFFD\uFFFD \uFFFD", 3}, // cut sequences
		{"\xef\xbf\xbd \xff", "\uFFFD \uFFFD", 1},            // U+FFFD written is UTF-8
		{"ascii only", "ascii only", 0},
	} {
		got, n := record.Decode(tc.in)
		if got != tc.want || n != tc.replaced {
			t.Errorf("Decode(%q) = %q, %d; want %q, %d", tc.in, got, n, tc.want, tc.replaced)
		}
	}
}

// A line that is UTF-8 but for a few bytes keeps its UTF-8 and has those
// bytes replaced by U+FFFD, with a warning at the first (issue 42: the
// whole line was read as Windows-1252, Ō became Å’); a line without UTF-8
// is Windows-1252, without warning.
func TestInvalidUTF8Lines(t *testing.T) {
	tests := []struct {
		name, src string
		game      int
		tag, want string
		warns     []want
	}{
		{"one bad byte in a UTF-8 tag", "[Event \"\xc5\x8csaka \xff open\"]\n1. e4 *", 0,
			"Event", "Ōsaka \uFFFD open", []want{{1, 16, "1 byte replaced by U+FFFD", "UTF-8"}}},
		{"a Windows-1252 line", "[Site \"M\xfcnchen\"]\n1. e4 *", 0, "Site", "München", nil},
		{"lines counted in one warning", "[Event \"\xc5\x8c \xff\"]\n[Site \"\xc5\x8c \xfe\xfe\"]\n1. e4 {\xc3\xa9 \xfe} *", 0,
			"Site", "Ō \uFFFD\uFFFD", []want{{1, 12, "4 bytes replaced by U+FFFD in 3 lines, the first here", "UTF-8"}}},
		{"the next game's line is the next game's", "[Event \"a\"]\n1. e4 * [Event \"\xc5\x8c \xff\"]\n1. e4 *", 1,
			"Event", "Ō \uFFFD", []want{{2, 20, "1 byte replaced", "UTF-8"}}},
		{"the game before has none", "[Event \"a\"]\n1. e4 * [Event \"\xc5\x8c \xff\"]\n1. e4 *", 0,
			"Event", "a", nil},
		{"a skipped record's lines are its own", "[Event \"a\"]\n1. e4 ) {\xc5\x8c \xff} *\n[Event \"b\"]\n1. e4 *", 0,
			"Event", "b", nil},
		{"an escape line is ignored", "%\xc5\x8c \xff\n[Event \"b\"]\n1. e4 *", 0, "Event", "b", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gs, errs := readAll(t, tt.src)
			if len(gs) <= tt.game {
				t.Fatalf("%d games, errors %v", len(gs), errs)
			}
			g := gs[tt.game]
			if got := g.Tag(tt.tag); got != tt.want {
				t.Errorf("%s %q, want %q", tt.tag, got, tt.want)
			}
			checkWarnings(t, g.Warnings, tt.warns)
			if len(g.Warnings) > 0 && !strings.HasPrefix(g.Warnings[0].String(), "t.pdn:") {
				t.Errorf("warning %q names no file", g.Warnings[0])
			}
		})
	}
}
