package criteria

import (
	"database/sql"
	"reflect"
	"slices"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

// TestDigitSpans: a band is cut where the number of digits changes.
func TestDigitSpans(t *testing.T) {
	for _, tc := range []struct {
		lo, hi int
		want   [][2]string
	}{
		{1500, 2000, [][2]string{{"1500", "2000"}}},
		{0, 1200, [][2]string{{"0", "9"}, {"10", "99"}, {"100", "999"}, {"1000", "1200"}}},
		{950, 99999, [][2]string{{"950", "999"}, {"1000", "9999"}, {"10000", "99999"}}},
		{10, 10, [][2]string{{"10", "10"}}},
		{9, 10, [][2]string{{"9", "9"}, {"10", "10"}}},
		{20, 10, nil},
	} {
		if got := digitSpans(tc.lo, tc.hi); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%d–%d: %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// TestEloGroups: rulesets are grouped by their sides' rating tags; Black
// is side 1 in the dames family and side 0 in Jetan.
func TestEloGroups(t *testing.T) {
	groups := eloGroups("")
	find := func(game string) eloGroup {
		for _, g := range groups {
			if slices.Contains(g.games, game) {
				return g
			}
		}
		t.Fatalf("no group holds %s", game)
		return eloGroup{}
	}
	for game, tags := range map[string][2]string{
		"ogi": {"SenteElo", "GoteElo"}, "draughts": {"WhiteElo", "BlackElo"}, "jetan": {"BlackElo", "OrangeElo"},
	} {
		if g := find(game); g.tags != tags {
			t.Errorf("%s: %v, want %v", game, g.tags, tags)
		}
	}
	if find("draughts").games[0] != find("dames").games[0] {
		t.Error("draughts and dames in two groups")
	}
	if g := eloGroups("ogi"); len(g) != 1 || !reflect.DeepEqual(g[0].games, []string{"ogi"}) {
		t.Errorf("ogi alone: %v", g)
	}
}

// TestEloSQL runs the band's condition over games and their rating tags:
// both sides in the band, each ruleset's own tags, whole numbers only.
func TestEloSQL(t *testing.T) {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		`CREATE TABLE games(id INTEGER PRIMARY KEY, game TEXT)`,
		`CREATE TABLE tag_names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)`,
		`CREATE TABLE tags(tag INTEGER NOT NULL, value TEXT NOT NULL, game INTEGER NOT NULL, PRIMARY KEY(tag, value, game)) WITHOUT ROWID`,
		`INSERT INTO tag_names VALUES (1, 'WhiteElo'), (2, 'BlackElo'), (3, 'SenteElo'), (4, 'GoteElo'), (5, 'OrangeElo')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	// id, ruleset, then (tag, value) pairs.
	for _, g := range [][]any{
		{1, "draughts", 1, "1600", 2, "1700"},  // both in 1500–2000
		{2, "draughts", 1, "1600", 2, "2100"},  // Black above
		{3, "draughts", 1, "1600"},             // Black unrated
		{4, "jetan", 2, "1600", 5, "1900"},     // Jetan's Black is side 0
		{5, "jetan", 1, "1600", 2, "1700"},     // not Jetan's tags: unrated
		{6, "ogi", 3, "980", 4, "1999"},        // 980 under the floor
		{7, "ogi", 3, "1500", 4, "2000"},       // the bounds
		{8, "draughts", 1, "01600", 2, "1700"}, // not written as a number
		{9, "ogi", 3, "15000", 4, "1600"},      // five digits
	} {
		if _, err := db.Exec(`INSERT INTO games VALUES (?, ?)`, g[0], g[1]); err != nil {
			t.Fatal(err)
		}
		for i := 2; i < len(g); i += 2 {
			if _, err := db.Exec(`INSERT INTO tags VALUES (?, ?, ?)`, g[i], g[i+1], g[0]); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		q    Query
		want []int64
	}{
		{Query{MinElo: 1500, MaxElo: 2000}, []int64{1, 4, 7}},
		{Query{Game: "draughts", MinElo: 1500, MaxElo: 2000}, []int64{1}},
		{Query{MinElo: 1600}, []int64{1, 2, 4, 9}},
		{Query{MaxElo: 1999}, []int64{1, 4, 6}},
		{Query{MinElo: 10000}, nil},
		{Query{Game: "ogi", MinElo: 1600, MaxElo: 15000}, []int64{9}},
		{Query{Game: "ogi", MinElo: 1600, MaxElo: 14999}, nil},
		{Query{Game: "ogi", MinElo: 1500, MaxElo: 15000}, []int64{7, 9}},
	} {
		var w Where
		w.elo(&tc.q)
		rows, err := db.Query(`SELECT g.id FROM games g WHERE `+w.String()+` ORDER BY g.id`, w.Args()...)
		if err != nil {
			t.Fatalf("%+v: %v", tc.q, err)
		}
		var got []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			got = append(got, id)
		}
		rows.Close()
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: %v, want %v (%s)", tc.q, got, tc.want, strings.Join(strings.Fields(w.String()), " "))
		}
	}
}

// TestFrom: the conditions from one on keep their arguments.
func TestFrom(t *testing.T) {
	var w Where
	w.Add("a = ?", 1)
	w.Add("b IN (?, ?)", 2, 3)
	w.Add("c")
	for _, tc := range []struct {
		i    int
		cond string
		args []any
	}{
		{0, "a = ? AND b IN (?, ?) AND c", []any{1, 2, 3}},
		{1, "b IN (?, ?) AND c", []any{2, 3}},
		{2, "c", []any{}},
		{3, "1", nil},
	} {
		cond, args := w.From(tc.i)
		if cond != tc.cond || len(args) != len(tc.args) || len(args) > 0 && !reflect.DeepEqual(args, tc.args) {
			t.Errorf("from %d: %q %v, want %q %v", tc.i, cond, args, tc.cond, tc.args)
		}
	}
}
