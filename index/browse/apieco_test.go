package browse_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// TestAPIOpeningCodes: every answer that names an opening gives the
// ECO-style code its name begins with in a field of its own (eco, or
// openingEco beside opening), the name unchanged; a name without a code
// has no such field.
func TestAPIOpeningCodes(t *testing.T) {
	srv := apiServer(t)
	field := func(v any, path ...any) any {
		for _, p := range path {
			switch k := p.(type) {
			case string:
				m, _ := v.(map[string]any)
				v = m[k]
			case int:
				a, _ := v.([]any)
				if k >= len(a) {
					return nil
				}
				v = a[k]
			}
		}
		return v
	}
	// check checks that every object of list with a name field (name)
	// has the code of its name (code), or no code field when it has none.
	check := func(what string, list any, name, code string) int {
		n := 0
		items, _ := list.([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			s, ok := m[name].(string)
			if !ok {
				if _, has := m[code]; has {
					t.Errorf("%s: %s without %s: %v", what, code, name, m)
				}
				continue
			}
			want, _, _ := strings.Cut(s, " ")
			if len(want) < 3 || want[0] < 'A' || want[0] > 'Z' || want[1] < '0' || want[1] > '9' || want[2] < '0' || want[2] > '9' {
				want = ""
			}
			got, has := m[code]
			if want == "" && has || want != "" && got != want {
				t.Errorf("%s: %s %q: %s %v, want %q", what, name, s, code, got, want)
			}
			if want != "" {
				n++
			}
		}
		return n
	}
	_, ogi := get(t, srv, "/api/v1/openings?game=ogi")
	if check("openings ogi", ogi, "name", "eco") != 4 {
		t.Errorf("openings ogi: want the 4 coded names: %v", ogi)
	}
	_, dej := get(t, srv, "/api/v1/openings?game=dejarik")
	if check("openings dejarik", dej, "name", "eco") != 0 || len(dej.([]any)) == 0 {
		t.Errorf("openings dejarik: want names without codes: %v", dej)
	}
	_, list := get(t, srv, "/api/v1/games?game=ogi&opening=R1")
	if check("list", field(list, "games"), "opening", "openingEco") == 0 {
		t.Errorf("list: no coded opening: %v", list)
	}
	n := field(list, "games", 0, "n")
	_, g := get(t, srv, fmt.Sprintf("/api/v1/games/%v", n))
	if field(g, "opening") != "R10 Ōgi: Rook to the centre" || field(g, "openingEco") != "R10" {
		t.Errorf("game %v: opening %v, openingEco %v", n, field(g, "opening"), field(g, "openingEco"))
	}
	_, tree := get(t, srv, "/api/v1/tree?game=ogi&fen=")
	if check("tree", tree, "opening", "openingEco") == 0 {
		t.Errorf("tree: no coded opening: %v", tree)
	}
	_, played := get(t, srv, "/api/v1/openings/played?game=ogi&event="+url.QueryEscape("Komayō"))
	if check("played", played, "name", "eco") == 0 {
		t.Errorf("played: no coded opening: %v", played)
	}
	_, dplayed := get(t, srv, "/api/v1/openings/played?game=dejarik")
	if check("played dejarik", dplayed, "name", "eco") != 0 || len(dplayed.([]any)) == 0 {
		t.Errorf("played dejarik: want names without codes: %v", dplayed)
	}
	_, player := get(t, srv, "/api/v1/player?name="+url.QueryEscape("Sato, Kenji"))
	if check("player", field(player, "named"), "name", "eco") == 0 {
		t.Errorf("player: no coded opening: %v", field(player, "named"))
	}
}
