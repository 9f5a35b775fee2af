package gametext

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/plateau/plateau/index/internal/store"
)

// Querier is what Headers needs: a database handle or a transaction.
type Querier interface {
	RowQuerier
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Blocks keeps the last text blocks decoded for Headers and WithText, the
// least recently used dropped first. The zero Blocks is empty and ready;
// it is safe for concurrent use.
type Blocks struct {
	mu    sync.Mutex
	order []int64 // least recently used first
	m     map[int64][]byte
}

// maxBlocks bounds Blocks: 128 blocks of store.BlockSize (16 KiB), 2 MiB,
// many times the blocks a page of 100 neighbouring games spans.
const maxBlocks = 128

func (c *Blocks) get(id int64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	data, ok := c.m[id]
	if ok {
		i := slices.Index(c.order, id)
		c.order = append(slices.Delete(c.order, i, i+1), id)
	}
	return data, ok
}

func (c *Blocks) put(id int64, data []byte) {
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

// textRef is where a game's text is.
type textRef struct{ id, block, off, n int64 }

// Headers reads the named tags of the stored records of games ids (a
// game's record text is only read up to its movetext). A game missing
// from the games table is missing from the result.
func (c *Blocks) Headers(ctx context.Context, q Querier, ids []int64, names ...string) (map[int64]map[string]string, error) {
	out := make(map[int64]map[string]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	refs, err := locateAll(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	blocks := map[int64][]byte{}
	for _, r := range refs {
		data, ok := blocks[r.block]
		if !ok {
			if data, ok = c.get(r.block); !ok {
				if data, err = readBlock(ctx, q, r.block); err != nil {
					return nil, fmt.Errorf("game %d text: %w", r.id, err)
				}
				c.put(r.block, data)
			}
			blocks[r.block] = data
		}
		if r.off < 0 || r.off+r.n > int64(len(data)) {
			return nil, fmt.Errorf("game %d text: bad block reference", r.id)
		}
		out[r.id] = headerTags(data[r.off:r.off+r.n], names)
	}
	return out, nil
}

// locateAll returns where the texts of games ids are.
func locateAll(ctx context.Context, q Querier, ids []int64) ([]textRef, error) {
	j, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT id, tblock, toff, tlen FROM games WHERE id IN (SELECT value FROM json_each(?))`, string(j))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var refs []textRef
	for rows.Next() {
		var r textRef
		if err := rows.Scan(&r.id, &r.block, &r.off, &r.n); err != nil {
			return nil, err
		}
		refs = append(refs, r)
	}
	return refs, rows.Err()
}

// WithText calls fn with the canonical record text of game id (ErrNoGame
// when there is none). The text is read from a block kept decoded when
// there is one; else its block is decoded only up to the game's end, into
// a buffer that is used again once fn returns: fn must not keep the text.
// It costs less than Read, which decodes the whole block into a new
// buffer, for a server asked for games one by one.
func (c *Blocks) WithText(ctx context.Context, q RowQuerier, id int64, fn func(text []byte) error) error {
	block, off, n, err := locate(ctx, q, id)
	if err != nil {
		return err
	}
	if off < 0 || n < 0 {
		return fmt.Errorf("game %d text: bad block reference", id)
	}
	if data, ok := c.get(block); ok {
		if off+n > int64(len(data)) {
			return fmt.Errorf("game %d text: bad block reference", id)
		}
		return fn(data[off : off+n])
	}
	stored, err := storedBlock(ctx, q, block)
	if err != nil {
		return fmt.Errorf("game %d text: %w", id, err)
	}
	if store.BlockDict(stored) != 0 { // a dictionary's block: decoded whole
		data, err := store.DecodeBlock(ctx, q, stored)
		if err != nil {
			return fmt.Errorf("game %d text: %w", id, err)
		}
		if off+n > int64(len(data)) {
			return fmt.Errorf("game %d text: bad block reference", id)
		}
		return fn(data[off : off+n])
	}
	return decodePrefix(id, stored, off+n, func(buf []byte) error { return fn(buf[off:]) })
}

// decodePrefix calls fn with the first n bytes of the stored (compressed)
// block of game id's text, decoded into a buffer kept for the next call.
func decodePrefix(id int64, stored []byte, n int64, fn func(buf []byte) error) error {
	d, _ := zstreams.Get().(*zstd.Decoder)
	if d == nil {
		var err error
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
	if int64(cap(*bp)) < n {
		*bp = make([]byte, n)
	}
	buf := (*bp)[:n]
	if _, err := io.ReadFull(d, buf); err != nil {
		return fmt.Errorf("game %d text: %w", id, err)
	}
	return fn(buf)
}

// zstreams and textBufs keep the streaming decoders and the buffers of
// WithText for the next call (a decoder's tables and a text buffer of up
// to a block are not made again for each game).
var (
	zstreams sync.Pool
	textBufs sync.Pool
)
