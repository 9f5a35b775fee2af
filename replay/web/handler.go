package web

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"strconv"
)

// Handler serves the collection's JSON API and the page:
//
//	GET /                 index.html of assets
//	GET /static/{file}    the other files of assets
//	GET /api/games        {"games": [Summary…]}
//	GET /api/games/{n}    Detail of game n (1-based)
func Handler(c *Collection, assets fs.FS) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/games", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"games": c.Summaries()})
	})
	mux.HandleFunc("GET /api/games/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.PathValue("n"))
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "game number expected"})
			return
		}
		d, err := c.Detail(n)
		if errors.Is(err, ErrNoGame) {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": err.Error()})
			return
		}
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, d)
	})
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
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.Encode(v)
}
