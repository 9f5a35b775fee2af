package index_test

import (
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
)

// An event's crosstable read through games_event is the one a scan of
// the games gives, for parts of names in any case and script, parts that
// match several events, none, or nothing but spaces; invalid games and
// games with one player stay out as before.
func TestEventCrosstableByIndex(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	text := string(genText(t, "ogi", 400, 7))
	text += loneGame(text) +
		"\n[Event \"Brno Open 2016\"]\n[Sente \"Solo, A.\"]\n[Result \"1-0\"]\n\n1-0\n" +
		"\n[Event \"Brno Open 2016\"]\n[Sente \"Bad, B.\"]\n[Gote \"Worse, C.\"]\n[Result \"1-0\"]\n\n1. Zz9 1-0\n"
	file := writeFile(t, dir, "events.pgn", []byte(text))
	db := openDB(t, dir+"/db")
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	parts := []string{"sans JOUEURS", "Brno", "coruña", "CORUÑA", "名人戦", "Memorial", "o", "no such event", "  ", "2016"}
	for _, m := range regexp.MustCompile(`\[Event "([^"]+)"\]`).FindAllStringSubmatch(text, 5) {
		r := []rune(m[1])
		parts = append(parts, strings.ToUpper(m[1]), string(r[1:len(r)-1]))
	}
	some := 0
	for _, part := range parts {
		q := index.Query{Event: part}
		index.SetEventIndex(db, false)
		want, err := db.Crosstable(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		index.SetEventIndex(db, true)
		got, err := db.Crosstable(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if (len(got) > 0 || len(want) > 0) && !reflect.DeepEqual(got, want) {
			t.Errorf("event %q: by the index %d lines %+v, by a scan %d lines %+v", part, len(got), got, len(want), want)
		}
		if len(want) > 0 {
			some++
		}
		for _, c := range got {
			if c.Player == "Solo, A." || c.Player == "Bad, B." {
				t.Errorf("event %q: %s in the crosstable", part, c.Player)
			}
		}
		sameSearch(t, db, part)
		plan, err := index.CrosstablePlan(ctx, db, q)
		if err != nil {
			t.Fatal(err)
		}
		// Searched by event (a part that folds to nothing may scan the
		// covering index instead of the table: every event).
		uses := strings.Contains(strings.Join(plan, "\n"), "INDEX games_event (event=?")
		if len(want) > 0 && strings.TrimSpace(part) != "" && !uses {
			t.Errorf("event %q: plan %q does not use games_event", part, plan)
		}
		if len(want) > 0 && strings.TrimSpace(part) == "" && uses {
			t.Errorf("event %q: plan %q uses games_event for every event", part, plan)
		}
	}
	if some < len(parts)-3 {
		t.Errorf("only %d of the parts have a crosstable: the test's events are not the generator's", some)
	}
}

// loneGame is the first game of text, a generated Ōgi record, without
// its players and of an event of its own, "Coupe sans joueurs 2020".
func loneGame(text string) string {
	first := text[:strings.Index(text[1:], "[Game ")+1]
	var lone []string
	for _, l := range strings.Split(first, "\n") {
		switch {
		case strings.HasPrefix(l, "[Sente "), strings.HasPrefix(l, "[Gote "), strings.HasPrefix(l, "[SenteElo"), strings.HasPrefix(l, "[GoteElo"):
		case strings.HasPrefix(l, "[Event "):
			lone = append(lone, `[Event "Coupe sans joueurs 2020"]`)
		default:
			lone = append(lone, l)
		}
	}
	return "\n" + strings.Join(lone, "\n")
}

// sameSearch checks that a search of the event part (count and every
// hit, in order) and its most played openings are the same by the index
// as by a scan of the games.
func sameSearch(t *testing.T, db *index.DB, part string) {
	t.Helper()
	ctx := context.Background()
	var res [2]index.Result
	var played [2][]index.NamedTally
	for i, on := range []bool{false, true} {
		index.SetEventIndex(db, on)
		var err error
		if res[i], err = db.Search(ctx, index.Query{Event: part, Count: true, Limit: 1000}); err != nil {
			t.Fatal(err)
		}
		if played[i], err = db.PlayedOpenings(ctx, index.Query{Event: part}); err != nil {
			t.Fatal(err)
		}
	}
	if res[0].Total != res[1].Total || len(res[0].Hits) != len(res[1].Hits) {
		t.Fatalf("event %q: %d games (%d hits) by a scan, %d (%d) by the index", part, res[0].Total, len(res[0].Hits), res[1].Total, len(res[1].Hits))
	}
	for i := range res[0].Hits {
		if res[0].Hits[i].ID != res[1].Hits[i].ID {
			t.Fatalf("event %q: hit %d is game %d by a scan, %d by the index", part, i, res[0].Hits[i].ID, res[1].Hits[i].ID)
		}
	}
	if !reflect.DeepEqual(played[0], played[1]) {
		t.Errorf("event %q: openings played %+v by a scan, %+v by the index", part, played[0], played[1])
	}
	if part == "sans JOUEURS" && res[1].Total != 1 {
		t.Errorf("the game without players: %d games, want 1", res[1].Total)
	}
}

// A layout-19 database gains games_event at its next writable open, and
// a read-only handle on it scans as before.
func TestEventIndexUpgrade(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	text := string(genText(t, "ogi", 120, 3))
	file := writeFile(t, dir, "events.pgn", []byte(text+loneGame(text)))
	dbDir := dir + "/db"
	db, err := index.Open(ctx, dbDir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	want, err := db.Crosstable(ctx, index.Query{Event: "brno"})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("no crosstable for brno: the test's event is not the generator's")
	}
	if err := index.DowngradeToLayout19(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 19: %v", err)
	}
	got, err := ro.Crosstable(ctx, index.Query{Event: "brno"})
	ro.Close()
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("layout 19, read-only: %+v, %v; want %+v", got, err, want)
	}

	db = openUpgraded(t, dbDir, 19)
	plan, err := index.CrosstablePlan(ctx, db, index.Query{Event: "brno"})
	if err != nil || !strings.Contains(strings.Join(plan, "\n"), "games_event") {
		t.Errorf("after the upgrade, plan %q, %v: games_event not used", plan, err)
	}
	got, err = db.Crosstable(ctx, index.Query{Event: "brno"})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("layout 20: %+v, %v; want %+v", got, err, want)
	}
	// The downgrade left event_names without the event of the game
	// without players: the upgrade adds it.
	sameSearch(t, db, "sans JOUEURS")
}
