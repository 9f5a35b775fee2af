package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/plateau/plateau/rules"
)

// The page's position set-up editor (issue 43) places pieces and asks the
// server for the position string, or gives a string and asks for its
// pieces: the rules write and judge positions (rules.Setup), the page
// never does.
//
// Decisions: a position the rules refuse is still answered 200, with the
// text written (when the pieces could be) and the rules' reason, so that
// the page shows what is wrong beside the string while the board keeps
// what was set up; only a request the server cannot read (an unknown
// game, a body that is not JSON, a piece letter of more than one
// character) is 400. The state the pieces do not say (a move number,
// escape flags, a board size) comes from the position the page last had
// valid, the base.

// MaxSetupBytes bounds the body of a set-up request (a board's pieces).
const MaxSetupBytes = 64 << 10

// SetupRequest is the body of POST /api/setup: read Position (Pieces
// absent), or write Pieces with ToMove to play from Position as the base
// ("" or a position the rules refuse: the game's start).
type SetupRequest struct {
	Game     string       `json:"game"`
	Position string       `json:"position"`
	Pieces   *[]Placement `json:"pieces,omitempty"`
	ToMove   int          `json:"toMove"`
}

// SetupView is the answer: the position string and its pieces.
type SetupView struct {
	Game string `json:"game"`
	// Position is the position string read or written; when the rules
	// refuse it, the text as given or written ("" when the pieces could
	// not be written).
	Position string `json:"position"`
	Valid    bool   `json:"valid"`
	Error    string `json:"error,omitempty"` // why the rules refuse it
	ToMove   int    `json:"toMove"`
	// Pieces are the position's (Board) when valid, else the request's
	// (none when a string was read).
	Pieces []Placement `json:"pieces"`
}

// errSetupRequest marks a set-up request the server cannot read (400).
var errSetupRequest = errors.New("set-up request")

// Setup answers a set-up request (see SetupRequest).
func Setup(req SetupRequest) (*SetupView, error) {
	g, err := rules.Lookup(req.Game)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errSetupRequest, err)
	}
	v := &SetupView{Game: g.ID(), Pieces: []Placement{}}
	if req.Pieces == nil {
		pos, err := g.NewPosition(req.Position)
		if err != nil {
			v.Position, v.Error = req.Position, err.Error()
			return v, nil
		}
		return v.valid(pos), nil
	}
	board := make([]rules.Placement, 0, len(*req.Pieces))
	for _, p := range *req.Pieces {
		if len(p.Kind) != 1 || p.Side < 0 || p.Side > 1 {
			return nil, fmt.Errorf("%w: piece %q of side %d: a piece is one letter of side 0 or 1", errSetupRequest, p.Kind, p.Side)
		}
		n := p.Count
		if p.Square != "" || n == 0 {
			n = 1
		}
		board = append(board, rules.Placement{Square: p.Square, Side: rules.Side(p.Side), Kind: p.Kind[0], Promoted: p.Promoted, Count: n})
	}
	base, err := g.NewPosition(req.Position)
	if err != nil {
		base = nil // the start
	}
	text, pos, err := rules.Setup(g, base, board, rules.Side(req.ToMove))
	if err != nil {
		v.Position, v.Error, v.ToMove, v.Pieces = text, err.Error(), req.ToMove, *req.Pieces
		return v, nil
	}
	return v.valid(pos), nil
}

// valid fills v from pos, a position the rules accept.
func (v *SetupView) valid(pos rules.Position) *SetupView {
	v.Position, v.Valid, v.ToMove = pos.String(), true, int(pos.ToMove())
	for _, pl := range pos.Board() {
		v.Pieces = append(v.Pieces, Placement{Square: pl.Square, Side: int(pl.Side), Kind: string(rune(pl.Kind)), Promoted: pl.Promoted, Count: pl.Count})
	}
	return v
}

// setupRoutes adds the set-up editor's endpoint:
//
//	POST /api/setup   SetupRequest → SetupView
func setupRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/setup", func(w http.ResponseWriter, r *http.Request) {
		var req SetupRequest
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxSetupBytes))
		if err := dec.Decode(&req); err != nil {
			writeError(w, http.StatusBadRequest, "request body: "+err.Error())
			return
		}
		v, err := Setup(req)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, v)
	})
}
