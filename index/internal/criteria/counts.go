package criteria

import "sync"

// Counts keeps counts, which a list asks for on every page and which
// cost a scan: a count is kept while the database is in the same State
// (a database being imported into grows, an edit removes games), for at
// most maxCounts queries. The zero Counts is empty and ready.
type Counts struct {
	mu   sync.Mutex
	last State
	m    map[string]int
}

// State is what a count depends on besides its query: the database's
// last game id and its count of edits (deletions and re-stored games).
type State [2]int64

const maxCounts = 1024

// Get is the count of key in state now, made by count when it is not
// kept.
func (c *Counts) Get(now State, key string, count func() (int, error)) (int, error) {
	c.mu.Lock()
	if c.m == nil || c.last != now || len(c.m) >= maxCounts {
		c.m, c.last = map[string]int{}, now
	}
	n, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return n, nil
	}
	n, err := count()
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	if c.last == now {
		c.m[key] = n
	}
	c.mu.Unlock()
	return n, nil
}
