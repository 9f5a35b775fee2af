package web

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Writing games from the page (issue 43): a stored game's record is saved
// as a new revision, records are added as new games.
//
// Decisions:
//   - The server writes only when started to (EditOptions.Enabled) and only
//     for a request that carries its token in the TokenHeader header: a
//     header, not a cookie, so that a page of another site cannot make the
//     browser send it (a cross-origin request with such a header needs a
//     CORS preflight, which this server never grants). A request whose
//     Origin names another origin, or whose Sec-Fetch-Site says it comes
//     from another site, is refused too, and the body must be JSON. Every
//     refusal is 403 with the reason in words.
//   - A save names the revision it was made from (base); when the game was
//     saved meanwhile the answer is 409 with the current revision, and
//     nothing is written: the page offers to reload, never to overwrite.
//   - The page sends the game as a tree (RecordJSON: tags, comments,
//     NAGs, variations) and the server writes it in the record package's
//     canonical form: the page has no record writer of its own to get
//     wrong. A text may be sent instead (a record pasted, or corrected).
//   - The Date tag is checked and written YYYY.MM.DD (NormalizeDate); an
//     unreadable date is refused (400), naming it.
//   - An invalid record is stored invalid, as an import stores it, and the
//     answer names its first fault: correcting a game is saving again.

// TokenHeader is the request header that carries the server's token.
const TokenHeader = "X-Plateau-Token"

// MaxWriteBytes bounds the body of a write request (a pasted collection).
const MaxWriteBytes = 32 << 20

// EditOptions say whether and how the server writes.
type EditOptions struct {
	Enabled bool
	Token   string // the token every write request must carry
	// Why is said when writing is refused because it is not enabled.
	Why string
}

// An Editor is a Source whose games can be written (a database opened
// for writing: index/browse).
type Editor interface {
	Source
	// EditDetail is Detail with the game's current revision (Revision),
	// read together: the base of a save made from it.
	EditDetail(ctx context.Context, n int) (*Detail, error)
	// Save stores text as the record of game n, a new revision, if base is
	// its current revision (else a *ConflictError).
	Save(ctx context.Context, n int, text []byte, base int) (Saved, error)
	// Add stores the records of text as new games.
	Add(ctx context.Context, text []byte) ([]AddedGame, error)
	// History lists the revisions of game n, oldest first.
	History(ctx context.Context, n int) ([]RevisionInfo, error)
	// RevisionText is the record text of revision r of game n.
	RevisionText(ctx context.Context, n, r int) ([]byte, error)
}

// Saved is what a save did.
type Saved struct {
	N        int    `json:"n"`
	Revision int    `json:"revision"`
	Changed  bool   `json:"changed"` // false: the record was the stored one
	Valid    bool   `json:"valid"`
	Error    string `json:"error,omitempty"` // the first fault of an invalid record
	Line     int    `json:"line,omitempty"`  // its line in the text saved
	Ply      int    `json:"ply,omitempty"`
	Move     string `json:"move,omitempty"`
	Note     string `json:"note,omitempty"` // what changed
}

// AddedGame is what an add did with one record.
type AddedGame struct {
	N     int    `json:"n"`
	Dup   bool   `json:"dup,omitempty"` // stored already, as game N
	Valid bool   `json:"valid"`
	Line  int    `json:"line"` // the record's first line in the text
	Error string `json:"error,omitempty"`
}

// RevisionInfo is one revision of a game.
type RevisionInfo struct {
	N       int    `json:"n"`
	Time    string `json:"time,omitempty"` // RFC 3339; "" when not known
	Size    int    `json:"size"`
	Valid   bool   `json:"valid"`
	Note    string `json:"note,omitempty"`
	Current bool   `json:"current,omitempty"`
}

// ErrConflict marks a save made from a revision that is no longer the
// game's current one (a *ConflictError).
var ErrConflict = errors.New("the game was saved meanwhile")

// ConflictError is a save of game N made from revision Base while the game
// is at revision Current.
type ConflictError struct{ N, Base, Current int }

func (e *ConflictError) Error() string {
	return fmt.Sprintf("game %d was saved meanwhile: it is at revision %d, this edit was made from revision %d; reload it and edit again", e.N, e.Current, e.Base)
}

func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// ErrBadRecord marks a write whose record the request got wrong (400).
var ErrBadRecord = errors.New("bad record")

