package web

import (
	"context"
	"strings"
	"testing"
)

// TestListWarnings: a valid game whose Result tag and movetext disagree is
// listed valid, with the warning naming both values.
func TestListWarnings(t *testing.T) {
	src := read(t, "[Game \"draughts\"]\n[Result \"0-1\"]\n\n1. 32-28 1/2-1/2\n\n[Game \"draughts\"]\n[Result \"*\"]\n\n1. 32-28 *\n").Source()
	page, err := src.List(context.Background(), ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Games) != 2 {
		t.Fatalf("%d games", len(page.Games))
	}
	g := page.Games[0]
	if !g.Valid || !strings.Contains(g.Warnings, `result: Result tag and movetext result differ: [Result "0-1"] but the movetext ends with 1/2-1/2`) {
		t.Fatalf("summary %+v", g)
	}
	if page.Games[1].Warnings != "" {
		t.Fatalf("second game warnings %q", page.Games[1].Warnings)
	}
}
