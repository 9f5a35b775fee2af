package browse_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

const editToken = "t0ken"

// editServer serves a database of the Ōgi samples, guarded, writing as o
// says.
type editServer struct {
	t  *testing.T
	h  http.Handler
	db *index.DB
}

func newEditServer(t *testing.T, o web.EditOptions) *editServer {
	ctx := context.Background()
	db, err := index.Open(ctx, t.TempDir(), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := ingest.Files(ctx, db, []string{filepath.Join("..", "..", "samples", "ogi", "osaka-club.pdn")}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	h := web.HandlerWith(browse.New(db, replay.Options{}), fstest.MapFS{"index.html": {Data: []byte("<html></html>")}}, o)
	return &editServer{t: t, h: web.Guard(h, web.GuardOptions{Addr: "example.com:80"}), db: db}
}

// do sends a request with headers (name, value pairs) and returns its
// status and body.
func (s *editServer) do(method, target string, body any, headers ...string) (int, []byte) {
	s.t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			s.t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, target, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

func (s *editServer) getJSON(target string, v any) {
	s.t.Helper()
	code, b := s.do("GET", target, nil)
	if code != http.StatusOK {
		s.t.Fatalf("GET %s: %d %s", target, code, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		s.t.Fatalf("GET %s: %v", target, err)
	}
}

// recordOf is the record the page sends for the game d shows.
func recordOf(d *web.Detail) *web.RecordJSON {
	r := &web.RecordJSON{Tags: d.Tags, Intro: d.Intro}
	if len(d.Nodes) > 0 {
		r.Moves = lineJSON(d, d.Nodes[0].Next)
	}
	return r
}

func lineJSON(d *web.Detail, first int) []web.MoveJSON {
	var out []web.MoveJSON
	for id := first; id >= 0; id = d.Nodes[id].Next {
		n := d.Nodes[id]
		m := web.MoveJSON{Move: n.Move, NAGs: n.NAGs, Before: n.Before, After: n.After}
		for _, v := range n.Vars {
			m.Vars = append(m.Vars, lineJSON(d, v))
		}
		out = append(out, m)
	}
	return out
}

// TestEditRefused: a write without the token, with another, from another
// origin or site, not JSON, or to a server not started to write is
// refused, and nothing is saved.
func TestEditRefused(t *testing.T) {
	s := newEditServer(t, web.EditOptions{Enabled: true, Token: editToken})
	var d web.Detail
	s.getJSON("/api/games/1/edit", &d)
	if d.Revision != 1 {
		t.Fatalf("revision %d, want 1", d.Revision)
	}
	rec := recordOf(&d)
	rec.Intro = append(rec.Intro, "a comment")
	body := map[string]any{"base": 1, "record": rec}
	for _, tc := range []struct {
		name    string
		headers []string
		want    int
	}{
		{"no token", nil, http.StatusForbidden},
		{"wrong token", []string{web.TokenHeader, "nope"}, http.StatusForbidden},
		{"cross-origin", []string{web.TokenHeader, editToken, "Origin", "http://evil.example"}, http.StatusForbidden},
		{"cross-site", []string{web.TokenHeader, editToken, "Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"same-site", []string{web.TokenHeader, editToken, "Sec-Fetch-Site", "same-site"}, http.StatusForbidden},
		{"not JSON", []string{web.TokenHeader, editToken, "Content-Type", "text/plain"}, http.StatusUnsupportedMediaType},
	} {
		if code, b := s.do("PUT", "/api/games/1/record", body, tc.headers...); code != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, code, b, tc.want)
		}
		if code, b := s.do("POST", "/api/games", map[string]any{"text": "[Game \"ogi\"]\n\n*\n"}, tc.headers...); code != tc.want {
			t.Errorf("%s: POST %d %s, want %d", tc.name, code, b, tc.want)
		}
	}
	off := newEditServer(t, web.EditOptions{Why: "started with --edit=false"})
	code, b := off.do("PUT", "/api/games/1/record", body, web.TokenHeader, editToken)
	if code != http.StatusForbidden || !strings.Contains(string(b), "--edit=false") {
		t.Errorf("--edit=false: %d %s, want 403 saying why", code, b)
	}
	var on struct{ Enabled bool }
	off.getJSON("/api/edit", &on)
	if on.Enabled {
		t.Error("/api/edit: enabled on a server that does not write")
	}
	revs, err := s.db.History(context.Background(), 1)
	if err != nil || len(revs) != 1 {
		t.Fatalf("after refused writes: %d revisions (%v), want 1", len(revs), err)
	}
}

// TestEditSave: a game annotated (comment, NAG, a new variation, a
// variation promoted, tags) is saved as revision 2; the game, its
// positions and the opening tree show it at once, even where they were
// cached; a save from revision 1 afterwards is a conflict (409 naming
// revision 2); the record exports and reads back as it was saved.
func TestEditSave(t *testing.T) {
	s := newEditServer(t, web.EditOptions{Enabled: true, Token: editToken})
	var d web.Detail
	s.getJSON("/api/games/1/edit", &d)
	// Ply 6 (move 4): Bb2-a1 on the main line, Ke1-e2 in a variation
	// (its moves to ply 9).
	before, varPos := nodeFEN(t, &d, 6, false), nodeFEN(t, &d, 9, true)
	if tm := s.treeAt(before); len(tm) != 1 || tm[0].Move != "Bb2-a1" {
		t.Fatalf("tree before the save: %+v", tm)
	}
	if p := s.positionGames(varPos); len(p.Games) != 1 || !p.Games[0].Variation {
		t.Fatalf("the variation's position before the save: %+v", p.Games)
	}

	rec := annotatedForSave(&d)
	code, b := s.do("PUT", "/api/games/1/record", map[string]any{"base": 1, "record": rec}, web.TokenHeader, editToken)
	if code != http.StatusOK {
		t.Fatalf("save: %d %s", code, b)
	}
	var saved web.Saved
	if err := json.Unmarshal(b, &saved); err != nil || saved.Revision != 2 || !saved.Changed || !saved.Valid {
		t.Fatalf("save: %s (%v), want revision 2, changed, valid", b, err)
	}
	checkSavedGame(t, s, before, varPos)
	checkStaleSave(t, s)
	checkExportReadsBack(t, s)
}

// nodeFEN is the position after the node at ply, on the main line or in
// a variation.
func nodeFEN(t *testing.T, d *web.Detail, ply int, variation bool) string {
	t.Helper()
	for _, n := range d.Nodes {
		if n.Ply == ply && (n.Depth > 0) == variation {
			return n.FEN
		}
	}
	t.Fatalf("no node at ply %d", ply)
	return ""
}

func (s *editServer) treeAt(moves string) []web.TreeMove {
	var tm []web.TreeMove
	s.getJSON("/api/tree?"+url.Values{"game": {"ogi"}, "fen": {moves}}.Encode(), &tm)
	return tm
}

func (s *editServer) positionGames(moves string) web.ListPage {
	var p web.ListPage
	s.getJSON("/api/games?"+url.Values{"game": {"ogi"}, "position": {moves}, "valid": {"both"}}.Encode(), &p)
	return p
}

// annotatedForSave is the game's record with a comment, a NAG, a new
// variation, the variation of move 4 promoted, the date written another
// way and an Annotator tag.
func annotatedForSave(d *web.Detail) *web.RecordJSON {
	rec := recordOf(d)
	m := rec.Moves
	m[0].After = append(m[0].After, "A quiet start.")
	m[1].NAGs = "!?"
	// A variation of move 2 (La1-a2): Lh1-h2 instead, with a comment
	// before it (in the record format a comment before a move is one
	// after the move before it, but at the start of a line).
	m[2].Vars = append(m[2].Vars, []web.MoveJSON{{Move: "Lh1-h2", NAGs: "?", Before: []string{"Instead:"}}})
	// Promote the variation of move 4: its moves become the main line,
	// the main line from there a variation.
	v := m[6].Vars[0]
	old := append([]web.MoveJSON{}, m[6:]...)
	old[0].Vars = nil
	v[0].Vars = [][]web.MoveJSON{old}
	rec.Moves = append(m[:6:6], v...)
	for i, tg := range rec.Tags {
		if tg[0] == "Date" {
			rec.Tags[i][1] = "2026-7-4"
		}
	}
	rec.Tags = append(rec.Tags, [2]string{"Annotator", "Plateau test"})
	return rec
}

// checkSavedGame: the game shows the saved revision, and the tree and the
// position lists follow it at once.
func checkSavedGame(t *testing.T, s *editServer, before, varPos string) {
	t.Helper()
	var got web.Detail
	s.getJSON("/api/games/1/edit", &got)
	if got.Revision != 2 {
		t.Errorf("revision after the save: %d, want 2", got.Revision)
	}
	if got.Date != "2026.07.04" {
		t.Errorf("date %q, want 2026.07.04 (normalised)", got.Date)
	}
	n := got.Nodes
	first := n[0].Next
	second := n[first].Next
	third := n[second].Next
	if !slices.Contains(n[first].After, "A quiet start.") || n[second].NAGs != "!?" {
		t.Errorf("annotations not saved: %q %q", n[first].After, n[second].NAGs)
	}
	if v := n[third].Vars; len(v) != 1 || n[v[0]].Move != "Lh1-h2" || n[v[0]].NAGs != "?" || !slices.Contains(n[v[0]].Before, "Instead:") {
		t.Errorf("the new variation: %+v", n[third].Vars)
	}
	if tm := s.treeAt(before); len(tm) != 1 || tm[0].Move != "Ke1-e2" {
		t.Errorf("tree after the save: %+v, want Ke1-e2", tm)
	}
	if p := s.positionGames(varPos); len(p.Games) != 1 || p.Games[0].Variation {
		t.Errorf("the promoted line's position after the save: %+v, want on the main line", p.Games)
	}
	var lance string
	for _, n := range got.Nodes {
		if n.Move == "Lh1-h2" && n.Ply == 3 {
			lance = n.FEN
		}
	}
	if p := s.positionGames(lance); len(p.Games) != 1 || p.Games[0].N != 1 {
		t.Errorf("the new variation's position: %+v, want game 1", p.Games)
	}
	var tagged struct{ Tags [][2]string }
	s.getJSON("/api/games/1", &tagged)
	if !slices.Contains(tagged.Tags, [2]string{"Annotator", "Plateau test"}) {
		t.Errorf("tags %q lack the Annotator", tagged.Tags)
	}
}

// checkStaleSave: a second writer who loaded revision 1 is told, and
// nothing is saved.
func checkStaleSave(t *testing.T, s *editServer) {
	t.Helper()
	code, b := s.do("PUT", "/api/games/1/record", map[string]any{"base": 1, "text": "[Game \"ogi\"]\n\n*\n"}, web.TokenHeader, editToken)
	var conflict struct {
		Error   string
		Current int
	}
	json.Unmarshal(b, &conflict)
	if code != http.StatusConflict || conflict.Current != 2 || !strings.Contains(conflict.Error, "revision 2") {
		t.Errorf("stale save: %d %s, want 409 naming revision 2", code, b)
	}
	var revs []web.RevisionInfo
	s.getJSON("/api/games/1/revisions", &revs)
	if len(revs) != 2 || !revs[1].Current {
		t.Errorf("revisions %+v, want 2, the last current", revs)
	}
}

// checkExportReadsBack: the record exported reads back as the same
// record, and revision 1 is kept as it was.
func checkExportReadsBack(t *testing.T, s *editServer) {
	t.Helper()
	code, text := s.do("GET", "/api/games/1/record", nil)
	if code != http.StatusOK {
		t.Fatalf("record: %d %s", code, text)
	}
	back, err := record.NewReader(bytes.NewReader(text), "export").Next()
	if err != nil {
		t.Fatal(err)
	}
	if again := record.Format(back); !bytes.Equal(again, text) {
		t.Errorf("export → read → write changed the record:\n%s\nthen\n%s", text, again)
	}
	old1, err := s.db.Revision(context.Background(), 1, 1)
	if err != nil || bytes.Contains(old1, []byte("A quiet start.")) {
		t.Errorf("revision 1 (%v) holds the edit or is lost:\n%s", err, old1)
	}
}

// TestEditAdd: records pasted are stored as new games; again, they are
// named as the games stored.
func TestEditAdd(t *testing.T) {
	s := newEditServer(t, web.EditOptions{Enabled: true, Token: editToken})
	text := "[Game \"ogi\"]\n[Sente \"Paste, One\"]\n\n1. Rg2-f2 {pasted} Id8-c7 *\n\n" +
		"[Game \"ogi\"]\n[Sente \"Paste, Two\"]\n\n1. Rg2-f2 Pz9-z8 *\n"
	add := func() []web.AddedGame {
		code, b := s.do("POST", "/api/games", map[string]any{"text": text}, web.TokenHeader, editToken)
		if code != http.StatusOK {
			t.Fatalf("add: %d %s", code, b)
		}
		var out []web.AddedGame
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a := add()
	if len(a) != 2 || !a[0].Valid || a[1].Valid || a[1].Error == "" || a[0].Dup {
		t.Fatalf("added %+v: want a valid game and an invalid one with its fault", a)
	}
	var d web.Detail
	s.getJSON("/api/games/"+strconv.Itoa(a[0].N), &d)
	if d.Players[0] != "Paste, One" {
		t.Errorf("game %d: players %q", a[0].N, d.Players)
	}
	var p web.ListPage
	s.getJSON("/api/games?q=Paste", &p)
	if len(p.Games) != 1 || p.Games[0].N != a[0].N {
		t.Errorf("the list's words find %+v, want game %d", p.Games, a[0].N)
	}
	if b := add(); len(b) != 2 || !b[0].Dup || b[0].N != a[0].N {
		t.Errorf("added again %+v, want duplicates of %+v", b, a)
	}
}
