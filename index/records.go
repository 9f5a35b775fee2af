package index

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Records calls fn with the canonical text of every game of the query, in
// id order (Limit applies; use a negative Limit for all).
func (db *DB) Records(ctx context.Context, q Query, fn func(id int64, text []byte) error) error {
	res, err := db.Search(ctx, q)
	if err != nil {
		return err
	}
	seen := map[int64]bool{}
	var cache blockCache
	for _, h := range res.Hits {
		if seen[h.ID] {
			continue
		}
		seen[h.ID] = true
		text, err := db.recordText(ctx, h.ID, &cache)
		if err != nil {
			return err
		}
		if err := fn(h.ID, text); err != nil {
			return err
		}
	}
	return nil
}

// Text is the canonical record text of a game.
func (db *DB) Text(ctx context.Context, id int64) ([]byte, error) {
	return db.recordText(ctx, id, &blockCache{})
}

// blockCache keeps the last text block read.
type blockCache struct {
	id   int64
	data []byte
}

func (db *DB) recordText(ctx context.Context, id int64, c *blockCache) ([]byte, error) {
	var block, off, n int64
	err := db.sql.QueryRowContext(ctx, `SELECT tblock, toff, tlen FROM games WHERE id = ?`, id).Scan(&block, &off, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	if c.data == nil || c.id != block {
		var stored []byte
		if err := db.sql.QueryRowContext(ctx, `SELECT data FROM texts WHERE id = ?`, block).Scan(&stored); err != nil {
			return nil, fmt.Errorf("game %d text: %w", id, err)
		}
		data, err := decompress(stored)
		if err != nil {
			return nil, fmt.Errorf("game %d text: %w", id, err)
		}
		c.id, c.data = block, data
	}
	if off < 0 || off+n > int64(len(c.data)) {
		return nil, fmt.Errorf("game %d text: bad block reference", id)
	}
	return c.data[off : off+n], nil
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

// maxBlocks bounds blockLRU: 128 blocks of 16 KiB (store.BlockSize), 2 MiB,
// many times the blocks a page of 100 neighbouring games spans.
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
