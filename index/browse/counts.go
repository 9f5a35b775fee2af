package browse

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/plateau/plateau/index"
)

// The cached counts are counted again (in the background: requests keep
// the old ones meanwhile) when the database's version changes (a commit
// by any process: index.DB.Version), so that games imported, saved or
// deleted while the server runs show up, or once they are
// countsTTL old. A count scans every game (docs/queries.md), which a server under
// load should not pay every minute for nothing.
const countsTTL = 10 * time.Minute

// countsTimeout bounds one count of the database.
const countsTimeout = 2 * time.Minute

// counts caches the games per ruleset and validity (index.Info): the
// rulesets of the page's filter, and the total of a list filtered by
// ruleset and validity alone, without a scan of the games per request.
//
// They are counted under a context of their own, never a request's: a client
// that leaves does not cancel them, and a failure is not kept (the next
// request counts again).
type counts struct {
	db *index.DB

	mu      sync.Mutex
	games   []index.GameCount
	at      time.Time     // when games were counted; zero: never
	last    int64         // the database version when they were counted
	running chan struct{} // closed when the count under way ends
	err     error         // of the last count, if it failed
}

// get returns the counts and the database version they were made at,
// counting them if there are none yet (waiting at most as long as ctx) or
// if they are older than countsTTL or than the database (in the
// background).
func (c *counts) get(ctx context.Context) ([]index.GameCount, int64, error) {
	last, err := c.db.Version(ctx)
	if err != nil {
		return nil, 0, err
	}
	c.mu.Lock()
	if !c.at.IsZero() {
		if (time.Since(c.at) > countsTTL || last != c.last) && c.running == nil {
			c.start()
		}
		g, v := c.games, c.last
		c.mu.Unlock()
		return g, v, nil
	}
	if c.running == nil {
		c.start()
	}
	ch := c.running
	c.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() {
		return nil, 0, c.err
	}
	return c.games, c.last, nil
}

// start counts in the background; c.mu is held.
func (c *counts) start() {
	ch := make(chan struct{})
	c.running = ch
	go func() {
		defer close(ch)
		ctx, cancel := context.WithTimeout(context.Background(), countsTimeout)
		defer cancel()
		last, err := c.db.Version(ctx)
		if err != nil {
			c.mu.Lock()
			c.running, c.err = nil, err
			c.mu.Unlock()
			return
		}
		info, err := c.db.Info(ctx)
		c.mu.Lock()
		defer c.mu.Unlock()
		c.running = nil
		if err != nil {
			c.err = errors.Join(errors.New("counting the games"), err)
			return
		}
		c.games, c.at, c.last, c.err = info.Games, time.Now(), last, nil
	}()
}

// Warm starts counting the games in the background, so that the first
// page of the list does not wait for the count (a server calls it when it
// starts).
func (s *Source) Warm() {
	s.counts.mu.Lock()
	defer s.counts.mu.Unlock()
	if s.counts.at.IsZero() && s.counts.running == nil {
		s.counts.start()
	}
}

// total is the number of games of ruleset game ("" for all) that are
// valid or not.
func total(games []index.GameCount, game string, invalid bool) int {
	n := 0
	for _, g := range games {
		if game != "" && g.Game != game {
			continue
		}
		if invalid {
			n += g.Invalid
		} else {
			n += g.Valid
		}
	}
	return n
}

// refresh counts again in the background, keeping the counts there are
// meanwhile (a game saved may have changed its validity).
func (c *counts) refresh() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && c.running == nil {
		c.start()
	}
}
