package web

import (
	"context"
	"fmt"
	"net/http"
)

// An OpeningLister is a Source that names positions (a database's
// opening names: index/browse).
type OpeningLister interface {
	// Openings lists the named positions of the ruleset game ("": every
	// ruleset), by ruleset and name; with a position (in the game's
	// notation, or moves from its start; "" for none), that position's
	// name alone (none when it has no name).
	// With games, each says how many games have it as their opening.
	Openings(ctx context.Context, game, position string, games bool) ([]Opening, error)
}

// Opening is a named position.
type Opening struct {
	Game string `json:"game"`
	Name string `json:"name"`
	// ECO is the ECO-style code Name begins with ("B20" of "B20
	// Sicilienne"), "" when it has none; Name keeps it.
	ECO   string `json:"eco,omitempty"`
	Ply   int    `json:"ply"`   // the plies of the line that names it
	Moves string `json:"moves"` // that line
	FEN   string `json:"fen"`   // the position, in the game's notation
	// Games is the number of games whose opening is this name (their
	// deepest named position), when asked (games=1).
	Games *int `json:"games,omitempty"`
}

// serveOpenings answers /api/openings from src (501 when it names no
// position).
func serveOpenings(w http.ResponseWriter, r *http.Request, src Source) {
	ol, ok := src.(OpeningLister)
	if !ok {
		writeError(w, http.StatusNotImplemented, "opening names need a database")
		return
	}
	v := r.URL.Query()
	for _, name := range []string{"game", "fen", "games"} {
		if len(v[name]) > 1 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("%s: given %d times", name, len(v[name])))
			return
		}
	}
	if v.Get("fen") != "" && v.Get("game") == "" {
		writeError(w, http.StatusBadRequest, "fen: needs game")
		return
	}
	os, err := ol.Openings(r.Context(), v.Get("game"), v.Get("fen"), v.Get("games") == "1")
	if err != nil {
		writeError(w, statusOf(err), err.Error())
		return
	}
	if os == nil {
		os = []Opening{}
	}
	writeJSON(w, http.StatusOK, os)
}
