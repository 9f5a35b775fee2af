package browse

import (
	"context"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/replay/web"
)

// Paging through a list of a million games: a page is read after the
// cursor of the game before it (ListQuery.After, Before: the ▶ and ◀ of
// the page), a seek whose cost does not depend on the depth of the page.
// A jump to page k (an offset) seeks too, through the list's page index:
// the cursor of every indexEvery-th game, read by one scan of the whole
// list when a deep offset is first asked for (that request and those that
// come meanwhile wait for it: an OFFSET scan of each would repeat it in
// part). Indexes are kept while the database does not grow, for
// maxIndexes lists, one made at a time (a deep page of another list asked
// for meanwhile is an OFFSET scan).

// indexEvery is the distance between two cursors of a page index: a page
// that starts between them skips fewer than indexEvery games.
const indexEvery = 100

// indexFrom is the offset from which a page index is made: skipping fewer
// games costs little, once for each page (pages are cached), while the
// index scans the whole list (docs/queries.md).
const indexFrom = 10000

// maxIndexes bounds the page indexes kept (some 10,000 cursors each for a
// list of a million games: under a megabyte).
const maxIndexes = 16

// indexTimeout bounds the scan that makes one page index.
const indexTimeout = 2 * time.Minute

// pageIndex is the cursors of a list, or, while they are being read, a
// channel closed when they are.
type pageIndex struct {
	cursors []index.ListCursor
	n       int
	done    chan struct{}
}

// seek turns q's cursor or deep offset into a seek of o (and iq's offset
// into the distance from it).
func (s *Source) seek(ctx context.Context, q web.ListQuery, iq *index.Query, o *index.ListOptions) error {
	for cur, dst := range map[string]**index.ListCursor{q.After: &o.After, q.Before: &o.Before} {
		if cur == "" {
			continue
		}
		c, err := index.ParseListCursor(cur)
		if err != nil {
			return web.BadQuery(err)
		}
		*dst = &c
		iq.Offset = 0 // the page starts at the cursor
	}
	if o.After != nil || o.Before != nil || iq.Offset < s.from {
		return nil
	}
	last, err := s.gen(ctx)
	if err != nil {
		return err
	}
	key := q
	key.Offset, key.Limit, key.After, key.Before = 0, 0, "", ""
	pi, ok := s.indexes.get(key, last)
	if !ok {
		if pi = s.makeIndex(key, *iq, *o, last); pi == nil {
			return nil // another list's index is being made: an OFFSET scan
		}
	}
	// Wait for the index: it is made by one scan of the list, which an
	// OFFSET scan for each deep page would repeat in part.
	select {
	case <-pi.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	k := iq.Offset / s.every
	if k == 0 || pi.cursors == nil {
		return nil
	}
	k = min(k, len(pi.cursors))
	c := pi.cursors[k-1]
	o.After = &c
	iq.Offset -= k * s.every
	return nil
}

// makeIndex starts making the page index of the list key (iq and o its
// query) and returns it, unless another is being made (nil).
func (s *Source) makeIndex(key web.ListQuery, iq index.Query, o index.ListOptions, last int64) *pageIndex {
	select {
	case s.indexing <- struct{}{}:
	default:
		return nil // one at a time
	}
	pi := &pageIndex{done: make(chan struct{})}
	s.indexes.put(key, last, pi)
	go func() {
		defer func() { <-s.indexing }()
		defer close(pi.done)
		ctx, cancel := context.WithTimeout(context.Background(), indexTimeout)
		defer cancel()
		cursors, n, err := s.db.ListIndex(ctx, iq, o, s.every)
		if err != nil {
			// Not kept: the next deep page tries again.
			s.indexes.drop(key)
			return
		}
		pi.cursors, pi.n = cursors, n
		if pi.cursors == nil {
			pi.cursors = []index.ListCursor{}
		}
	}()
	return pi
}
