package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// An Explorer is a Source that can also give the opening tree of a
// position and the records of its games (a database: index/browse).
type Explorer interface {
	Source
	// Tree lists the moves played from a position (in the notation of the
	// ruleset game, or moves from its start) in the games that criteria
	// select (a database's search criteria, URL-encoded as ListQuery's:
	// player, side, from, to, event, min-elo…; "" for every game), as
	// `plateau tree` does. A criterion it cannot read is ErrBadQuery's.
	Tree(ctx context.Context, game, position, criteria string) ([]TreeMove, error)
	// Record is the record text of game n (ErrNoGame when there is none).
	Record(ctx context.Context, n int) ([]byte, error)
	// Export writes the records of every game of the list q (its offset
	// and limit ignored), each once, and returns how many it wrote.
	Export(ctx context.Context, q ListQuery, w io.Writer) (int, error)
}

// A JSONLister is a Source that gives its list pages as JSON, as the
// server writes them (a cache of encoded pages: encoding a page of 100
// games is most of the work of serving it from a cache).
type JSONLister interface {
	ListJSON(ctx context.Context, q ListQuery) ([]byte, error)
}

// A JSONTreeMap is an Explorer that gives its trees as JSON ([] for none).
type JSONTreeMap interface {
	TreeJSON(ctx context.Context, game, position, criteria string) ([]byte, error)
}

// A Loader is a Source still being filled (the files of `serve FILE…`
// imported into a temporary database); the page shows its progress.
type Loader interface {
	Status() LoadStatus
}

// LoadStatus is the progress of a Loader.
type LoadStatus struct {
	Loading    bool   `json:"loading"`
	Files      int    `json:"files"`
	Records    int    `json:"records"`
	Stored     int    `json:"stored"`
	Invalid    int    `json:"invalid"`
	Duplicates int    `json:"duplicates"`
	Bytes      int64  `json:"bytes"`
	TotalBytes int64  `json:"totalBytes"`
	Error      string `json:"error,omitempty"`
	// Notice is what the source says of itself once loaded (a Noticer's
	// notice: a text index that lacks games).
	Notice string `json:"notice,omitempty"`
}

// A Noticer is a Source that has something to say of itself: a database
// whose text index lacks games answers text queries without them.
type Noticer interface {
	Notice(ctx context.Context) string
}

// TreeMove is one move of an opening tree (index.TreeMove).
type TreeMove struct {
	Move   string     `json:"move"`
	Games  int        `json:"games"`
	Scored int        `json:"scored"`
	Score  [2]float64 `json:"score"` // points of each side over the scored games
	// Wins are the scored games each side won (more points than the
	// other); the others were drawn. nil when the database does not know
	// them (an older layout, read-only).
	Wins  *[2]int       `json:"wins,omitempty"`
	First string        `json:"first,omitempty"`
	Last  string        `json:"last,omitempty"`
	Top   []PlayerCount `json:"top,omitempty"` // who played it most
	// Opening is the name of the position the move leads to, when it has
	// one (a database's names); OpeningECO, the ECO-style code it begins
	// with, when it has one (Opening keeps it).
	Opening    string `json:"opening,omitempty"`
	OpeningECO string `json:"openingEco,omitempty"`
}

// PlayerCount is a player and how often they played a move.
type PlayerCount struct {
	Name  string `json:"name"`
	Games int    `json:"games"`
}

// LegalMove is a move of a position, for the page's click-to-move.
type LegalMove struct {
	Move string `json:"move"`
	From string `json:"from,omitempty"` // "" for a drop
	To   string `json:"to,omitempty"`
	// Kind is the piece letter of a drop.
	Kind string `json:"kind,omitempty"`
}

// PositionView is a position outside any stored game: the explorer's
// board. Node is the position (after Move when one was played).
type PositionView struct {
	Game     string      `json:"game"`
	GameName string      `json:"gameName"`
	Sides    [2]string   `json:"sides"`
	Geometry Geometry    `json:"geometry"`
	Node     Node        `json:"node"`
	Legal    []LegalMove `json:"legal"`
}

