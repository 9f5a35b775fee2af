package browse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay/web"
	"github.com/plateau/plateau/rules"
)

var _ web.Explorer = (*Source)(nil)

// Tree is the opening tree of a position of the ruleset game (a position
// in its notation, or moves from its start) in the games that criteria
// select (URL-encoded search criteria, index.ParseQuery), as `plateau
// tree` prints it.
func (s *Source) Tree(ctx context.Context, game, position, criteria string) ([]web.TreeMove, error) {
	b, err := s.TreeJSON(ctx, game, position, criteria)
	if err != nil {
		return nil, err
	}
	var out []web.TreeMove
	err = json.Unmarshal(b, &out)
	return out, err
}

// TreeJSON is Tree's moves as the server writes them ([] for none): a
// cached tree is served as it was encoded.
func (s *Source) TreeJSON(ctx context.Context, game, position, criteria string) ([]byte, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", web.ErrBadQuery, err)
	}
	pos, err := index.Position(g.ID(), position)
	if err != nil {
		return nil, badQuery(err)
	}
	q, crit, err := treeQuery(g.ID(), criteria)
	if err != nil {
		return nil, err
	}
	last, err := s.gen(ctx)
	if err != nil {
		return nil, err
	}
	key := treeKey{g.ID(), pos.Key(), crit}
	if b, ok := s.trees.get(key, last); ok {
		return b, nil
	}
	moves, err := s.db.FilteredTree(ctx, g.ID(), pos, q)
	if err != nil {
		return nil, badQuery(err)
	}
	tm := treeMoves(moves)
	if err := s.nameMoves(ctx, g.ID(), pos, tm); err != nil {
		return nil, err
	}
	b, err := encode(tm)
	if err != nil {
		return nil, err
	}
	s.trees.put(key, last, b)
	return b, nil
}

// treeQuery reads the criteria of a tree of ruleset game, and gives them
// back in one form (the tree cache's key).
func treeQuery(game, criteria string) (index.Query, string, error) {
	v, err := url.ParseQuery(criteria)
	if err != nil {
		return index.Query{}, "", web.BadQuery(fmt.Errorf("criteria: %w", err))
	}
	crit := v.Encode()
	v.Set("game", game)
	q, err := index.ParseQuery(v)
	if err != nil {
		return q, "", badQuery(err)
	}
	return q, crit, nil
}

// treeMoves are the moves of a tree as the web writes them.
func treeMoves(moves []index.TreeMove) []web.TreeMove {
	out := make([]web.TreeMove, len(moves))
	for i, m := range moves {
		t := web.TreeMove{Move: m.Move, Games: m.Games, Scored: m.Scored, Score: m.Score, First: m.First, Last: m.Last}
		if !m.WinsUnknown {
			t.Wins = &[2]int{m.Wins[0], m.Wins[1]}
		}
		for _, p := range m.Top {
			t.Top = append(t.Top, web.PlayerCount{Name: p.Name, Games: p.Games})
		}
		out[i] = t
	}
	return out
}

type treeKey struct {
	game     string
	key      uint64
	criteria string // URL-encoded, in the order of their names
}

// maxTrees bounds the trees kept: every reader of a database asks for the
// trees of the same first positions, and the tree of a position played in
// most games aggregates many rows. A tree is some 30 moves of 100 bytes.
const maxTrees = 4096

// Record is the stored (canonical) record of game n.
func (s *Source) Record(ctx context.Context, n int) ([]byte, error) {
	text, err := s.db.Text(ctx, int64(n))
	if errors.Is(err, index.ErrNotFound) {
		return nil, fmt.Errorf("game %d: %w", n, web.ErrNoGame)
	}
	return text, err
}

// Export writes the records of the list q, in its order, each game once
// (a position list names a game once per occurrence).
func (s *Source) Export(ctx context.Context, q web.ListQuery, w io.Writer) (int, error) {
	const page = 1000
	seen := map[int]bool{}
	n := 0
	for off := 0; ; off += page {
		q.Offset, q.Limit = off, page
		iq, err := s.query(q)
		if err != nil {
			return n, err
		}
		p, _, err := s.list(ctx, q, iq) // not kept in the page cache
		if err != nil {
			return n, err
		}
		for _, g := range p.Games {
			if seen[g.N] {
				continue
			}
			seen[g.N] = true
			text, err := s.Record(ctx, g.N)
			if err != nil {
				return n, err
			}
			if n > 0 {
				if _, err := io.WriteString(w, "\n"); err != nil {
					return n, err
				}
			}
			if _, err := w.Write(record.PDN(text)); err != nil { // PDN 3.0, as dbexport
				return n, err
			}
			n++
		}
		if len(p.Games) < page && !p.More {
			return n, nil
		}
	}
}

// Loading is a Source whose database is being filled by an import (the
// files of `plateau serve FILE…`); it reports the import's progress.
type Loading struct {
	*Source
	mu sync.Mutex
	st web.LoadStatus
}

var _ web.Loader = (*Loading)(nil)

// Load runs imp, an import into db (package internal/ingest's of the
// served files), in the background with opts, and returns the source,
// served while the import runs. done receives the import's outcome.
func Load(ctx context.Context, imp func(context.Context, index.ImportOptions) (index.ImportStats, error), opts index.ImportOptions, src *Source) (*Loading, <-chan error) {
	src.last.mu.Lock()
	src.last.ttl = 0 // the database grows under the server's eyes
	src.last.mu.Unlock()
	l := &Loading{Source: src, st: web.LoadStatus{Loading: true}}
	done := make(chan error, 1)
	progress := opts.Progress
	opts.Progress = func(st index.ImportStats) {
		l.set(st, nil)
		if progress != nil {
			progress(st)
		}
	}
	go func() {
		st, err := imp(ctx, opts)
		l.set(st, err)
		l.mu.Lock()
		l.st.Loading = false
		l.mu.Unlock()
		// The rulesets and totals are counted again once every game is in.
		src.counts.forget()
		done <- err
	}()
	return l, done
}

func (l *Loading) set(st index.ImportStats, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.st.Files, l.st.Records, l.st.Stored, l.st.Invalid, l.st.Duplicates = st.Files, st.Records, st.Stored, st.Invalid, st.Duplicates
	l.st.Bytes, l.st.TotalBytes = st.Bytes, st.TotalBytes
	if err != nil {
		l.st.Error = err.Error()
	}
}

// Status is the import's progress.
func (l *Loading) Status() web.LoadStatus {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.st
}

// List is the source's list; while the import runs, the rulesets and
// totals are counted afresh for every page.
func (l *Loading) List(ctx context.Context, q web.ListQuery) (web.ListPage, error) {
	if l.Status().Loading {
		l.Source.counts.forget()
	}
	return l.Source.List(ctx, q)
}

// ListJSON is List's page as JSON.
func (l *Loading) ListJSON(ctx context.Context, q web.ListQuery) ([]byte, error) {
	if l.Status().Loading {
		l.Source.counts.forget()
	}
	return l.Source.ListJSON(ctx, q)
}

// forget drops the cached counts: the next request counts again (the
// database grew).
func (c *counts) forget() {
	c.mu.Lock()
	c.at = time.Time{}
	c.mu.Unlock()
}
