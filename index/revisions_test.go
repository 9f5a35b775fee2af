package index_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// parseOne reads the one record of text.
func parseOne(t testing.TB, text string) *record.Game {
	t.Helper()
	g, err := record.NewReader(strings.NewReader(text), "t").Next()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// positionAt is the position after the first plies of a record's main
// line.
func positionAt(t testing.TB, game, text string, plies int) rules.Position {
	t.Helper()
	var moves []string
	for _, m := range parseOne(t, text).Moves[:plies] {
		moves = append(moves, m.Text)
	}
	pos, err := index.PositionAfter(game, strings.Join(moves, " "))
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// gamesAt lists the ids of the games where pos occurs.
func gamesAt(t testing.TB, db *index.DB, game string, pos rules.Position) []int64 {
	t.Helper()
	res, err := db.Search(context.Background(), index.Query{Game: game, Position: pos, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	return ids
}

// treeMoves is the moves of the opening tree at pos, with their games.
func treeMoves(t testing.TB, db *index.DB, game string, pos rules.Position) map[string]int {
	t.Helper()
	ms, err := db.Tree(context.Background(), game, pos)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, m := range ms {
		out[m.Move] = m.Games
	}
	return out
}

// withTag is a record text with a tag set, in canonical form.
func withTag(t testing.TB, text, name, value string) string {
	t.Helper()
	g := parseOne(t, text)
	g.SetTag(name, value)
	return string(record.Format(g))
}

// saveStep is one save of TestSaveRecord: the text saved (from the
// revision texts so far), the base, and what it must do.
type saveStep struct {
	name    string
	text    func(revs []string) string
	base    int
	err     error // errors.Is
	rev     int   // the revision after it
	changed bool
	valid   bool
	// found and gone: the revision whose last position the game must
	// now be found at, and the one whose last position it must not be
	// found at (0: not checked).
	found, gone int
}

// TestSaveRecord saves new revisions of a stored game (a different game,
// a conflict, an unchanged text, an illegal move, a syntax error, the
// first revision again) and checks after each save that position search
// and the opening tree see the new revision at once, that the history
// lists every revision with its text, and that the database is what a
// fresh import of its games makes.
func TestSaveRecord(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "db"))
	f := writeFile(t, dir, "g.pdn", genText(t, "ogi", 30, 31))
	if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	const id = 7
	rev, first, err := db.CurrentRevision(ctx, id)
	if err != nil || rev != 1 {
		t.Fatalf("current revision of an imported game: %d %v", rev, err)
	}
	other := records(string(genText(t, "ogi", 1, 77)))[0] // a game no one played
	texts := []string{"", string(first)}                  // by revision
	illegal := func(revs []string) string {
		g := parseOne(t, revs[2])
		g.Moves[20].Text = g.Moves[24].Text
		return string(record.Format(g))
	}
	syntax := func(revs []string) string {
		return strings.Replace(revs[2], "\n1. ", "\n1. ) ", 1)
	}
	steps := []saveStep{
		{name: "another game", text: func([]string) string { return withTag(t, other, "Event", "Revised") },
			base: 1, rev: 2, changed: true, valid: true, found: 2, gone: 1},
		{name: "conflict", text: func(r []string) string { return withTag(t, r[2], "Event", "Late") },
			base: 1, err: index.ErrConflict, rev: 2, found: 2, gone: 1},
		{name: "unchanged", text: func(r []string) string { return r[2] }, base: 2, rev: 2, valid: true, found: 2},
		{name: "two records", text: func(r []string) string { return r[2] + "\n" + r[1] }, base: 2, err: index.ErrNotOneRecord, rev: 2},
		{name: "no record", text: func([]string) string { return "  \n" }, base: 2, err: index.ErrNotOneRecord, rev: 2},
		{name: "illegal move", text: illegal, base: 2, rev: 3, changed: true, gone: 2},
		{name: "syntax error", text: syntax, base: 3, rev: 4, changed: true, gone: 2},
		{name: "first again", text: func(r []string) string { return r[1] }, base: 4, rev: 5, changed: true, valid: true, found: 1, gone: 2},
	}
	for _, st := range steps {
		text := st.text(texts)
		res, err := db.SaveRecord(ctx, id, []byte(text), st.base)
		if !errors.Is(err, st.err) || (st.err == nil) != (err == nil) {
			t.Fatalf("%s: error %v, want %v", st.name, err, st.err)
		}
		var ce *index.ConflictError
		if errors.Is(st.err, index.ErrConflict) && (!errors.As(err, &ce) || ce.Current != 2 || ce.Base != 1) {
			t.Errorf("%s: %#v", st.name, err)
		}
		if err == nil && (res.Revision != st.rev || res.Changed != st.changed || res.Valid != st.valid || (res.Fault == nil) != st.valid) {
			t.Errorf("%s: %+v", st.name, res)
		}
		if res.Changed {
			texts = append(texts, canonicalOf(t, db, id, text))
		}
		checkRevision(t, db, st, texts)
		// Invalid games are not in the text index.
		ids, err := db.TextSearch(ctx, "event:revised", 10)
		if want := st.rev == 2; err != nil || (len(ids) == 1 && ids[0] == id) != want {
			t.Errorf("%s: a text search of the event saved finds %v (%v)", st.name, ids, err)
		}
	}
	checkHistory(t, db, id, texts)
	sameAsFresh(t, db)
	// The stored counts followed the saves (the import stored them).
	in, err := db.Info(ctx)
	var valid, invalid int
	db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FILTER (WHERE valid), COUNT(*) FILTER (WHERE NOT valid) FROM games`).Scan(&valid, &invalid)
	if err != nil || len(in.Games) != 1 || in.Games[0].Valid != valid || in.Games[0].Invalid != invalid {
		t.Errorf("counts %+v (%v); the games table: %d valid, %d invalid", in.Games, err, valid, invalid)
	}
	var stored string
	db.SQL().QueryRowContext(ctx, `SELECT v FROM meta WHERE k = 'counts'`).Scan(&stored)
	if !strings.Contains(stored, `"edits":4`) { // four saves changed the game
		t.Errorf("the stored counts were not moved with the saves: %s", stored)
	}
}

// canonicalOf is the text stored for game id by the save of text.
func canonicalOf(t testing.TB, db *index.DB, id int64, text string) string {
	t.Helper()
	_, stored, err := db.CurrentRevision(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return string(stored)
}

// checkRevision checks after a step that game 7 is at its revision and
// found at the last position of the revision found, not at the one of the
// revision gone, by position search and by the opening tree.
func checkRevision(t *testing.T, db *index.DB, st saveStep, texts []string) {
	t.Helper()
	ctx := context.Background()
	rev, text, err := db.CurrentRevision(ctx, 7)
	if err != nil || rev != st.rev || string(text) != texts[rev] {
		t.Fatalf("%s: at revision %d (%v), want %d", st.name, rev, err, st.rev)
	}
	for _, c := range []struct {
		rev  int
		want bool
	}{{st.found, true}, {st.gone, false}} {
		if c.rev == 0 {
			continue
		}
		// The position before the last move but one: a record may end
		// with an illegal move, which has no position after it.
		g := parseOne(t, texts[c.rev])
		pos := positionAt(t, "ogi", texts[c.rev], len(g.Moves)-2)
		ids := gamesAt(t, db, "ogi", pos)
		if has := len(ids) == 1 && ids[0] == 7; has != c.want || len(ids) > 1 {
			t.Errorf("%s: the last position of revision %d is in games %v", st.name, c.rev, ids)
		}
		last := g.Moves[len(g.Moves)-2].Text
		if n := treeMoves(t, db, "ogi", pos)[last]; (n == 1) != c.want {
			t.Errorf("%s: the tree at the last position of revision %d has %s in %d games", st.name, c.rev, last, n)
		}
	}
}

// checkHistory checks the history of game 7 against the texts saved.
func checkHistory(t *testing.T, db *index.DB, id int64, texts []string) {
	t.Helper()
	ctx := context.Background()
	h, err := db.History(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != len(texts)-1 {
		t.Fatalf("%d revisions, want %d: %+v", len(h), len(texts)-1, h)
	}
	valid := []bool{true, true, false, false, true}
	for i, r := range h {
		if r.N != i+1 || r.Size != len(texts[r.N]) || r.Valid != valid[i] || r.Current != (i == len(h)-1) ||
			r.Time.IsZero() != (i == 0) || r.Note == "" {
			t.Errorf("revision %d: %+v", i+1, r)
		}
		got, err := db.Revision(ctx, id, r.N)
		if err != nil || string(got) != texts[r.N] {
			t.Errorf("revision %d text: %v\n%s\nwant\n%s", r.N, err, got, texts[r.N])
		}
	}
	if !strings.HasPrefix(h[0].Note, "imported from ") || !strings.Contains(h[1].Note, "moves from ply") ||
		!strings.Contains(h[4].Note, "Event") {
		t.Errorf("notes: %q %q %q", h[0].Note, h[1].Note, h[4].Note)
	}
	if _, err := db.Revision(ctx, id, 6); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("revision 6: %v", err)
	}
	if _, err := db.History(ctx, 9999); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("history of no game: %v", err)
	}
	if _, err := db.SaveRecord(ctx, 9999, []byte(texts[1]), 1); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("save of no game: %v", err)
	}
}

// TestUpgrade7: a layout-7 database (no revisions, no gone occurrences)
// is read as it is by a read-only handle (every game at its revision 1)
// and upgraded by a writable open, with a notice; a save then keeps both
// revisions.
func TestUpgrade7(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db, err := index.Open(ctx, dbDir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := writeFile(t, dir, "a.pdn", genText(t, "draughts", 20, 5))
	if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	// Checkers games of a layout-7 database were stored White first: the
	// upgrade names them.
	ck := writeFile(t, dir, "b.pdn", genText(t, "checkers", 3, 5))
	if _, err := importFiles(ctx, db, []string{ck}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := index.DowngradeToLayout7(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 7: %v", err)
	}
	h, err := ro.History(ctx, 3)
	if err != nil || len(h) != 1 || h[0].N != 1 || !h[0].Current || !strings.Contains(h[0].Note, "a.pdn") {
		t.Errorf("layout 7 read-only: history %+v %v", h, err)
	}
	rev, text, err := ro.CurrentRevision(ctx, 3)
	if err != nil || rev != 1 || len(text) == 0 {
		t.Errorf("layout 7 read-only: revision %d, %d bytes, %v", rev, len(text), err)
	}
	if _, err := ro.SaveRecord(ctx, 3, text, 1); !errors.Is(err, index.ErrReadOnly) {
		t.Errorf("a save on a read-only handle: %v", err)
	}
	ro.Close()

	db = openUpgraded(t, dbDir, 7, "3 checkers, pool or thai games")
	res, err := db.SaveRecord(ctx, 3, []byte(withTag(t, string(text), "Round", "9")), 1)
	if err != nil || res.Revision != 2 || !res.Valid || res.Note != "tags Round" {
		t.Fatalf("save after the upgrade: %+v %v", res, err)
	}
	h, err = db.History(ctx, 3)
	if err != nil || len(h) != 2 {
		t.Fatalf("history after a save: %+v %v", h, err)
	}
	if old, err := db.Revision(ctx, 3, 1); err != nil || string(old) != string(text) {
		t.Errorf("revision 1 after the save: %v\n%s", err, old)
	}
}

// TestAddRecords: records added as text are new games, valid or invalid
// (an unreadable one kept as written), a record already stored is named,
// each has its revision 1, and searches find them at once.
func TestAddRecords(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "db"))
	f := writeFile(t, dir, "a.pdn", genText(t, "draughts", 10, 5))
	if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	stored := records(string(genText(t, "draughts", 10, 5)))
	fresh := records(string(genText(t, "draughts", 2, 6)))
	broken := strings.Replace(fresh[1], "\n1. ", "\n1. ) ", 1)
	text := fresh[0] + "\n" + stored[3] + "\n" + broken
	source := index.AddSource(time.Date(2026, 11, 29, 10, 15, 3, 0, time.UTC), "-")
	if source != "add:2026-11-29T10:15:03Z" {
		t.Errorf("source %q", source)
	}
	added, err := db.AddRecords(ctx, []byte(text), source, replay.Options{DefaultGame: "draughts", Detect: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 3 || added[0].ID != 11 || !added[0].Valid || added[0].Dup ||
		!added[1].Dup || added[1].ID != 4 || added[2].ID != 12 || added[2].Valid || added[2].Fault == nil || added[2].Line < 2 {
		t.Fatalf("added %+v", added)
	}
	got, err := db.Revision(ctx, 12, 1)
	if err != nil || string(got) != strings.TrimRight(broken, "\n")+"\n" {
		t.Errorf("the unreadable record's text: %v\n%q\nwant\n%q", err, got, broken)
	}
	h, err := db.History(ctx, 11)
	if err != nil || len(h) != 1 || h[0].Time.IsZero() || h[0].Note != "added" {
		t.Errorf("history of an added game: %+v %v", h, err)
	}
	pos := positionAt(t, "draughts", fresh[0], len(parseOne(t, fresh[0]).Moves)-2)
	if ids := gamesAt(t, db, "draughts", pos); len(ids) != 1 || ids[0] != 11 {
		t.Errorf("a position of the added game is in games %v", ids)
	}
	if _, err := db.AddRecords(ctx, []byte("\n"), source, replay.Options{}); !errors.Is(err, index.ErrNotOneRecord) {
		t.Errorf("adding no record: %v", err)
	}
	sameAsFresh(t, db)
	// A deleted game's revisions go with it.
	if _, err := db.Delete(ctx, []int64{11}, nil); err != nil {
		t.Fatal(err)
	}
	var rows int
	db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM revisions WHERE game = 11`).Scan(&rows)
	if _, err := db.History(ctx, 11); !errors.Is(err, index.ErrNotFound) || rows != 0 {
		t.Errorf("history of a deleted game: %v, %d revision rows left", err, rows)
	}
}

// TestSaveRoundTrip: a record with comments, NAGs, variations and tags
// saved over a stored game reads back with the same tags, comments, NAGs
// and variations, and saving what it reads back changes nothing.
func TestSaveRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "db"))
	if _, err := importFiles(ctx, db, []string{"../samples/ogi/osaka-club.pdn"}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	rev, text, err := db.CurrentRevision(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	g := parseOne(t, string(text))
	g.SetTag("Annotator", "Zéphyrin")
	g.SetTag("Round", "11b")
	g.Intro = append(g.Intro, "Annotated for the round trip.")
	g.Moves[4].NAGs = append(g.Moves[4].NAGs, 1, 14)
	g.Moves[9].NAGs = append(g.Moves[9].NAGs, 6)
	g.Moves[9].After = append(g.Moves[9].After, "A dubious move {nested} 9…")
	annotated := record.Format(g)
	if shape(t, string(annotated)) == shape(t, string(text)) || !strings.Contains(shape(t, string(text)), "variations 3") {
		t.Fatalf("the annotations changed nothing, or the sample lost its variations:\n%s", shape(t, string(text)))
	}
	res, err := db.SaveRecord(ctx, 1, annotated, rev)
	if err != nil || !res.Valid || !res.Changed {
		t.Fatalf("save: %+v %v", res, err)
	}
	back, err := db.Text(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := shape(t, string(back)), shape(t, string(annotated)); got != want {
		t.Errorf("read back:\n%s\nsaved:\n%s", got, want)
	}
	again, err := db.SaveRecord(ctx, 1, back, res.Revision)
	if err != nil || again.Changed || again.Revision != res.Revision {
		t.Errorf("saving what was read back: %+v %v", again, err)
	}
}

// shape is what a record holds, written out: its tags, sorted, and every
// comment, NAG and variation of its move tree with the move it follows.
func shape(t testing.TB, text string) string {
	g := parseOne(t, text)
	var tags []string
	for _, tg := range g.Tags {
		tags = append(tags, tg.Name+"="+tg.Value)
	}
	slices.Sort(tags)
	var b strings.Builder
	fmt.Fprintf(&b, "tags %q\nintro %q\n", tags, g.Intro)
	vars := 0
	var walk func(l record.Line, depth int)
	walk = func(l record.Line, depth int) {
		for _, m := range l {
			fmt.Fprintf(&b, "%d %s %q %v %q\n", depth, m.Text, m.Before, m.NAGs, m.After)
			for _, v := range m.Variations {
				vars++
				walk(v, depth+1)
			}
		}
	}
	walk(g.Moves, 0)
	fmt.Fprintf(&b, "variations %d result %s\n", vars, g.Result)
	return b.String()
}

// TestSavedSurvivesReimport: a game saved in the database is neither
// superseded nor removed when its file is imported again (--force,
// --replace), and its imported record is not stored again beside it; a
// new record at its place in a changed file is stored as a game of its
// own.
func TestSavedSurvivesReimport(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "db"))
	data := genText(t, "draughts", 12, 8)
	f := writeFile(t, dir, "a.pdn", data)
	if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	_, text, err := db.CurrentRevision(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	saved := withTag(t, string(text), "Event", "Corrected")
	if _, err := db.SaveRecord(ctx, 5, []byte(saved), 1); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		var n int
		db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&n)
		return n
	}
	for _, o := range []ingest.Options{{Force: true}, {Force: true, ImportOptions: index.ImportOptions{Replace: true}}} {
		if _, err := ingest.Files(ctx, db, []string{f}, o); err != nil {
			t.Fatal(err)
		}
		if rev, now, err := db.CurrentRevision(ctx, 5); err != nil || rev != 2 || string(now) != saved || count() != 12 {
			t.Errorf("re-import %+v: game 5 at revision %d (%v), %d games", o, rev, err, count())
		}
	}
	recs := records(string(data))
	recs[4] = withTag(t, recs[4], "Event", "Changed in the file")
	writeFile(t, dir, "a.pdn", []byte(strings.Join(recs, "\n")))
	if _, err := ingest.Files(ctx, db, []string{f}, ingest.Options{ImportOptions: index.ImportOptions{Replace: true}}); err != nil {
		t.Fatal(err)
	}
	if rev, now, err := db.CurrentRevision(ctx, 5); err != nil || rev != 2 || string(now) != saved || count() != 13 {
		t.Errorf("import of the changed file: game 5 at revision %d (%v), %d games", rev, err, count())
	}
}
