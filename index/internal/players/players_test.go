package players

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/plateau/plateau/index/internal/store"
)

// open returns a database of the tables players are read from, with the
// players of folded (ids from 1), without the name index.
func open(t *testing.T, folded ...string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{
		`CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, folded TEXT NOT NULL)`,
		`CREATE TABLE games(id INTEGER PRIMARY KEY, valid INTEGER NOT NULL, p0 INTEGER, p1 INTEGER, result TEXT)`,
		`CREATE INDEX games_p0 ON games(p0)`,
		`CREATE INDEX games_p1 ON games(p1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	addPlayers(t, db, folded...)
	return db
}

func addPlayers(t *testing.T, db *sql.DB, folded ...string) {
	t.Helper()
	for _, f := range folded {
		if _, err := db.Exec(`INSERT INTO players(name, folded) VALUES((SELECT COUNT(*) FROM players) || ' ' || ?1, ?1)`, f); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMatch: every word of the query is a prefix of a word of the name
// or within its edit distance (1; 2 from 8 letters; none under 4), and
// players added later are found.
func TestMatch(t *testing.T) {
	ctx := context.Background()
	db := open(t, "sokolov ivan", "ivanov petr", "nguyen van", "schmidt hans", "schmitt anna", "kowalczykowski jan")
	var n Names
	for _, c := range []struct {
		query   string
		players []int64
	}{
		{"ivan", []int64{1, 2, 3}}, // "van" within distance 1
		{"sokolov ivan", []int64{1}},
		{"ivan sokolov", []int64{1}},
		{"schmidt", []int64{4, 5}},
		{"nguyn", []int64{3}},
		{"iva", []int64{1, 2}},
		{"ivn", nil}, // three letters: prefixes only
		{"kowalczykowsky", []int64{6}},
		{"kovalczykowsky", []int64{6}}, // two edits, 14 letters
		{"kovalcikowski", nil},         // three edits
		{"xyz", nil},
		{"", nil},
	} {
		m, err := n.Match(ctx, db, c.query)
		if err != nil || !slices.Equal(m.Players, c.players) {
			t.Errorf("%q: %v, %v; want %v", c.query, m.Players, err, c.players)
		}
	}
	m, err := n.Match(ctx, db, "ivan")
	if err != nil || !reflect.DeepEqual(m.words, [][]string{{"ivan", "ivanov", "van"}}) || !slices.Equal(m.covered, []int{3}) {
		t.Fatalf("ivan: words %q covering %v (%v)", m.words, m.covered, err)
	}
	addPlayers(t, db, "ivanova olga")
	if m, err := n.Match(ctx, db, "ivan"); err != nil || !slices.Equal(m.Players, []int64{1, 2, 3, 7}) {
		t.Fatalf("after a player was added: %v, %v", m.Players, err)
	}
}

func TestHow(t *testing.T) {
	defer SetMaxArms(3)()
	for _, c := range []struct {
		name          string
		players       int
		words         []string
		scan          bool
		limit, offset int
		want          Read
	}{
		{"no player", 0, nil, false, 20, 0, ByID},
		{"no limit", 1, nil, false, -1, 0, ByID},
		{"a deep page", 1, nil, false, 20, 9990, ByID},
		{"the deepest page by arms", 1, nil, false, 20, 9980, ByArms},
		{"a player", 1, nil, false, 20, 0, ByArms},
		{"the indexes out, no words", 1, nil, true, 20, 0, Scan},
		{"as many players as arms", 3, nil, false, 20, 0, ByArms},
		{"more players than arms", 4, nil, false, 20, 0, Scan},
		{"more players than arms, few words", 4, []string{"a", "b"}, false, 20, 0, ByArms},
		{"more players and words than arms", 4, []string{"a", "b", "c", "d"}, false, 20, 0, Scan},
	} {
		if got := How(c.players, c.words, c.scan, c.limit, c.offset); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// TestReadPage: pages read by player and side and by name word are those
// of a plain query, for one player and several, with and without other
// conditions, at every depth, for arms read one at a time and many.
func TestReadPage(t *testing.T) {
	ctx := context.Background()
	var names []string
	for i := range 40 {
		names = append(names, fmt.Sprintf("w%d x%d", i%7, i%3))
	}
	db := open(t, names...)
	rng := rand.New(rand.NewPCG(3, 4))
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for range 3000 {
		p0, p1 := any(1+rng.IntN(40)), any(1+rng.IntN(40))
		if rng.IntN(20) == 0 {
			p1 = nil
		}
		if _, err := tx.Exec(`INSERT INTO games(valid, p0, p1, result) VALUES(?, ?, ?, ?)`,
			rng.IntN(10) > 0, p0, p1, []string{"1-0", "0-1", "1/2-1/2"}[rng.IntN(3)]); err != nil {
			t.Fatal(err)
		}
	}
	if err := BuildNameIndex(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var n Names
	for _, query := range []string{"w3 x1", "w3", "x2", "w"} {
		m, err := n.Match(ctx, db, query)
		if err != nil || len(m.Players) == 0 {
			t.Fatalf("%q: %v, %v", query, m.Players, err)
		}
		for _, cond := range []struct {
			sql  string
			args []any
		}{{"g.valid = ?", []any{true}}, {"g.valid = ? AND g.result = ?", []any{true, "1-0"}}} {
			for _, words := range [][]string{nil, m.PageWords(false)} {
				checkPages(t, db, Page{Players: m.Players, Words: words}, cond.sql, cond.args)
			}
		}
		// Invalid games are read by player.
		checkPages(t, db, Page{Players: m.Players}, "g.valid = ?", []any{false})
	}
}

// checkPages compares ReadPage with a plain query, page after page.
func checkPages(t *testing.T, db *sql.DB, p Page, cond string, args []any) {
	t.Helper()
	ctx := context.Background()
	var want []int64
	rows, err := db.Query(`SELECT id FROM games g WHERE (p0 IN (SELECT value FROM json_each(?1)) OR p1 IN (SELECT value FROM json_each(?1)))
		AND `+cond+` ORDER BY id`, append([]any{store.JSONIDs(p.Players)}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		want = append(want, id)
	}
	rows.Close()
	if len(want) < 30 {
		t.Fatalf("%+v %s: %d games, too few to page", p, cond, len(want))
	}
	for _, limit := range []int{1, 7, 100, len(want) + 5} {
		for offset := 0; offset <= len(want); offset += max(limit, len(want)/5) {
			got, err := ReadPage(ctx, db, p, cond, args, limit, offset)
			w := want[min(offset, len(want)):min(offset+limit, len(want))]
			if err != nil || !slices.Equal(got, w) && len(got)+len(w) > 0 {
				t.Fatalf("%d players, words %q, %s %v, %d from %d: %v, %v; want %v", len(p.Players), p.Words, cond, args, limit, offset, got, err, w)
			}
		}
	}
}

// TestBuildNameIndex: every valid game is listed under each word of each
// of its players' names, and nothing else.
func TestBuildNameIndex(t *testing.T) {
	ctx := context.Background()
	db := open(t, "ivan sokolov", "ivan petrov", "anna")
	for _, q := range []string{
		`INSERT INTO games(id, valid, p0, p1) VALUES(1, 1, 1, 2), (2, 0, 1, 3), (3, 1, 3, NULL), (4, 1, 2, 2)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := BuildNameIndex(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT w.word, n.game, n.player FROM name_games n JOIN name_words w ON w.id = n.word ORDER BY n.word, n.game, n.player`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var w string
		var g, p int64
		rows.Scan(&w, &g, &p)
		got = append(got, fmt.Sprintf("%s %d %d", w, g, p))
	}
	want := []string{"ivan 1 1", "ivan 1 2", "ivan 4 2", "sokolov 1 1", "petrov 1 2", "petrov 4 2", "anna 3 3"}
	if !slices.Equal(got, want) {
		t.Fatalf("entries %q, want %q", got, want)
	}
	if _, err := db.Exec(`SELECT 1 FROM temp.player_words`); err == nil {
		t.Error("the temporary table is left")
	}
}

// fakeRows are a crosstable's rows: players (by name here, scanned as
// ids given on first sight, in descending order so that no order of
// the ids agrees with the names'), result and ruleset.
type fakeRows struct {
	rows [][4]string
	i    int
	ids  map[string]int64
}

func (r *fakeRows) Next() bool { r.i++; return r.i <= len(r.rows) }
func (r *fakeRows) Err() error { return nil }
func (r *fakeRows) Scan(dest ...any) error {
	for k, v := range r.rows[r.i-1] {
		switch d := dest[k].(type) {
		case *int64:
			if r.ids == nil {
				r.ids = map[string]int64{}
			}
			if _, ok := r.ids[v]; !ok {
				r.ids[v] = int64(1000 - len(r.ids))
			}
			*d = r.ids[v]
		default:
			*dest[k].(*sql.NullString) = sql.NullString{String: v, Valid: true}
		}
	}
	return nil
}

// names are the names of ids.
func (r *fakeRows) names(ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	for n, id := range r.ids {
		if slices.Contains(ids, id) {
			out[id] = n
		}
	}
	return out, nil
}

// TestCrosstable: each game scores its Result for both players, against
// each other; unscored games are left out; lines by score, then name.
func TestCrosstable(t *testing.T) {
	rows := &fakeRows{rows: [][4]string{
		{"Bo", "Al", "1-0"}, {"Al", "Bo", "1/2-1/2"}, {"Cy", "Al", "0-1"},
		{"Cy", "Bo", "*"}, {"Bo", "Cy", "3-0"}, {"Di", "Cy", "1-1"},
	}}
	got, err := Crosstable(rows, rows.names, 0, nil)
	want := []Cross{
		{Player: "Bo", Games: 3, Score: 4.5, Norm: 2.5, Against: []float64{0, 1.5, 3, 0}, NormAgainst: []float64{0, 1.5, 1, 0}, Met: []int{0, 2, 1, 0}},
		{Player: "Al", Games: 3, Score: 1.5, Norm: 1.5, Against: []float64{0.5, 0, 1, 0}, NormAgainst: []float64{0.5, 0, 1, 0}, Met: []int{2, 0, 1, 0}},
		{Player: "Cy", Games: 3, Score: 1, Norm: 0.5, Against: []float64{0, 0, 0, 1}, NormAgainst: []float64{0, 0, 0, 0.5}, Met: []int{1, 1, 0, 1}},
		{Player: "Di", Games: 1, Score: 1, Norm: 0.5, Against: []float64{0, 0, 1, 0}, NormAgainst: []float64{0, 0, 0.5, 0}, Met: []int{0, 0, 1, 0}},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Crosstable:\n%+v, %v\nwant\n%+v", got, err, want)
	}
	var many fakeRows
	for range 9000 {
		many.rows = append(many.rows, [4]string{"Al", "Bo", "1-0"})
	}
	var calls [][2]int
	if _, err := Crosstable(&many, many.names, 5000, func(done, total int) { calls = append(calls, [2]int{done, total}) }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(calls, [][2]int{{4096, 5000}, {8192, 8192}}) {
		t.Errorf("progress %v", calls)
	}
}

// TestCrosstableScale: a player of 2-0 draughts results does not rank
// above one who won more games written 1-0; Dejarik keeps its points.
func TestCrosstableScale(t *testing.T) {
	rows := &fakeRows{rows: [][4]string{
		{"Dr", "X", "2-0", "draughts"}, {"Dr", "Y", "1-1", "draughts"}, {"Dr", "Z", "0-2", "draughts"},
		{"Ch", "X", "1-0", "ogi"}, {"Ch", "Y", "1-0", "ogi"}, {"Ch", "Z", "1/2-1/2", "ogi"},
		{"Dj", "X", "3-0", "dejarik"}, {"Dj", "Y", "0-0", "dejarik"},
	}}
	got, err := Crosstable(rows, rows.names, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	norm := map[string][2]float64{}
	var order []string
	for _, c := range got {
		norm[c.Player] = [2]float64{c.Norm, c.Score}
		order = append(order, c.Player)
	}
	want := map[string][2]float64{"Dr": {1.5, 3}, "Ch": {2.5, 2.5}, "Dj": {3, 3}}
	for p, w := range want {
		if norm[p] != w {
			t.Errorf("%s: norm, points %v, want %v", p, norm[p], w)
		}
	}
	if !slices.Equal(order[:3], []string{"Dj", "Ch", "Dr"}) {
		t.Errorf("ranked %v, want Dj (3 Dejarik points), Ch (2.5), Dr (1.5 from 3 points)", order)
	}
}

func TestShare(t *testing.T) {
	for _, c := range []struct {
		game, result string
		s0, s1       float64
		ok           bool
	}{
		{"ogi", "1-0", 1, 0, true}, {"draughts", "2-0", 1, 0, true}, {"draughts", "1-1", 0.5, 0.5, true},
		{"dames", "0-2", 0, 1, true}, {"jetan", "1/2-1/2", 0.5, 0.5, true}, {"dejarik", "0-2", 0, 2, true},
		{"dejarik", "0-0", 0, 0, true}, {"sauts", "0-0", 0, 0, true}, {"ogi", "*", 0, 0, false},
	} {
		s0, s1, ok := Share(c.game, c.result)
		if s0 != c.s0 || s1 != c.s1 || ok != c.ok {
			t.Errorf("Share(%q, %q) = %v, %v, %v, want %v, %v, %v", c.game, c.result, s0, s1, ok, c.s0, c.s1, c.ok)
		}
	}
}

// TestCrosstablePage: a page of the table holds its players' lines, in
// rank order, with the cells of the page's players only.
func TestCrosstablePage(t *testing.T) {
	rows := &fakeRows{rows: [][4]string{
		{"Bo", "Al", "1-0"}, {"Al", "Bo", "1/2-1/2"}, {"Cy", "Al", "0-1"},
		{"Cy", "Bo", "*"}, {"Bo", "Cy", "3-0"}, {"Di", "Cy", "1-1"},
	}}
	got, n, err := CrosstablePage(rows, rows.names, 0, nil, 1, 2)
	want := []Cross{
		{Player: "Al", Games: 3, Score: 1.5, Norm: 1.5, Against: []float64{0, 1}, NormAgainst: []float64{0, 1}, Met: []int{0, 1}},
		{Player: "Cy", Games: 3, Score: 1, Norm: 0.5, Against: []float64{0, 0}, NormAgainst: []float64{0, 0}, Met: []int{1, 0}},
	}
	if err != nil || n != 4 || !reflect.DeepEqual(got, want) {
		t.Fatalf("CrosstablePage: %d players\n%+v, %v\nwant 4\n%+v", n, got, err, want)
	}
}
