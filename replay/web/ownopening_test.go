package web_test

import (
	"testing"

	"github.com/plateau/plateau/replay/web"
)

// TestSetOwnOpening: a record's own Opening (with its Variation) and ECO
// tags are given only when no listed name matches the game.
func TestSetOwnOpening(t *testing.T) {
	for _, tc := range []struct {
		name, listed     string
		tags             map[string]string
		wantName, wantEC string
	}{
		{"none", "", nil, "", ""},
		{"both", "", map[string]string{"Opening": "Sicilienne", "ECO": "B20"}, "Sicilienne", "B20"},
		{"variation", "", map[string]string{"Opening": "Sicilienne", "Variation": "Najdorf"}, "Sicilienne, Najdorf", ""},
		{"variation alone", "", map[string]string{"Variation": "Najdorf"}, "Najdorf", ""},
		{"code alone", "", map[string]string{"ECO": "B20"}, "", "B20"},
		{"listed first", "R10 Rook", map[string]string{"Opening": "Sicilienne", "ECO": "B20"}, "", ""},
	} {
		s := web.Summary{Opening: tc.listed, OwnOpening: "stale", OwnECO: "stale"}
		s.SetOwnOpening(func(n string) string { return tc.tags[n] })
		if s.OwnOpening != tc.wantName || s.OwnECO != tc.wantEC || s.Opening != tc.listed {
			t.Errorf("%s: %q %q %q, want %q %q %q", tc.name, s.Opening, s.OwnOpening, s.OwnECO, tc.listed, tc.wantName, tc.wantEC)
		}
	}
}
