package web

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"strconv"
	"sync"
)

// Handler serves the source's JSON API and the page:
//
//	GET /                 index.html of assets
//	GET /static/{file}    the other files of assets
//	GET /api/games        a ListPage: ?q=words&game=id&valid=valid|invalid|both&offset=N&limit=N
//	                      (and after, before, sort, desc=1, brief=1: ListQueryOf); any other
//	                      parameter is a database's search criterion (index.Criteria: player,
//	                      event, site, from, to, result, position, pattern…)
//	GET /api/games/{n}    Detail of game n (Summary.N)
//
// and those of the explorer (explorerRoutes in explore.go), of players,
// crosstables and statistics (peopleRoutes in people.go) and of the
// position set-up editor (setupRoutes in setup.go). Every /api/X is
// also /api/v1/X, the versioned paths that docs/api.md documents. It does
// not write games (HandlerWith).
func Handler(src Source, assets fs.FS) http.Handler {
	return HandlerWith(src, assets, EditOptions{Why: "the server was not started to (serve --edit)"})
}

// HandlerWith is Handler, writing games as o says (writeRoutes in
// write.go).
func HandlerWith(src Source, assets fs.FS, o EditOptions) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/games", func(w http.ResponseWriter, r *http.Request) {
		q, err := ListQueryOf(r.URL.Query())
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		if lj, ok := src.(JSONLister); ok {
			b, err := lj.ListJSON(r.Context(), q)
			if err != nil {
				writeError(w, statusOf(err), err.Error())
				return
			}
			writeRaw(w, b)
			return
		}
		page, err := src.List(r.Context(), q)
		if err != nil {
			writeError(w, statusOf(err), err.Error())
			return
		}
		writeJSON(w, http.StatusOK, page)
	})
	mux.HandleFunc("GET /api/games/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.PathValue("n"))
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "game number expected"})
			return
		}
		d, err := src.Detail(r.Context(), n)
		if errors.Is(err, ErrNoGame) {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": err.Error()})
			return
		}
		if err != nil {
			writeJSON(w, errorStatus(err), map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, d)
	})
	explorerRoutes(mux, src)
	peopleRoutes(mux, src)
	writeRoutes(mux, src, o)
	setupRoutes(mux)
	mux.HandleFunc("/api/v1/", versioned(mux))
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(assets)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		page, err := fs.ReadFile(assets, "index.html")
		if err != nil {
			http.Error(w, "page missing", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if d, ok := v.(*Detail); ok {
		// A game: written by hand (jsonfast.go), in one piece.
		bp, _ := jsonBufs.Get().(*[]byte)
		if bp == nil {
			bp = new([]byte)
		}
		defer func() {
			if cap(*bp) <= maxPooledJSON {
				jsonBufs.Put(bp)
			}
		}()
		b, err := d.appendJSON((*bp)[:0])
		if err == nil {
			*bp = append(b, '\n')
			w.Header().Set("Content-Length", strconv.Itoa(len(*bp)))
			w.WriteHeader(status)
			w.Write(*bp)
			return
		}
	}
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.Encode(v)
}

// writeRaw writes JSON encoded beforehand, with status 200.
func writeRaw(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// jsonBufs keeps the buffers of the games' JSON for the next request,
// those of up to maxPooledJSON bytes (a game of 4,000 plies is not kept).
var jsonBufs sync.Pool

const maxPooledJSON = 1 << 20
