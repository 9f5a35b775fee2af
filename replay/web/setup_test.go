package web_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// setupPost posts body to /api/setup of a server without games and
// returns the status and the answer.
func setupPost(t *testing.T, body string) (int, web.SetupView, string) {
	t.Helper()
	h := web.Handler(web.NewCollection(replay.Options{}).Source(), fstest.MapFS{})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/setup", strings.NewReader(body)))
	var v web.SetupView
	if rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", rec.Body, err)
		}
	}
	return rec.Code, v, rec.Body.String()
}

func TestSetupEndpoint(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		status     int
		position   string // the position answered
		valid      bool
		err        string // in the error or the answer
		pieces     int    // placements answered
	}{
		{"read the start", `{"game":"ogi","position":""}`, 200, "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1", true, "", 36},
		{"read a string the rules refuse", `{"game":"ogi","position":"8/8 b - 1"}`, 200, "8/8 b - 1", false, "want 8 ranks", 0},
		{"read Dejarik", `{"game":"dejarik","position":"B:Wc,i3,o1:Bo9,o10"}`, 200, "B:Wc,i3,o1:Bo9,o10", true, "", 5},
		{"write Ōgi with hands", `{"game":"ogi","position":"","toMove":1,"pieces":[{"sq":"e1","side":0,"kind":"K"},{"sq":"e8","side":1,"kind":"K"},{"sq":"","side":0,"kind":"P","count":2},{"side":1,"kind":"R","promoted":true,"count":1}]}`,
			200, "4k3/8/8/8/8/8/8/4K3 w 2P+r 1", true, "", 4},
		{"write keeps the base's move number", `{"game":"ogi","position":"4k3/8/8/8/8/8/8/4K3 b - 12","toMove":0,"pieces":[{"sq":"e1","side":0,"kind":"K"},{"sq":"d8","side":1,"kind":"K"}]}`,
			200, "3k4/8/8/8/8/8/8/4K3 b - 12", true, "", 2},
		{"write without a King: written, refused, pieces kept", `{"game":"ogi","position":"","pieces":[{"sq":"e1","side":0,"kind":"K"}]}`,
			200, "8/8/8/8/8/8/8/4K3 b - 1", false, "Gote must have one King", 1},
		{"write a draughts king", `{"game":"draughts","position":"","toMove":1,"pieces":[{"sq":"28","side":0,"kind":"K","promoted":true},{"sq":"3","side":1,"kind":"M"}]}`,
			200, "B:WK28:B3", true, "", 2},
		{"write two pieces on a square", `{"game":"sauts","pieces":[{"sq":"G2","side":0,"kind":"P"},{"sq":"G2","side":1,"kind":"P"}]}`,
			200, "", false, "two pieces on G2", 2},
		{"unknown game", `{"game":"chess","position":""}`, 400, "", false, "unknown game", 0},
		{"a piece of two letters", `{"game":"ogi","pieces":[{"sq":"e1","side":0,"kind":"KK"}]}`, 400, "", false, "one letter", 0},
		{"not JSON", `game=ogi`, 400, "", false, "request body", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, v, body := setupPost(t, tt.body)
			if status != tt.status || !strings.Contains(body, tt.err) {
				t.Fatalf("%d %s; want %d saying %q", status, body, tt.status, tt.err)
			}
			if status != 200 {
				return
			}
			if v.Position != tt.position || v.Valid != tt.valid || len(v.Pieces) != tt.pieces || (v.Error == "") != tt.valid {
				t.Errorf("%+v; want %q valid %v with %d pieces", v, tt.position, tt.valid, tt.pieces)
			}
		})
	}
}

// TestRulesetsSetup: every game can be set up; Ōgi's hands hold every kind,
// the King's privilege's promoted pieces too, and no draughts game has any.
func TestRulesetsSetup(t *testing.T) {
	for _, r := range web.Rulesets() {
		if !r.Setup {
			t.Errorf("%s: no set-up", r.ID)
		}
		if (len(r.HandPieces) > 0) != (r.ID == "ogi") {
			t.Errorf("%s: hand pieces %+v", r.ID, r.HandPieces)
		}
		if r.ID != "ogi" {
			continue
		}
		var got []string
		for _, k := range r.HandPieces {
			s := k.Kind
			if k.Promoted {
				s += "+"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != "K I+ R+ B+ S+ N+ L+ P+" {
			t.Errorf("Ōgi's hand pieces %q", got)
		}
	}
}
