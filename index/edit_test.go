package index_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/record"
)

// snapshot is what a database holds, ids aside: the oracle of the edit
// tests compares an edited database with a fresh import of the games it
// keeps.
type snapshot struct {
	games, invalid int
	positions      map[int64]int     // stored key → rows
	tree           map[string]string // key move → n scored s0 s1
	treePlayers    map[string]int    // key move player-name → n
	tags           map[string]int    // name=value → games
	names          map[string]int    // name word, player name → games (name index)
	players        []string
	text           int // games in the text index
}

func snap(t *testing.T, db *index.DB) snapshot {
	t.Helper()
	ctx := context.Background()
	q := db.SQL()
	var ok string
	if err := q.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity: %s %v", ok, err)
	}
	// Every tree row's stored top players are the best of its
	// tree_players rows.
	if _, err := index.CheckTreeTops(ctx, db); err != nil {
		t.Fatal(err)
	}
	// The name index lists every valid game under its players' words.
	if err := index.CheckNameIndex(ctx, db); err != nil {
		t.Fatal(err)
	}
	s := snapshot{positions: map[int64]int{}, tree: map[string]string{}, treePlayers: map[string]int{}, tags: map[string]int{}, names: map[string]int{}}
	q.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE valid = 1`).Scan(&s.games)
	q.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE valid = 0`).Scan(&s.invalid)
	each := func(sql string, fn func(r interface{ Scan(...any) error }) error) {
		rows, err := q.QueryContext(ctx, sql)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := fn(rows); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Occurrences of deleted games stay in their runs until a merge; the
	// index's view of them (ScanPositions) holds the valid games' only.
	if err := db.ScanPositions(ctx, func(key, game int64, ply, vari int) error {
		s.positions[key]++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	each(`SELECT key, move, n, scored, s0, s1, w0, w1 FROM tree`, func(r interface{ Scan(...any) error }) error {
		var k int64
		var m string
		var n, sc, w0, w1 int
		var s0, s1 float64
		err := r.Scan(&k, &m, &n, &sc, &s0, &s1, &w0, &w1)
		s.tree[fmt.Sprint(k, m)] = fmt.Sprint(n, sc, s0, s1, w0, w1)
		return err
	})
	tp, err := index.TreePlayers(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	s.treePlayers = tp
	each(`SELECT n.name, t.value, COUNT(*) FROM tags t JOIN tag_names n ON n.id = t.tag GROUP BY 1, 2`, func(r interface{ Scan(...any) error }) error {
		var name, v string
		var n int
		err := r.Scan(&name, &v, &n)
		s.tags[name+"="+v] = n
		return err
	})
	each(`SELECT w.word, p.name, COUNT(*) FROM name_games n JOIN name_words w ON w.id = n.word JOIN players p ON p.id = n.player GROUP BY 1, 2`, func(r interface{ Scan(...any) error }) error {
		var w, p string
		var n int
		err := r.Scan(&w, &p, &n)
		s.names[w+" "+p] = n
		return err
	})
	each(`SELECT name FROM players ORDER BY name`, func(r interface{ Scan(...any) error }) error {
		var n string
		err := r.Scan(&n)
		s.players = append(s.players, n)
		return err
	})
	ids, err := db.TextSearch(ctx, "game:draughts game:dejarik game:dames game:jetan", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	s.text = len(ids)
	var gone int
	q.QueryRowContext(ctx, `SELECT COUNT(*) FROM json_each(?) WHERE value NOT IN (SELECT id FROM games WHERE valid = 1)`, idsJSON(ids)).Scan(&gone)
	if gone > 0 {
		t.Errorf("the text index holds %d games that are not stored valid", gone)
	}
	return s
}

func idsJSON(ids []int64) string {
	var b strings.Builder
	b.WriteString("[")
	for i, id := range ids {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprint(&b, id)
	}
	b.WriteString("]")
	return b.String()
}

// sameAsFresh checks db against a fresh import of its own games.
func sameAsFresh(t *testing.T, db *index.DB) snapshot {
	t.Helper()
	ctx := context.Background()
	samePlayerLines(t, db)
	got := snap(t, db)
	var recs []index.Record
	for _, invalid := range []bool{false, true} {
		err := db.Records(ctx, index.Query{Limit: -1, Invalid: invalid}, func(id int64, text []byte) error {
			g, err := record.NewReader(strings.NewReader(string(text)), "x").Next()
			recs = append(recs, index.Record{Game: g, Err: err, File: "x"})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	fresh := openDB(t, filepath.Join(t.TempDir(), "fresh"))
	i := 0
	if _, err := fresh.ImportRecords(ctx, func() (index.Record, error) {
		if i == len(recs) {
			return index.Record{}, errEOF
		}
		i++
		return recs[i-1], nil
	}, index.ImportOptions{DefaultGame: "draughts"}); err != nil {
		t.Fatal(err)
	}
	want := snap(t, fresh)
	if got.games != want.games || got.invalid != want.invalid || got.text != want.text {
		t.Errorf("games %d/%d invalid, text %d; a fresh import: %d/%d, text %d", got.games, got.invalid, got.text, want.games, want.invalid, want.text)
	}
	cmp := func(what string, a, b map[string]string) {
		for k, v := range b {
			if a[k] != v {
				t.Errorf("%s %s: %q, fresh %q", what, k, a[k], v)
			}
		}
		for k, v := range a {
			if _, ok := b[k]; !ok {
				t.Errorf("%s %s: %q, not in a fresh import", what, k, v)
			}
		}
	}
	str := func(m any) map[string]string {
		out := map[string]string{}
		switch m := m.(type) {
		case map[int64]int:
			for k, v := range m {
				out[fmt.Sprint(k)] = fmt.Sprint(v)
			}
		case map[string]int:
			for k, v := range m {
				out[k] = fmt.Sprint(v)
			}
		case map[string]string:
			return m
		}
		return out
	}
	cmp("positions", str(got.positions), str(want.positions))
	cmp("tree", got.tree, want.tree)
	cmp("tree players", str(got.treePlayers), str(want.treePlayers))
	cmp("tags", str(got.tags), str(want.tags))
	if strings.Join(got.players, "|") != strings.Join(want.players, "|") {
		t.Errorf("players differ: %d, fresh %d", len(got.players), len(want.players))
	}
	return got
}

var errEOF = io.EOF

// TestDelete: deleted games leave no trace in any query; the rest is what a
// fresh import of the remaining games makes.
func TestDelete(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d := writeFile(t, dir, "d.pdn", genText(t, "draughts", 120, 3))
	j := writeFile(t, dir, "j.pdn", genText(t, "dejarik", 60, 4))
	db := openDB(t, filepath.Join(dir, "db"))
	if _, err := importFiles(ctx, db, []string{d, j, "../samples/broken"}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	before := snap(t, db)
	// A game to follow: its player, final position and opening.
	res, err := db.Search(ctx, index.Query{Game: "draughts", Limit: 1})
	if err != nil || len(res.Hits) == 0 {
		t.Fatal(res, err)
	}
	victim := res.Hits[0]
	text, _ := db.Text(ctx, victim.ID)
	rec, _ := record.NewReader(strings.NewReader(string(text)), "v").Next()
	var moves []string
	for _, m := range rec.Moves {
		moves = append(moves, m.Text)
	}
	final, err := index.PositionAfter("draughts", strings.Join(moves, " "))
	if err != nil {
		t.Fatal(err)
	}
	has := func(q index.Query) bool {
		q.Limit = -1
		r, err := db.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range r.Hits {
			if h.ID == victim.ID {
				return true
			}
		}
		return false
	}
	queries := map[string]index.Query{
		"player":   {Player: victim.Players[0]},
		"position": {Game: "draughts", Position: final},
		"text":     {Text: "game:draughts"},
		"id":       {IDs: []int64{victim.ID}},
	}
	for name, q := range queries {
		if !has(q) {
			t.Fatalf("before the delete, the %s query misses game #%d", name, victim.ID)
		}
	}
	// Delete the victim, every third game and a few invalid ones.
	ids := []int64{victim.ID, 999999}
	for id := int64(2); id < 200; id += 3 {
		ids = append(ids, id)
	}
	n, err := db.Delete(ctx, ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(ids)-1 {
		t.Errorf("deleted %d, want %d (one id does not exist)", n, len(ids)-1)
	}
	for name, q := range queries {
		if has(q) {
			t.Errorf("after the delete, the %s query still finds game #%d", name, victim.ID)
		}
	}
	if _, err := db.Text(ctx, victim.ID); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("the deleted game's text: %v", err)
	}
	after := sameAsFresh(t, db)
	if after.games+after.invalid != before.games+before.invalid-n {
		t.Errorf("%d games after deleting %d of %d", after.games+after.invalid, n, before.games+before.invalid)
	}
	// Deleting everything leaves empty aggregates.
	var all []int64
	db.Records(ctx, index.Query{Limit: -1}, func(id int64, _ []byte) error { all = append(all, id); return nil })
	db.Records(ctx, index.Query{Limit: -1, Invalid: true}, func(id int64, _ []byte) error { all = append(all, id); return nil })
	if _, err := db.Delete(ctx, all, nil); err != nil {
		t.Fatal(err)
	}
	empty := snap(t, db)
	if empty.games+empty.invalid+len(empty.positions)+len(empty.tree)+len(empty.treePlayers)+len(empty.tags)+len(empty.players)+empty.text != 0 {
		t.Errorf("after deleting every game: %+v", empty)
	}
}

// records splits generated text into records.
func records(text string) []string {
	parts := strings.Split(text, "\n\n[Game ")
	for i := 1; i < len(parts); i++ {
		parts[i] = "[Game " + parts[i]
	}
	return parts
}

var firstMove = regexp.MustCompile(`\n1\. \d+-\d+`)

// TestReimportReplaces: a broken record fixed in its file replaces its
// stored copy on the next import; games that only moved in the file keep
// their ids; --replace removes what the file no longer holds.
func TestReimportReplaces(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	recs := records(string(genText(t, "draughts", 6, 5)))
	broken := append([]string{}, recs...)
	broken[2] = firstMove.ReplaceAllString(broken[2], "\n1. 46-51")
	broken[4] = firstMove.ReplaceAllString(broken[4], "\n1. 47-52")
	f := writeFile(t, dir, "club.pdn", []byte(strings.Join(broken, "\n\n")))
	db := openDB(t, filepath.Join(dir, "db"))
	st, err := importFiles(ctx, db, []string{f}, index.ImportOptions{})
	if err != nil || st.Valid != 4 || st.Invalid != 2 {
		t.Fatalf("first import: %+v %v", st, err)
	}
	idOf := func(i int) int64 {
		t.Helper()
		r, err := db.Search(ctx, index.Query{Player: strings.SplitN(strings.SplitN(recs[i], `[White "`, 2)[1], `"`, 2)[0], Limit: -1})
		if err != nil || len(r.Hits) == 0 {
			t.Fatalf("game %d not found: %v", i, err)
		}
		return r.Hits[0].ID
	}
	id5 := idOf(5)

	// Insert a new game before everything (which shifts every record's
	// offset and line): the games that moved keep their ids.
	extra := records(string(genText(t, "draughts", 1, 77)))[0]
	fixed := append([]string{extra}, broken...)
	writeFile(t, dir, "club.pdn", []byte(strings.Join(fixed, "\n\n")))
	st, err = importFiles(ctx, db, []string{f}, index.ImportOptions{})
	if err != nil || st.Stored != 1 || st.Duplicates != 6 || st.Replaced != 0 {
		t.Fatalf("second import: %+v %v (want the new game stored, 6 duplicates)", st, err)
	}
	if got := idOf(5); got != id5 {
		t.Errorf("an unchanged game that moved in the file changed id: %d → %d", id5, got)
	}
	es, total, _ := db.Errors(ctx, 0, 0)
	if total != 2 {
		t.Fatalf("%d errors, want 2", total)
	}
	// Their lines are those of the new file.
	lines := strings.Split(strings.Join(fixed, "\n\n"), "\n")
	for _, e := range es {
		if e.Line < 1 || e.Line > len(lines) || !strings.Contains(lines[e.Line-1], e.Move) {
			t.Errorf("error %+v: line %d of the file does not hold %q", e, e.Line, e.Move)
		}
	}
	sameAsFresh(t, db)

	// Fix record 2 with a longer record (same line, same offset).
	fixed[3] = strings.Replace(recs[2], "\n1. ", "\n{fixed} 1. ", 1)
	writeFile(t, dir, "club.pdn", []byte(strings.Join(fixed, "\n\n")))
	st, err = importFiles(ctx, db, []string{f}, index.ImportOptions{})
	if err != nil || st.Replaced != 1 || st.Stored != 1 {
		t.Fatalf("import of a fixed record: %+v %v", st, err)
	}
	es, total, err = db.Errors(ctx, 0, 0)
	if err != nil || total != 1 || !strings.Contains(es[0].Err, "52") {
		t.Fatalf("errors after fixing one of two: %d %+v %v", total, es, err)
	}
	sameAsFresh(t, db)

	// Fix record 4 in place (same offset and line): replaced.
	fixed[5] = recs[4]
	writeFile(t, dir, "club.pdn", []byte(strings.Join(fixed, "\n\n")))
	st, err = importFiles(ctx, db, []string{f}, index.ImportOptions{})
	if err != nil || st.Replaced != 1 || st.Stored != 1 {
		t.Fatalf("third import: %+v %v", st, err)
	}
	if _, total, _ := db.Errors(ctx, 0, 0); total != 0 {
		t.Errorf("%d errors left after fixing every record", total)
	}
	sameAsFresh(t, db)

	// Drop two games from the file: kept without --replace, removed with it.
	kept := append(append([]string{}, fixed[:1]...), fixed[3:]...)
	writeFile(t, dir, "club.pdn", []byte(strings.Join(kept, "\n\n")))
	if st, err = importFiles(ctx, db, []string{f}, index.ImportOptions{}); err != nil || st.Replaced != 0 {
		t.Fatalf("import without --replace: %+v %v", st, err)
	}
	if st, err = ingest.Files(ctx, db, []string{f}, ingest.Options{ImportOptions: index.ImportOptions{Replace: true}, Force: true}); err != nil || st.Replaced != 2 {
		t.Fatalf("import --replace: %+v %v", st, err)
	}
	s := sameAsFresh(t, db)
	if s.games != len(kept) || s.invalid != 0 {
		t.Errorf("after --replace: %d valid %d invalid, want %d", s.games, s.invalid, len(kept))
	}
}

// TestSetTags: a tag edit is seen by search (tag, event, player, text) and
// keeps every aggregate as a fresh import would make it.
func TestSetTags(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d := writeFile(t, dir, "d.pdn", genText(t, "draughts", 40, 8))
	db := openDB(t, filepath.Join(dir, "db"))
	if _, err := importFiles(ctx, db, []string{d}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	res, _ := db.Search(ctx, index.Query{Limit: 2})
	id, other := res.Hits[0].ID, res.Hits[1].ID
	valid, err := db.SetTags(ctx, id, []record.Tag{{Name: "event", Value: "Zürich Winter Cup"}, {Name: "white", Value: "Ünalqux, Zoë"},
		{Name: "Annotator", Value: "Quirinus"}, {Name: "Round", Value: ""}})
	if err != nil || !valid {
		t.Fatalf("SetTags: %v %v", valid, err)
	}
	text, _ := db.Text(ctx, id)
	if !strings.Contains(string(text), `[Event "Zürich Winter Cup"]`) || !strings.Contains(string(text), `[White "Ünalqux, Zoë"]`) ||
		strings.Contains(string(text), "[Round ") || strings.Contains(string(text), "[event ") {
		t.Errorf("edited record:\n%s", text)
	}
	for name, q := range map[string]index.Query{
		"event":     {Event: "Winter Cup"},
		"player":    {Player: "unalqux zoe"},
		"text":      {Text: "annotator:quirinus"},
		"tag":       {Tags: []record.Tag{{Name: "Annotator", Value: "Quirinus"}}},
		"side tag":  {Game: "draughts", Tags: []record.Tag{{Name: "White", Value: "Ünalqux, Zoë"}}},
		"text name": {Text: "players:unalqux"},
	} {
		r, err := db.Search(ctx, q)
		if err != nil || len(r.Hits) != 1 || r.Hits[0].ID != id {
			t.Errorf("%s search after the edit: %+v %v (want only #%d)", name, r.Hits, err, id)
		}
	}
	sameAsFresh(t, db)
	// Making it a copy of another game is refused, and changes nothing.
	before := snap(t, db)
	if _, err := db.SetTags(ctx, id, []record.Tag{{Name: "Game", Value: ""}}); err == nil {
		t.Error("removing the Game tag was accepted")
	}
	if _, err := db.SetTags(ctx, 999999, []record.Tag{{Name: "Event", Value: "x"}}); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("tag on a missing game: %v", err)
	}
	after := snap(t, db)
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Error("a refused edit changed the database")
	}
	// A bad start position makes the game invalid; removing it makes it
	// valid again. A new Result is written in the movetext too.
	if valid, err := db.SetTags(ctx, other, []record.Tag{{Name: "fen", Value: "W:W99:B1"}}); err != nil || valid {
		t.Errorf("a bad FEN: valid %v, %v", valid, err)
	}
	if es, _, _ := db.Errors(ctx, 0, 0); len(es) != 1 || es[0].ID != other || !strings.Contains(es[0].Err, "W:W99:B1") {
		t.Errorf("errors after a bad FEN: %+v", es)
	}
	sameAsFresh(t, db)
	res2 := "1-1"
	if res.Hits[1].Result == res2 {
		res2 = "0-2"
	}
	if valid, err := db.SetTags(ctx, other, []record.Tag{{Name: "FEN", Value: ""}, {Name: "RESULT", Value: res2}}); err != nil || !valid {
		t.Errorf("the FEN removed: valid %v, %v", valid, err)
	}
	if r, _ := db.Search(ctx, index.Query{IDs: []int64{other}}); len(r.Hits) != 1 || r.Hits[0].Result != res2 {
		t.Errorf("after setting the result %s: %+v", res2, r.Hits)
	}
	sameAsFresh(t, db)
	var ids []int64
	db.Records(ctx, index.Query{Limit: -1}, func(id int64, _ []byte) error { ids = append(ids, id); return nil })
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	if len(ids) != 40 || ids[0] != 1 || ids[39] != 40 {
		t.Errorf("ids after edits: %v (an edit keeps the id)", ids)
	}
}