// writeRoutes adds the routes that write, and those that read what a
// writer needs:
//
//	GET  /api/edit                        {"enabled": bool, "why": …}
//	GET  /api/games/{n}/edit              Detail with its revision
//	GET  /api/games/{n}/revisions         [RevisionInfo]
//	GET  /api/games/{n}/revisions/{r}     the record text of revision r
//	PUT  /api/games/{n}/record            {"base": N, "record": RecordJSON | "text": …} → Saved
//	POST /api/games                       {"record": RecordJSON | "text": …} → [AddedGame]
func writeRoutes(mux *http.ServeMux, src Source, o EditOptions) {
	ed, _ := src.(Editor)
	if ed == nil && o.Why == "" {
		o.Why = "these games are not in a database that can be written"
	}
	mux.HandleFunc("GET /api/edit", func(w http.ResponseWriter, r *http.Request) {
		on := o.Enabled && ed != nil
		v := map[string]any{"enabled": on}
		if !on {
			v["why"] = o.Why
		}
		writeJSON(w, http.StatusOK, v)
	})
	if ed == nil {
		return
	}
	mux.HandleFunc("GET /api/games/{n}/edit", func(w http.ResponseWriter, r *http.Request) {
		withGame(w, r, func(n int) (any, error) { return ed.EditDetail(r.Context(), n) })
	})
	mux.HandleFunc("GET /api/games/{n}/revisions", func(w http.ResponseWriter, r *http.Request) {
		withGame(w, r, func(n int) (any, error) { return ed.History(r.Context(), n) })
	})
	mux.HandleFunc("GET /api/games/{n}/revisions/{r}", func(w http.ResponseWriter, r *http.Request) {
		rev, err := strconv.Atoi(r.PathValue("r"))
		n, err2 := strconv.Atoi(r.PathValue("n"))
		if err != nil || err2 != nil {
			writeError(w, http.StatusBadRequest, "game and revision numbers expected")
			return
		}
		text, err := ed.RevisionText(r.Context(), n, rev)
		if err != nil {
			writeError(w, statusOf(err), err.Error())
			return
		}
		w.Header().Set("Content-Type", "application/x-chess-pdn; charset=utf-8")
		w.Write(text)
	})
	mux.HandleFunc("PUT /api/games/{n}/record", func(w http.ResponseWriter, r *http.Request) {
		if !allowWrite(w, r, o) {
			return
		}
		var body writeBody
		if !readBody(w, r, &body) {
			return
		}
		withGame(w, r, func(n int) (any, error) {
			text, err := body.recordText()
			if err != nil {
				return nil, err
			}
			return ed.Save(r.Context(), n, text, body.Base)
		})
	})
	mux.HandleFunc("POST /api/games", func(w http.ResponseWriter, r *http.Request) {
		if !allowWrite(w, r, o) {
			return
		}
		var body writeBody
		if !readBody(w, r, &body) {
			return
		}
		text, err := body.recordText()
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		added, err := ed.Add(r.Context(), text)
		if err != nil {
			writeError(w, writeStatus(err), err.Error())
			return
		}
		writeJSON(w, http.StatusOK, added)
	})
}

// withGame answers with what fn returns for the game of the path's n.
func withGame(w http.ResponseWriter, r *http.Request, fn func(n int) (any, error)) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		writeError(w, http.StatusBadRequest, "game number expected")
		return
	}
	v, err := fn(n)
	var ce *ConflictError
	if errors.As(err, &ce) {
		writeJSON(w, http.StatusConflict, map[string]any{"error": ce.Error(), "current": ce.Current, "base": ce.Base})
		return
	}
	if err != nil {
		writeError(w, writeStatus(err), err.Error())
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// writeStatus is the HTTP status of a writer's error.
func writeStatus(err error) int {
	if errors.Is(err, ErrBadRecord) {
		return http.StatusBadRequest
	}
	return statusOf(err)
}

// allowWrite reports whether r may write; when not, it has answered 403
// with the reason.
func allowWrite(w http.ResponseWriter, r *http.Request, o EditOptions) bool {
	refuse := func(msg string) bool {
		writeError(w, http.StatusForbidden, msg)
		return false
	}
	if !o.Enabled {
		return refuse("this server does not write games: " + o.Why)
	}
	if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r.Host) {
		return refuse("cross-origin request refused")
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return refuse("request from another site refused")
	}
	tok := r.Header.Get(TokenHeader)
	if o.Token == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(o.Token)) != 1 {
		if tok == "" {
			return refuse("this request carries no token: open the page with the link the server printed when it started (…/?token=…)")
		}
		return refuse("wrong token: open the page with the link the server printed when it started")
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, "a write's body is JSON (Content-Type: application/json)")
		return false
	}
	return true
}

// readBody decodes r's JSON body into v; when it cannot, it has answered.
func readBody(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxWriteBytes))
	if err := dec.Decode(v); err != nil {
		status := http.StatusBadRequest
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			status = http.StatusRequestEntityTooLarge
		}
		writeError(w, status, "request body: "+err.Error())
		return false
	}
	return true
}

// writeBody is the body of a write: a record as a tree, or as text.
type writeBody struct {
	Base   int         `json:"base"`
	Record *RecordJSON `json:"record,omitempty"`
	Text   string      `json:"text,omitempty"`
}

func (b writeBody) recordText() ([]byte, error) {
	switch {
	case b.Record != nil && b.Text != "":
		return nil, fmt.Errorf("%w: a record or a text, not both", ErrBadRecord)
	case b.Record != nil:
		return b.Record.Format()
	case strings.TrimSpace(b.Text) == "":
		return nil, fmt.Errorf("%w: no record given", ErrBadRecord)
	}
	return []byte(b.Text), nil
}
