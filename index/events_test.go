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
	text := string(genText(t, "ogi", 400, 7)) +
		"\n[Event \"Brno Open 2016\"]\n[Sente \"Solo, A.\"]\n[Result \"1-0\"]\n\n1-0\n" +
		"\n[Event \"Brno Open 2016\"]\n[Sente \"Bad, B.\"]\n[Gote \"Worse, C.\"]\n[Result \"1-0\"]\n\n1. Zz9 1-0\n"
	file := writeFile(t, dir, "events.pgn", []byte(text))
	db := openDB(t, dir+"/db")
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	parts := []string{"Brno", "coruña", "CORUÑA", "名人戦", "Memorial", "o", "no such event", "  ", "2016"}
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
		if !reflect.DeepEqual(got, want) {
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
		plan, err := index.CrosstablePlan(ctx, db, q)
		if err != nil {
			t.Fatal(err)
		}
		uses := strings.Contains(strings.Join(plan, "\n"), "games_event")
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

// A layout-19 database gains games_event at its next writable open, and
// a read-only handle on it scans as before.
func TestEventIndexUpgrade(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := writeFile(t, dir, "events.pgn", genText(t, "ogi", 120, 3))
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

	var notices []string
	db, err = index.Open(ctx, dbDir, index.Options{Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if len(notices) != 1 || !strings.Contains(notices[0], "layout 19 to 20") {
		t.Errorf("notices %q", notices)
	}
	plan, err := index.CrosstablePlan(ctx, db, index.Query{Event: "brno"})
	if err != nil || !strings.Contains(strings.Join(plan, "\n"), "games_event") {
		t.Errorf("after the upgrade, plan %q, %v: games_event not used", plan, err)
	}
	got, err = db.Crosstable(ctx, index.Query{Event: "brno"})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("layout 20: %+v, %v; want %+v", got, err, want)
	}
}
