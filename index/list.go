package index

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
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
	// After, when set, is where the page starts: the games that come after
	// this one in the list's order (a seek: the cost does not grow with the
	// depth of the page; Query.Offset then counts from there). Before
	// asks for the page that ends just before it instead.
	After, Before *ListCursor
}

// ListCursor is a place in a list: a game's id and its value of the
// sort column (Null when it has none). List gives the cursor of each of
// its games; ListIndex gives one every so many games of a whole list.
type ListCursor struct {
	ID    int64
	Value string
	Null  bool
}

// String writes the cursor as a token for a URL: the id, then the value
// ("7", "7:n" for no value, "7:vMori, Daichi").
func (c ListCursor) String() string {
	switch {
	case c.Null:
		return strconv.FormatInt(c.ID, 10) + ":n"
	case c.Value == "":
		return strconv.FormatInt(c.ID, 10)
	}
	return strconv.FormatInt(c.ID, 10) + ":v" + c.Value
}

// ParseListCursor reads a cursor written by String.
func ParseListCursor(s string) (ListCursor, error) {
	idText, rest, _ := strings.Cut(s, ":")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		return ListCursor{}, fmt.Errorf("%w: bad list cursor %q", ErrQuery, s)
	}
	c := ListCursor{ID: id}
	switch {
	case rest == "n":
		c.Null = true
	case strings.HasPrefix(rest, "v"):
		c.Value = rest[1:]
	case rest != "":
		return ListCursor{}, fmt.Errorf("%w: bad list cursor %q", ErrQuery, s)
	}
	return c, nil
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
// Position or Pattern: see Search), in the order asked, each with its
// cursor (for ListOptions.After and Before). Total is not counted here
// (see Count).
func (db *DB) List(ctx context.Context, q Query, o ListOptions) ([]ListHit, []ListCursor, error) {
	cond, args, empty, err := db.listWhere(ctx, &q, o)
	if err != nil || empty {
		return nil, nil, err
	}
	col, err := sortColumn(o.Sort)
	if err != nil {
		return nil, nil, err
	}
	desc, seek := o.Desc, o.After
	if o.Before != nil {
		// The page before: read backwards from the cursor, then turn round.
		desc, seek = !desc, o.Before
	}
	if seek != nil {
		c, a := seekCond(col, desc, *seek)
		cond, args = "("+cond+") AND "+c, append(args, a...)
	}
	sortCol := col
	if col == "g.id" {
		sortCol = "NULL"
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+hitCols+`, g.valid, `+sortCol+` FROM `+hitJoin+` WHERE `+cond+
		` ORDER BY `+orderBy(col, desc)+` LIMIT ? OFFSET ?`, append(args, q.limit(), max(q.Offset, 0))...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var out []ListHit
	var cursors []ListCursor
	for rows.Next() {
		var valid bool
		var v sql.NullString
		h, err := scanHit(rows, &valid, &v)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, ListHit{h, valid})
		c := ListCursor{ID: h.ID}
		if col != "g.id" {
			c.Value, c.Null = v.String, !v.Valid
		}
		cursors = append(cursors, c)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if o.Before != nil {
		slices.Reverse(out)
		slices.Reverse(cursors)
	}
	return out, cursors, nil
}

// ListIndex reads the whole list of q in the order of o (its offset,
// limit and cursors ignored) and returns the cursor of every every-th game
// (of games every-1, 2×every-1, …: a page that starts at offset k×every
// starts after the k-th) and the number of games. A list's deep pages are
// then seeks (ListOptions.After) instead of scans of every game before
// them.
func (db *DB) ListIndex(ctx context.Context, q Query, o ListOptions, every int) ([]ListCursor, int, error) {
	cond, args, empty, err := db.listWhere(ctx, &q, o)
	if err != nil || empty {
		return nil, 0, err
	}
	col, err := sortColumn(o.Sort)
	if err != nil {
		return nil, 0, err
	}
	from := "games g" // the filters are on games' columns
	if strings.HasPrefix(col, "a.") || strings.HasPrefix(col, "b.") {
		from = hitJoin
	}
	sortCol := col
	if col == "g.id" {
		sortCol = "NULL"
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT g.id, `+sortCol+` FROM `+from+` WHERE `+cond+` ORDER BY `+orderBy(col, o.Desc), args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []ListCursor
	n := 0
	for rows.Next() {
		n++
		if n%every != 0 {
			continue
		}
		var c ListCursor
		var v sql.NullString
		if err := rows.Scan(&c.ID, &v); err != nil {
			return nil, 0, err
		}
		if col != "g.id" {
			c.Value, c.Null = v.String, !v.Valid
		}
		out = append(out, c)
	}
	return out, n, rows.Err()
}

func sortColumn(sort string) (string, error) {
	if sort == "" {
		return "g.id", nil
	}
	c, ok := listColumns[sort]
	if !ok {
		return "", fmt.Errorf("%w: cannot sort by %q", ErrQuery, sort)
	}
	return c, nil
}

func orderBy(col string, desc bool) string {
	dir := ""
	if desc {
		dir = " DESC"
	}
	if col == "g.id" {
		return "g.id" + dir
	}
	return col + dir + ", g.id" + dir
}

// seekCond is the condition of the games after cursor c in the order of
// col (then id), ascending or descending. SQLite puts NULL first in an
// ascending order, last in a descending one.
func seekCond(col string, desc bool, c ListCursor) (string, []any) {
	if col == "g.id" {
		if desc {
			return "g.id < ?", []any{c.ID}
		}
		return "g.id > ?", []any{c.ID}
	}
	var v any = c.Value
	if col == "g.plies" {
		n, _ := strconv.Atoi(c.Value)
		v = n
	}
	switch {
	case c.Null && !desc:
		return "((" + col + " IS NULL AND g.id > ?) OR " + col + " IS NOT NULL)", []any{c.ID}
	case c.Null && desc:
		return "(" + col + " IS NULL AND g.id < ?)", []any{c.ID}
	case !desc:
		return "(" + col + " > ? OR (" + col + " = ? AND g.id > ?))", []any{v, v, c.ID}
	}
	return "(" + col + " < ? OR (" + col + " = ? AND g.id < ?) OR " + col + " IS NULL)", []any{v, v, c.ID}
}

// Count is the number of games List would list without a limit.
func (db *DB) Count(ctx context.Context, q Query, o ListOptions) (int, error) {
	cond, args, empty, err := db.listWhere(ctx, &q, o)
	if err != nil || empty {
		return 0, err
	}
	key := cond + "\x00" + fmt.Sprint(args...)
	if cond == "g.valid = ?" && len(args) == 1 && args[0] == true {
		// Every valid game: the table's count (SQLite counts the entries
		// of its smallest index) less the invalid games (a partial
		// index). Counting the valid rows read the whole games table: a
		// server on 2,000,000 games answered its first list page after
		// 12.7 s.
		return db.counts.get(ctx, db.sql, key, `SELECT (SELECT COUNT(*) FROM games) - (SELECT COUNT(*) FROM games WHERE valid = 0)`, nil)
	}
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
		return db.countOccurrences(ctx, salted, cond, args, limit, w.onlyValidGame())
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
	last [2]int64
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
	// The database's state: its last game id (imports) and its edit
	// count (deletions and re-stored games, edit.go).
	var id, edits sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT (SELECT MAX(id) FROM games), (SELECT v FROM meta WHERE k = '`+editsKey+`')`).Scan(&id, &edits); err != nil {
		return 0, err
	}
	last := [2]int64{id.Int64, edits.Int64}
	c.mu.Lock()
	if c.m == nil || c.last != last || len(c.m) >= maxCounts {
		c.m, c.last = map[string]int{}, last
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
	if c.last == last {
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

// WithText calls fn with the canonical record text of game id (ErrNotFound
// when there is none). The text is read from a block kept decoded when
// there is one (those of the list pages read: a reader opens the games of
// the page he sees); else its block is decoded only up to the game's end,
// into a buffer that is used again once fn returns: fn must not keep the
// text. It costs less than Text, which decodes the whole block into a new
// buffer, for a server asked for games one by one.
func (db *DB) WithText(ctx context.Context, id int64, fn func(text []byte) error) error {
	var block, off, n int64
	err := db.sql.QueryRowContext(ctx, `SELECT tblock, toff, tlen FROM games WHERE id = ?`, id).Scan(&block, &off, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return err
	}
	if off < 0 || n < 0 {
		return fmt.Errorf("game %d text: bad block reference", id)
	}
	if data, ok := db.blocks.get(block); ok {
		if off+n > int64(len(data)) {
			return fmt.Errorf("game %d text: bad block reference", id)
		}
		return fn(data[off : off+n])
	}
	var stored []byte
	if err := db.sql.QueryRowContext(ctx, `SELECT data FROM texts WHERE id = ?`, block).Scan(&stored); err != nil {
		return fmt.Errorf("game %d text: %w", id, err)
	}
	d, _ := zstreams.Get().(*zstd.Decoder)
	if d == nil {
		if d, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1)); err != nil {
			return err
		}
	}
	defer func() {
		d.Reset(nil) // drops the reference to stored
		zstreams.Put(d)
	}()
	if err := d.Reset(bytes.NewReader(stored)); err != nil {
		return fmt.Errorf("game %d text: %w", id, err)
	}
	bp, _ := textBufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	defer textBufs.Put(bp)
	if int64(cap(*bp)) < off+n {
		*bp = make([]byte, off+n)
	}
	buf := (*bp)[:off+n]
	if _, err := io.ReadFull(d, buf); err != nil {
		return fmt.Errorf("game %d text: %w", id, err)
	}
	return fn(buf[off:])
}

// zstreams and textBufs keep the streaming decoders and the buffers of
// WithText for the next call (a decoder's tables and a text buffer of up
// to a block are not made again for each game).
var (
	zstreams sync.Pool
	textBufs sync.Pool
)

// blockLRU keeps the last text blocks decompressed for Headers (a list
// reads the headers of a page of neighbouring games, which share blocks;
// readers of the first pages of a list share them too). Blocks are never
// changed once written, so a cached one stays right.
type blockLRU struct {
	mu    sync.Mutex
	order []int64 // least recently used first
	m     map[int64][]byte
}

// maxBlocks bounds blockLRU: 128 blocks of 16 KiB (blockSize), 2 MiB
// (a page of 100 games spans some 7).
const maxBlocks = 128

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
