package revisions_test

import (
	"strings"
	"testing"

	"github.com/plateau/plateau/index/internal/revisions"
	"github.com/plateau/plateau/record"
)

func TestNote(t *testing.T) {
	const base = `[Game "draughts"]
[Event "Club"]
[White "A"]
[Black "B"]
[Result "*"]

1. 32-28 19-23 2. 28x19 14x23 *
`
	read := func(s string) *record.Game {
		g, err := record.NewReader(strings.NewReader(s), "t").Next()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	commented := strings.Replace(base, "19-23 ", "19-23 {good} ", 1)
	for _, tc := range []struct {
		name, old, text, want string
	}{
		{"same", base, base, "record text changed"},
		{"tag changed", base, strings.Replace(base, `"Club"`, `"Open"`, 1), "tags Event"},
		{"tag removed", base, strings.Replace(base, "[Black \"B\"]\n", "", 1), "tags Black"},
		{"moves", base, strings.Replace(base, "14x23", "13x24", 1), "moves from ply 4"},
		{"moves cut", base, strings.Replace(base, " 14x23", "", 1), "moves from ply 4"},
		{"comment", base, commented, "comments 0→1"},
		{"comment edited", commented, strings.Replace(commented, "good", "better", 1), "annotations edited"},
		{"NAG and variation", base, strings.Replace(base, "2. 28x19", "2. 28x19 $1 (2. 33-29)", 1), "NAGs 0→1; variations 0→1"},
	} {
		if got := revisions.Note(read(tc.old), read(tc.text)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := revisions.Note(nil, read(base)); got != "record replaced" {
		t.Errorf("from no record: %q", got)
	}
}
