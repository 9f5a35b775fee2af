package browse

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/plateau/plateau/index"
)

// countsTTL is how long the cached counts are served before they are
// counted again (in the background: requests keep the old ones meanwhile),
// so that games imported while the server runs show up.
const countsTTL = time.Minute

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
	running chan struct{} // closed when the count under way ends
	err     error         // of the last count, if it failed
}

// get returns the counts, counting them if there are none yet (waiting at
// most as long as ctx) or if they are older than countsTTL (in the
// background).
func (c *counts) get(ctx context.Context) ([]index.GameCount, error) {
	c.mu.Lock()
	if !c.at.IsZero() {
		if time.Since(c.at) > countsTTL && c.running == nil {
			c.start()
		}
		g := c.games
		c.mu.Unlock()
		return g, nil
	}
	if c.running == nil {
		c.start()
	}
	ch := c.running
	c.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() {
		return nil, c.err
	}
	return c.games, nil
}

// start counts in the background; c.mu is held.
func (c *counts) start() {
	ch := make(chan struct{})
	c.running = ch
	go func() {
		defer close(ch)
		ctx, cancel := context.WithTimeout(context.Background(), countsTimeout)
		defer cancel()
		info, err := c.db.Info(ctx)
		c.mu.Lock()
		defer c.mu.Unlock()
		c.running = nil
		if err != nil {
			c.err = errors.Join(errors.New("counting the games"), err)
			return
		}
		c.games, c.at, c.err = info.Games, time.Now(), nil
	}()
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
