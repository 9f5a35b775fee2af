package web

import (
	"context"
	"net/http"
)

// A gate bounds the API requests working at once; the others wait for a
// turn in the order they came (a Go channel's waiting senders are served
// first in, first out), up to their deadline.
//
// Decisions: a pattern search (a scan of many games, seconds of processor
// time, up to the request timeout) waits for the one before it: several at
// once would take every processor from the page's short requests. The
// short requests (a list page, a game, a tree, a position) are not bounded
// unless asked (GuardOptions.MaxActive): admitting them a few at a time
// did not lower their p99 (the Go scheduler shares the processors well
// enough among requests of a millisecond or less: docs/queries.md). A download
// (/api/export) streams for as long as its selection and is not gated;
// nor are the page's static files.
type gate struct {
	turns chan struct{} // short API requests; nil: not bounded
	scans chan struct{} // pattern searches
}

func newGate(maxActive int) *gate {
	g := &gate{scans: make(chan struct{}, 1)}
	if maxActive > 0 {
		g.turns = make(chan struct{}, maxActive)
	}
	return g
}

// enter waits for r's turn; it reports false when r's context ended
// first. leave must be called after the work when enter reported true.
func (g *gate) enter(ctx context.Context, r *http.Request) (leave func(), ok bool) {
	ch := g.turns
	if r.URL.Query().Get("pattern") != "" {
		ch = g.scans
	}
	if ch == nil {
		return func() {}, true
	}
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, true
	case <-ctx.Done():
		return nil, false
	}
}
