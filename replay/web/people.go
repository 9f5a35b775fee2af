package web

import (
	"context"
	"errors"
	"net/http"
	"strings"
)

// People is a Source that has players' pages, crosstables and statistics
// (a database: index/browse). Each answer is JSON, as the server writes
// it (docs/api.md gives their shapes).
type People interface {
	// PlayerJSON is the page of the player named name (ErrNoPlayer when
	// there is none).
	PlayerJSON(ctx context.Context, name, from, to string) ([]byte, error)
	// CrosstableJSON is the crosstable (a Crosstable) of the games of the
	// list q: its players ranked, q.Limit of them from q.Offset.
	CrosstableJSON(ctx context.Context, q ListQuery) ([]byte, error)
	// PlayedJSON is the most played named openings of the games of the
	// list q (an event's), by ruleset: a list of NamedTally-shaped
	// objects (docs/api.md).
	PlayedJSON(ctx context.Context, q ListQuery) ([]byte, error)
	// StatsJSON is the statistics of the whole source.
	StatsJSON(ctx context.Context) ([]byte, error)
}

// ErrNoPlayer is returned for a player page of an unknown name.
var ErrNoPlayer = errors.New("no such player")

// Crosstable is a page of a crosstable: Lines are the players ranked from
// Offset, each with their scores against the players of the page.
//
// Decisions: the score is on one scale whatever the ruleset writes (a win
// 1, a draw ½, for 1-0, 2-0 and 1-1 results alike; Dejarik points kept,
// being its scale), and Points are the Results' points as written.
type Crosstable struct {
	Players int         `json:"players"` // in the whole table
	Offset  int         `json:"offset"`
	Lines   []CrossLine `json:"lines"`
}

// CrossLine is one player's line of a Crosstable. Against[j] and Met[j]
// are the score against, and the games with, the j-th player of the page.
type CrossLine struct {
	Rank    int       `json:"rank"` // 1 for the first player of the table
	Player  string    `json:"player"`
	Games   int       `json:"games"`
	Score   float64   `json:"score"`
	Points  float64   `json:"points"`
	Against []float64 `json:"against"`
	Met     []int     `json:"met"`
}

// peopleRoutes adds the endpoints of People to mux:
//
//	GET /api/player?name=NAME    a player's page
//	GET /api/crosstable          the crosstable of a list selection (the parameters
//	                             of /api/games: event=…, game=…, from=…); offset and
//	                             limit page its players
//	GET /api/openings/played     the most played named openings of a list
//	                             selection (the parameters of /api/games)
//	GET /api/stats               the statistics of the database
func peopleRoutes(mux *http.ServeMux, src Source) {
	pp, _ := src.(People)
	answer := func(w http.ResponseWriter, get func() ([]byte, error)) {
		if pp == nil {
			writeError(w, http.StatusNotImplemented, "players, crosstables and statistics need a database")
			return
		}
		b, err := get()
		if err != nil {
			writeError(w, statusOf(err), err.Error())
			return
		}
		writeRaw(w, b)
	}
	mux.HandleFunc("GET /api/player", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimSpace(r.URL.Query().Get("name"))
		if name == "" {
			writeError(w, http.StatusBadRequest, "name: a player's name expected")
			return
		}
		q := r.URL.Query()
		answer(w, func() ([]byte, error) {
			return pp.PlayerJSON(r.Context(), name, strings.TrimSpace(q.Get("from")), strings.TrimSpace(q.Get("to")))
		})
	})
	mux.HandleFunc("GET /api/crosstable", func(w http.ResponseWriter, r *http.Request) {
		q, err := ListQueryOf(r.URL.Query())
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		answer(w, func() ([]byte, error) { return pp.CrosstableJSON(r.Context(), q) })
	})
	mux.HandleFunc("GET /api/openings/played", func(w http.ResponseWriter, r *http.Request) {
		q, err := ListQueryOf(r.URL.Query())
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		answer(w, func() ([]byte, error) { return pp.PlayedJSON(r.Context(), q) })
	})
	mux.HandleFunc("GET /api/stats", func(w http.ResponseWriter, r *http.Request) {
		answer(w, func() ([]byte, error) { return pp.StatsJSON(r.Context()) })
	})
}

// versioned serves /api/v1/… as /api/…: the stable paths of docs/api.md,
// which stay while the unversioned ones (the page's) may change.
func versioned(mux *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/api/" + strings.TrimPrefix(r.URL.Path, "/api/v1/")
		r2.URL.RawPath = ""
		mux.ServeHTTP(w, r2)
	}
}