// Ruleset is a game the page can explore from its start, with what its
// pattern form offers: the board of the start position, the pieces and
// whether pieces are held in hand.
type Ruleset struct {
	ID       string      `json:"id"`
	Name     string      `json:"name"`
	Sides    [2]string   `json:"sides"`
	Start    string      `json:"start"`
	Geometry Geometry    `json:"geometry"`
	Pieces   []PieceKind `json:"pieces"`
	Hands    bool        `json:"hands,omitempty"`
	// HandPieces are the pieces a hand may hold, as they are held (an Ōgi
	// hand holds a promoted piece kept by the King's privilege).
	HandPieces []PieceKind `json:"handPieces,omitempty"`
	// Setup is true when the page can set up positions of the game
	// (rules.Composer: POST /api/setup).
	Setup bool `json:"setup,omitempty"`
}

// PieceKind is a piece letter of a game's notation (as a pattern names
// it) and the forms it takes on the board: Plain unpromoted, Promoted
// promoted (a draughts king, K, is only promoted; an Ōgi piece is both).
type PieceKind struct {
	Kind     string `json:"kind"`
	Plain    bool   `json:"plain,omitempty"`
	Promoted bool   `json:"promoted,omitempty"`
}

// Rulesets lists every registered game.
func Rulesets() []Ruleset {
	var out []Ruleset
	for _, g := range rules.Games() {
		r := Ruleset{ID: g.ID(), Name: g.Name(), Sides: g.Sides(), Pieces: []PieceKind{}}
		if pos, err := g.NewPosition(""); err == nil {
			r.Start = pos.String()
			r.Geometry = GeometryOf(g.ID(), pos)
			r.Pieces, r.Hands = piecesOf(pos)
			r.HandPieces = handPiecesOf(pos)
		}
		_, r.Setup = g.(rules.Composer)
		out = append(out, r)
	}
	return out
}

// piecesOf lists the piece kinds of the encoding of pos (every piece the
// game can have, in the rules' order), or, for a position that does not
// expose it, those of its board; hands reports a game with pieces in hand.
func piecesOf(pos rules.Position) (kinds []PieceKind, hands bool) {
	var all []rules.Piece
	if c, ok := pos.(rules.Cells); ok {
		l := c.Layout()
		all = append(all, l.Codes[:]...)
		all = append(all, l.Hand...)
		hands = len(l.Hand) > 0
	} else {
		for _, pl := range pos.Board() {
			all = append(all, rules.Piece{Side: pl.Side, Kind: pl.Kind, Promoted: pl.Promoted})
			hands = hands || pl.Square == ""
		}
	}
	return kindsOf(all), hands
}

// kindsOf lists the piece kinds of pcs, each once, in their order, with
// the forms (plain, promoted) they take among pcs; empty codes left out.
func kindsOf(pcs []rules.Piece) []PieceKind {
	kinds := []PieceKind{}
	at := map[byte]int{}
	for _, pc := range pcs {
		if pc.Kind == 0 {
			continue
		}
		i, ok := at[pc.Kind]
		if !ok {
			i = len(kinds)
			at[pc.Kind] = i
			kinds = append(kinds, PieceKind{Kind: string(rune(pc.Kind))})
		}
		if pc.Promoted {
			kinds[i].Promoted = true
		} else {
			kinds[i].Plain = true
		}
	}
	return kinds
}

// handPiecesOf lists the piece kinds of pos's hand slots (Cells), each
// once, in the rules' order; none for a game without hands.
func handPiecesOf(pos rules.Position) []PieceKind {
	c, ok := pos.(rules.Cells)
	if !ok {
		return nil
	}
	if kinds := kindsOf(c.Layout().Hand); len(kinds) > 0 {
		return kinds
	}
	return nil
}

