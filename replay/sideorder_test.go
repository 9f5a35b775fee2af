package replay_test

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/dames"
)

// PDN 2.0 for checkers (pdn2.txt, 6.1.1.2.6 TERMINATOR): "1-0 indicating
// Black (Red) won the game", "0-1 indicating White won the game". Checkers
// and pool name Black, their first mover, first; a Result is read in the
// order of the ruleset's Sides, never as White's score first.
func TestResultSideOrder(t *testing.T) {
	// "Tricks traps and shots" example 3 (corpus): White wins, and the
	// record ends "32x14 {white wins} 0-1" with Black's man on 5 left.
	const tts, ttsMoves = "W:W32,28,23,19:B20,11,9,5", "28-24 20x27 19-15 11x18 23x14 9x18 32x14"
	tests := []struct {
		game, fen, result, moves string
		valid                    bool
		winner                   string // the side name the Result credits; "" for none
	}{
		// White takes Black's last man.
		{"checkers", "W:W23:B18", "0-1", "23x14", true, "White"},
		{"checkers", "W:W23:B18", "1-0", "23x14", false, ""},
		{"pool", "W:W23:B18", "0-1", "23x14", true, "White"},
		{"pool", "W:W23:B18", "1-0", "23x14", false, ""},
		// Black takes White's last man.
		{"checkers", "B:W18:B14", "1-0", "14x23", true, "Black"},
		{"checkers", "B:W18:B14", "0-1", "14x23", false, ""},
		// Not over: a resignation, credited to the side the Result names.
		{"checkers", tts, "0-1", ttsMoves, true, "White"},
		{"checkers", tts, "1-0", ttsMoves, true, "Black"},
		// Where White moves first (GameType start colour W), White first.
		{"russian", "W:W22:B18,1", "1-0", "c3:e5", true, "White"},
		{"italian", "W:W22:B18", "0-1", "22x13", false, ""},
		{"italian", "W:W22:B18", "1-0", "22x13", true, "White"},
	}
	for _, tc := range tests {
		rec := game(tc.game, tc.fen, tc.result, tc.moves)
		g := replay.Replay(rec, replay.Options{})
		if (g.Err == nil) != tc.valid {
			t.Errorf("%s %s %s: error %v, want valid=%v", tc.game, tc.fen, tc.result, g.Err, tc.valid)
			continue
		}
		if !tc.valid {
			if !errors.Is(g.Err, rules.ErrResult) {
				t.Errorf("%s %s: %v, want a result error", tc.game, tc.result, g.Err)
			}
			continue
		}
		if got := winner(g); got != tc.winner {
			t.Errorf("%s %s %s: the Result credits %q, want %q", tc.game, tc.fen, tc.result, got, tc.winner)
		}
	}
}

// The sides' names and players follow the rules' order in the JSON export.
func TestJSONSideOrder(t *testing.T) {
	rec := game("checkers", "W:W23:B18", "0-1", "23x14")
	rec.SetTag("White", "Wyllie, J.")
	rec.SetTag("Black", "Oldbury, R.")
	j := replay.Replay(rec, replay.Options{}).JSON()
	if !j.Valid || j.Sides != [2]string{"Black", "White"} || j.Players != [2]string{"Oldbury, R.", "Wyllie, J."} || j.Result != "0-1" {
		t.Errorf("JSON: valid %v, sides %v, players %v, result %s", j.Valid, j.Sides, j.Players, j.Result)
	}
}

// winner is the side name a decisive Result credits, by the ruleset's
// side order: the side whose score is the larger.
func winner(g *replay.Game) string {
	switch g.Result {
	case "1-0", "2-0":
		return g.Rules.Sides()[0]
	case "0-1", "0-2":
		return g.Rules.Sides()[1]
	}
	return ""
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The canonical form writes the player tags in the ruleset's side order,
// the first mover's first where its GameType's start colour is B
// (checkers, pool, thai: Black, then White), White first elsewhere; a
// canonical record read again is written again byte for byte
// (testdata/sideorder.golden; go test -run TestCanonicalSideOrder -update).
func TestCanonicalSideOrder(t *testing.T) {
	in, err := os.ReadFile("testdata/sideorder.pdn")
	if err != nil {
		t.Fatal(err)
	}
	canon := func(text []byte) []byte {
		var out bytes.Buffer
		r := record.NewReader(bytes.NewReader(text), "sideorder.pdn")
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			g := replay.Replay(rec, replay.Options{})
			if g.Err != nil {
				t.Fatalf("%d: %v", rec.Pos.Line, g.Err)
			}
			out.Write(record.Format(g.Canonical()))
		}
		return out.Bytes()
	}
	got := canon(in)
	const golden = "testdata/sideorder.golden"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestCanonicalSideOrder -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("canonical form differs from %s:\n%s", golden, got)
	}
	if again := canon(got); !bytes.Equal(again, got) {
		t.Errorf("the canonical form read again is written differently:\n%s", again)
	}
	// The order of each game's player tags in the golden text.
	order := regexp.MustCompile(`(?m)^\[(White|Black|Orange) `)
	var seen []string
	for _, m := range order.FindAllStringSubmatch(string(want), -1) {
		seen = append(seen, m[1])
	}
	if w := "Black White Black White Black White White Black Black Orange"; strings.Join(seen, " ") != w {
		t.Errorf("player tags in the order %v, want %s", seen, w)
	}
}
