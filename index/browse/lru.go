package browse

import (
	"container/list"
	"sync"
)

// lru is a cache of at most max values, the least recently used dropped
// first, each kept while the database's version (gen: index.DB.Version)
// is the one it was made under: a database being imported into grows, a
// game saved changes, and what was counted or listed before may have
// changed. It is safe for concurrent use.
type lru[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	gen   int64
	order *list.List // of *lruEntry, most recent first
	m     map[K]*list.Element
}

type lruEntry[K comparable, V any] struct {
	k K
	v V
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, order: list.New(), m: map[K]*list.Element{}}
}

// sync drops everything when gen is not the cache's generation; c.mu is
// held.
func (c *lru[K, V]) sync(gen int64) {
	if gen != c.gen {
		c.order.Init()
		clear(c.m)
		c.gen = gen
	}
}

func (c *lru[K, V]) get(k K, gen int64) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sync(gen)
	e, ok := c.m[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry[K, V]).v, true
}

func (c *lru[K, V]) put(k K, gen int64, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sync(gen)
	if e, ok := c.m[k]; ok {
		e.Value.(*lruEntry[K, V]).v = v
		c.order.MoveToFront(e)
		return
	}
	c.m[k] = c.order.PushFront(&lruEntry[K, V]{k, v})
	for c.order.Len() > c.max {
		last := c.order.Back()
		delete(c.m, last.Value.(*lruEntry[K, V]).k)
		c.order.Remove(last)
	}
}

// drop forgets k.
func (c *lru[K, V]) drop(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		delete(c.m, k)
		c.order.Remove(e)
	}
}

// len is the number of values kept.
func (c *lru[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