// View is the position given in the notation of game (or "" for its
// start), or, when move is set, the position after that move is played
// from it; ply is the number of plies played before it (for the move's
// number).
func View(game, position, move string, ply int) (*PositionView, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, err
	}
	pos, err := g.NewPosition(strings.TrimSpace(position))
	if err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	start := pos.Clone()
	n := Node{Parent: -1, Ply: ply}
	if move != "" {
		m, err := pos.ParseMove(move)
		if err != nil {
			return nil, fmt.Errorf("move %q: %w", move, err)
		}
		info := pos.Describe(m)
		n.Move, n.Number = pos.FormatMove(m), replay.PlyString(ply)
		n.From, n.To, n.Note = info.From, info.To, info.Note
		if !info.KeepsTurn {
			n.Ply = ply + 1
		}
		pos.Play(m)
	}
	v := &PositionView{Game: g.ID(), GameName: g.Name(), Sides: g.Sides(), Geometry: GeometryOf(g.ID(), start), Legal: []LegalMove{}}
	d := &Detail{}
	t := tree{d: d}
	t.add(n, pos)
	v.Node = d.Nodes[0]
	if !pos.Outcome().Over {
		for _, m := range pos.Legal(nil) {
			info := pos.Describe(m)
			lm := LegalMove{Move: pos.FormatMove(m), From: info.From, To: info.To}
			if info.Drop {
				lm.Kind = dropKind(lm.Move)
			}
			v.Legal = append(v.Legal, lm)
		}
	}
	return v, nil
}

// dropKind is the piece letter of a drop written like "S*d4" or "+P*c5".
func dropKind(move string) string {
	k, _, ok := strings.Cut(move, "*")
	if !ok {
		return ""
	}
	return k
}

// explorerRoutes adds the explorer's endpoints to mux:
//
//	GET /api/rulesets             every game with its start position
//	GET /api/position             ?game=&fen=[&move=&ply=]: a PositionView
//	GET /api/tree                 ?game=&fen=[&player=&side=&from=…]: the opening tree of the games the other parameters select ([]TreeMove)
//	GET /api/games/{n}/record     game n's record (PDN text; &download=1 as a file)
//	GET /api/export               the records of a list selection (the parameters of /api/games)
//	GET /api/status               LoadStatus of a source being loaded, a Noticer's notice
//	GET /api/openings             ?game=[&fen=]: the named positions ([]Opening; with fen, that position's)
func explorerRoutes(mux *http.ServeMux, src Source) {
	ex, _ := src.(Explorer)
	mux.HandleFunc("GET /api/openings", func(w http.ResponseWriter, r *http.Request) { serveOpenings(w, r, src) })
	mux.HandleFunc("GET /api/rulesets", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, Rulesets())
	})
	mux.HandleFunc("GET /api/position", servePosition)
	mux.HandleFunc("GET /api/tree", func(w http.ResponseWriter, r *http.Request) { serveTree(w, r, ex) })
	mux.HandleFunc("GET /api/games/{n}/record", func(w http.ResponseWriter, r *http.Request) { serveRecord(w, r, src, ex) })
	mux.HandleFunc("GET /api/export", func(w http.ResponseWriter, r *http.Request) { serveExport(w, r, ex) })
	mux.HandleFunc("GET /api/status", func(w http.ResponseWriter, r *http.Request) {
		st := LoadStatus{}
		if l, ok := src.(Loader); ok {
			st = l.Status()
		}
		if n, ok := src.(Noticer); ok && !st.Loading {
			st.Notice = n.Notice(r.Context())
		}
		writeJSON(w, http.StatusOK, st)
	})
}

// servePosition answers /api/position: a PositionView.
func servePosition(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	ply := 0
	if s := v.Get("ply"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, "ply: a number ≥ 0 expected")
			return
		}
		ply = n
	}
	view, err := View(v.Get("game"), v.Get("fen"), v.Get("move"), ply)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, view)
}

