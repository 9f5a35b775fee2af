package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// TestCollectionList: the words of the filter must all occur, case and
// accents folded; the game and validity filters; pages; the rulesets.
func TestCollectionList(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 30; i++ {
		white := []string{"Élodie Brûlé", "Jean Martin", "Noé Girard"}[i%3]
		fmt.Fprintf(&b, "[Game \"draughts\"]\n[Event \"Open %d\"]\n[White %q]\n[Black \"X\"]\n[Result \"*\"]\n\n1. 32-28 *\n\n", i, white)
	}
	b.WriteString("[Game \"draughts\"]\n[White \"Élodie Brûlé\"]\n[Black \"Y\"]\n[Result \"*\"]\n\n1. 32-28 99-12 *\n\n")
	b.WriteString(ogiGame)
	src := read(t, b.String()).Source()
	ctx := context.Background()
	for _, tc := range []struct {
		q     ListQuery
		total int
		first int // N of the first game of the page
		n     int // games on the page
	}{
		{ListQuery{}, 32, 1, 32},
		{ListQuery{Text: "elodie BRULE"}, 11, 1, 11},
		{ListQuery{Text: "élodie open"}, 10, 1, 10},
		{ListQuery{Text: "brule", Valid: "invalid"}, 1, 31, 1},
		{ListQuery{Text: "brule", Valid: "valid", Offset: 8, Limit: 5}, 10, 25, 2},
		{ListQuery{Game: "ogi"}, 1, 32, 1},
		{ListQuery{Game: "OGI"}, 1, 32, 1},
		{ListQuery{Game: "draughts", Text: "nobody"}, 0, 0, 0},
		{ListQuery{Offset: 10, Limit: 3}, 32, 11, 3},
		{ListQuery{Offset: 40}, 32, 0, 0},
		{ListQuery{Text: "nobody"}, 0, 0, 0},
	} {
		p, err := src.List(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		first := 0
		if len(p.Games) > 0 {
			first = p.Games[0].N
		}
		if p.Total != tc.total || len(p.Games) != tc.n || first != tc.first || strings.Join(p.Rulesets, ",") != "draughts,ogi" {
			t.Errorf("%+v: %d games from %d of %d, rulesets %v; want %d from %d of %d", tc.q, len(p.Games), first, p.Total, p.Rulesets, tc.n, tc.first, tc.total)
		}
	}
	if got := Fold("Inès ÉLODIE Çà"); got != "ines elodie ca" {
		t.Errorf("Fold = %q", got)
	}
}

// TestCollectionUnknownGame: a game filter that names no ruleset is a 400
// naming the parameter, alone or with other parameters, never an empty
// list.
func TestCollectionUnknownGame(t *testing.T) {
	src := read(t, ogiGame).Source()
	if _, err := src.List(context.Background(), ListQuery{Game: "ogii"}); !errors.Is(err, ErrBadQuery) {
		t.Errorf("List(game ogii) = %v, want ErrBadQuery", err)
	}
	h := Handler(src, fstest.MapFS{"index.html": {Data: []byte("<html></html>")}})
	for _, query := range []string{"game=ogii", "game=ogii&q=x", "game=0&valid=both&limit=5", "game=%C8%BA"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/api/games?"+query, nil))
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `game \"`) {
			t.Errorf("%s: %d %s, want a 400 naming game", query, w.Code, w.Body.String())
		}
	}
}
