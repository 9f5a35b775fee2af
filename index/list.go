package index

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// ListOptions tune List, the game list of a browser (plateau serve).
type ListOptions struct {
	// Sort is the column the list is ordered by: "id" (default), "game",
	// "white" (side 0's player), "black" (side 1's player), "result",
	// "event", "site", "date", "plies". Ties are in id order.
	Sort string
	Desc bool
	// AnyValidity lists valid and invalid games alike (Query.Invalid is
	// then ignored).
	AnyValidity bool
}

// ListHit is one line of List: a Hit and whether the game is valid.
type ListHit struct {
	Hit
	Valid bool
}

// listColumns maps ListOptions.Sort to SQL.
var listColumns = map[string]string{
	"id": "g.id", "game": "g.game", "white": "a.name", "black": "b.name", "result": "g.result",
	"event": "g.event", "site": "g.site", "date": "g.date", "plies": "g.plies",
}

// List is a page of the games matching the game-level criteria of q (not
// Position or Pattern: see Search), in the order asked. Total is not
// counted here (see Count).
func (db *DB) List(ctx context.Context, q Query, o ListOptions) ([]ListHit, error) {
	cond, args, empty, err := db.listWhere(ctx, &q, o)
	if err != nil || empty {
		return nil, err
	}
	col := "g.id"
	if o.Sort != "" {
		c, ok := listColumns[o.Sort]
		if !ok {
			return nil, fmt.Errorf("%w: cannot sort by %q", ErrQuery, o.Sort)
		}
		col = c
	}
	dir := ""
	if o.Desc {
		dir = " DESC"
	}
	order := col + dir
	if col != "g.id" {
		order += ", g.id" + dir
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+hitCols+`, g.valid FROM `+hitJoin+` WHERE `+cond+
		` ORDER BY `+order+` LIMIT ? OFFSET ?`, append(args, q.limit(), max(q.Offset, 0))...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ListHit
	for rows.Next() {
		var valid bool
		h, err := scanHit(rows, &valid)
		if err != nil {
			return nil, err
		}
		out = append(out, ListHit{h, valid})
	}
	return out, rows.Err()
}

// Count is the number of games List would list without a limit.
func (db *DB) Count(ctx context.Context, q Query, o ListOptions) (int, error) {
	cond, args, empty, err := db.listWhere(ctx, &q, o)
	if err != nil || empty {
		return 0, err
	}
	key := cond + "\x00" + fmt.Sprint(args...)
	return db.counts.get(ctx, db.sql, key, `SELECT COUNT(*) FROM games g WHERE `+cond, args)
}

func (db *DB) listWhere(ctx context.Context, q *Query, o ListOptions) (string, []any, bool, error) {
	if q.Position != nil || q.Pattern != nil {
		return "", nil, false, fmt.Errorf("%w: a position or pattern is searched with Search", ErrQuery)
	}
	w, empty, err := db.filters(ctx, q)
	if err != nil || empty {
		return "", nil, empty, err
	}
	if o.AnyValidity {
		cond, args := w.without(0) // filters' first condition is g.valid
		return cond, args, false, nil
	}
	return w.String(), append([]any(nil), w.args...), false, nil
}

// PositionCount counts the occurrences of q.Position (main lines and
// variations) in the games matching q's filters, up to limit: at most limit
// is returned, and more reports that there are more.
func (db *DB) PositionCount(ctx context.Context, q Query, limit int) (n int, more bool, err error) {
	if q.Position == nil {
		return 0, false, fmt.Errorf("%w: no position", ErrQuery)
	}
	if q.Game == "" {
		if q.Game, err = db.OnlyGame(ctx); err != nil {
			return 0, false, err
		}
	}
	w, empty, err := db.filters(ctx, &q)
	if err != nil || empty {
		return 0, false, err
	}
	salted := saltKey(q.Game, q.Position.Key())
	cond, args := w.String(), w.args
	n, err = db.counts.getFunc(ctx, db.sql, fmt.Sprint("position ", salted, cond, args, limit), func() (int, error) {
		return db.countOccurrences(ctx, salted, cond, args, limit)
	})
	if err != nil {
		return 0, false, err
	}
	if n > limit {
		return limit, true, nil
	}
	return n, false, nil
}

// countCache keeps counts, which a list asks for on every page and which
// cost a scan: a count is kept while the database has the same last game
// id (a database being imported into grows), for at most maxCounts
// queries.
type countCache struct {
	mu   sync.Mutex
	last int64
	m    map[string]int
}

const maxCounts = 1024

func (c *countCache) get(ctx context.Context, q queryer, key, query string, args []any) (int, error) {
	return c.getFunc(ctx, q, key, func() (n int, err error) {
		err = q.QueryRowContext(ctx, query, args...).Scan(&n)
		return n, err
	})
}

// getFunc is get with the count made by count.
func (c *countCache) getFunc(ctx context.Context, q queryer, key string, count func() (int, error)) (int, error) {
	var last sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(id) FROM games`).Scan(&last); err != nil {
		return 0, err
	}
	c.mu.Lock()
	if c.m == nil || c.last != last.Int64 || len(c.m) >= maxCounts {
		c.m, c.last = map[string]int{}, last.Int64
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
	if c.last == last.Int64 {
		c.m[key] = n
	}
	c.mu.Unlock()
	return n, nil
}

// Headers reads the named tags of the stored records of games ids (a
// game's record text is only read up to its movetext).
func (db *DB) Headers(ctx context.Context, ids []int64, names ...string) (map[int64]map[string]string, error) {
	out := make(map[int64]map[string]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	type ref struct{ id, block, off, n int64 }
	var refs []ref
	rows, err := db.sql.QueryContext(ctx, `SELECT id, tblock, toff, tlen FROM games WHERE id IN (SELECT value FROM json_each(?))`, jsonIDs(ids))
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var r ref
		if err := rows.Scan(&r.id, &r.block, &r.off, &r.n); err != nil {
			rows.Close()
			return nil, err
		}
		refs = append(refs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	blocks := map[int64][]byte{}
	for _, r := range refs {
		id, block, off, n := r.id, r.block, r.off, r.n
		data, ok := blocks[block]
		if !ok {
			if data, ok = db.blocks.get(block); !ok {
				var stored []byte
				if err := db.sql.QueryRowContext(ctx, `SELECT data FROM texts WHERE id = ?`, block).Scan(&stored); err != nil {
					return nil, fmt.Errorf("game %d text: %w", id, err)
				}
				if data, err = decompress(stored); err != nil {
					return nil, fmt.Errorf("game %d text: %w", id, err)
				}
				db.blocks.put(block, data)
			}
			blocks[block] = data
		}
		if off < 0 || off+n > int64(len(data)) {
			return nil, fmt.Errorf("game %d text: bad block reference", id)
		}
		out[id] = headerTags(data[off:off+n], names)
	}
	return out, nil
}

// blockLRU keeps the last text blocks decompressed for Headers (a list
// reads the headers of a page of neighbouring games, which share blocks;
// readers of the first pages of a list share them too). Blocks are never
// changed once written, so a cached one stays right.
type blockLRU struct {
	mu    sync.Mutex
	order []int64 // least recently used first
	m     map[int64][]byte
}

// maxBlocks bounds blockLRU: 32 blocks of 256 KiB, 8 MiB.
const maxBlocks = 32

func (c *blockLRU) get(id int64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	data, ok := c.m[id]
	if ok {
		i := slices.Index(c.order, id)
		c.order = append(slices.Delete(c.order, i, i+1), id)
	}
	return data, ok
}

func (c *blockLRU) put(id int64, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[int64][]byte{}
	}
	if _, ok := c.m[id]; ok {
		return
	}
	if len(c.order) >= maxBlocks {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[id] = data
	c.order = append(c.order, id)
}

// LastID is the id of the last game stored (0 for none): a cache of
// query results is right while it does not change.
func (db *DB) LastID(ctx context.Context) (int64, error) {
	var last sql.NullInt64
	err := db.sql.QueryRowContext(ctx, `SELECT MAX(id) FROM games`).Scan(&last)
	return last.Int64, err
}

// headerTags reads the tag pairs of a canonical record (one a line, each
// `[Name "value"]`, at the top) and keeps the named ones.
func headerTags(text []byte, names []string) map[string]string {
	tags := map[string]string{}
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if line[0] != '[' {
			break
		}
		name, rest, ok := bytes.Cut(line[1:], []byte(" "))
		if !ok {
			continue
		}
		for _, want := range names {
			if string(name) == want {
				v := bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("]"))
				v = bytes.TrimSuffix(bytes.TrimPrefix(v, []byte(`"`)), []byte(`"`))
				tags[want] = tagUnescape.Replace(string(v))
			}
		}
	}
	return tags
}

var tagUnescape = strings.NewReplacer(`\"`, `"`, `\\`, `\`)