// serveTree answers /api/tree from the explorer ex (nil: 501), as JSON it
// encoded beforehand when it has it.
func serveTree(w http.ResponseWriter, r *http.Request, ex Explorer) {
	if ex == nil {
		writeError(w, http.StatusNotImplemented, "the opening tree needs a database")
		return
	}
	v := r.URL.Query()
	for _, name := range []string{"game", "fen"} {
		if len(v[name]) > 1 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("%s: given %d times", name, len(v[name])))
			return
		}
	}
	game, fen := v.Get("game"), v.Get("fen")
	v.Del("game")
	v.Del("fen")
	criteria := v.Encode() // the others: the database's criteria
	if tj, ok := ex.(JSONTreeMap); ok {
		b, err := tj.TreeJSON(r.Context(), game, fen, criteria)
		if err != nil {
			writeError(w, statusOf(err), err.Error())
			return
		}
		writeRaw(w, b)
		return
	}
	moves, err := ex.Tree(r.Context(), game, fen, criteria)
	if err != nil {
		writeError(w, statusOf(err), err.Error())
		return
	}
	if moves == nil {
		moves = []TreeMove{}
	}
	writeJSON(w, http.StatusOK, moves)
}

// serveRecord answers /api/games/{n}/record: the record text of game n,
// from the explorer ex or else a collection.
func serveRecord(w http.ResponseWriter, r *http.Request, src Source, ex Explorer) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		writeError(w, http.StatusBadRequest, "game number expected")
		return
	}
	var text []byte
	if ex != nil {
		text, err = ex.Record(r.Context(), n)
	} else if c, ok := src.(collectionSource); ok {
		text, err = c.Record(n)
	} else {
		err = ErrUnsupported
	}
	if err != nil {
		writeError(w, statusOf(err), err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if r.URL.Query().Get("download") == "1" {
		// A file written: PDN 3.0, as plateau export writes it.
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="game-%d.pdn"`, n))
		text = record.PDN(text)
	}
	w.Write(text)
}

// serveExport answers /api/export: the records of a list selection, as a
// file.
func serveExport(w http.ResponseWriter, r *http.Request, ex Explorer) {
	q, err := ListQueryOf(r.URL.Query())
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if ex == nil {
		writeError(w, http.StatusNotImplemented, "export needs a database")
		return
	}
	f := &exportFile{w: w}
	if _, err := ex.Export(r.Context(), q, f); err != nil {
		if !f.started {
			writeError(w, statusOf(err), err.Error())
			return
		}
		// Headers are sent: say it in the file, as a comment.
		fmt.Fprintf(w, "\n; export stopped: %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
	}
	f.start() // an empty selection is an empty file
}

// exportFile is the answer of an export: a file whose headers are sent
// with its first bytes, so that an export that fails before any (a bad
// criterion) is answered as an error.
type exportFile struct {
	w       http.ResponseWriter
	started bool
}

func (f *exportFile) start() {
	if !f.started {
		f.started = true
		f.w.Header().Set("Content-Type", "application/x-pdn; charset=utf-8")
		f.w.Header().Set("Content-Disposition", `attachment; filename="selection.pdn"`)
	}
}

func (f *exportFile) Write(b []byte) (int, error) {
	f.start()
	return f.w.Write(b)
}

// statusOf is the HTTP status of a source's error (errorStatus, and 404
// for a missing game, 501 for what the source cannot do).
func statusOf(err error) int {
	switch {
	case errors.Is(err, ErrNoGame), errors.Is(err, ErrNoPlayer):
		return http.StatusNotFound
	case errors.Is(err, ErrUnsupported):
		return http.StatusNotImplemented
	}
	return errorStatus(err)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// Record is the canonical record text of game n of the collection.
func (c *Collection) Record(n int) ([]byte, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if n < 1 || n > len(c.list) {
		return nil, ErrNoGame
	}
	if c.list[n-1].rec == nil {
		return nil, fmt.Errorf("game %d: nothing of the record could be read", n)
	}
	return record.Format(c.list[n-1].rec), nil
}

func (s collectionSource) Record(n int) ([]byte, error) { return s.c.Record(n) }
