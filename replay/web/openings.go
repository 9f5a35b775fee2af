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
	Openings(ctx context.Context, game, position string) ([]Opening, error)
}

// Opening is a named position.
type Opening struct {
	Game  string `json:"game"`
	Name  string `json:"name"`
	Ply   int    `json:"ply"`   // the plies of the line that names it
	Moves string `json:"moves"` // that line
	FEN   string `json:"fen"`   // the position, in the game's notation
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
	for _, name := range []string{"game", "fen"} {
		if len(v[name]) > 1 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("%s: given %d times", name, len(v[name])))
			return
		}
	}
	if v.Get("fen") != "" && v.Get("game") == "" {
		writeError(w, http.StatusBadRequest, "fen: needs game")
		return
	}
	os, err := ol.Openings(r.Context(), v.Get("game"), v.Get("fen"))
	if err != nil {
		writeError(w, statusOf(err), err.Error())
		return
	}
	if os == nil {
		os = []Opening{}
	}
	writeJSON(w, http.StatusOK, os)
}
