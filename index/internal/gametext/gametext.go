package gametext

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/plateau/plateau/index/internal/store"
)

// ErrNoGame: the games table has no row of that id.
var ErrNoGame = errors.New("no such game")

// RowQuerier is what reading a game's text needs: a database handle or a
// transaction.
type RowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Cache keeps the last text block decoded. The zero Cache is empty.
type Cache struct {
	id   int64
	data []byte
}

// Block returns text block id decoded, from c when it holds it, and keeps
// it in c.
func (c *Cache) Block(ctx context.Context, q RowQuerier, id int64) ([]byte, error) {
	if c.data != nil && c.id == id {
		return c.data, nil
	}
	data, err := readBlock(ctx, q, id)
	if err != nil {
		return nil, err
	}
	c.id, c.data = id, data
	return data, nil
}

// Read returns the canonical text of game id, its block read through c
// (ErrNoGame when there is no such game). The text is part of the block
// c keeps: the caller must not change it.
func Read(ctx context.Context, q RowQuerier, id int64, c *Cache) ([]byte, error) {
	block, off, n, err := locate(ctx, q, id)
	if err != nil {
		return nil, err
	}
	text, err := ReadAt(ctx, q, block, off, n, c)
	if err != nil {
		return nil, fmt.Errorf("game %d text: %w", id, err)
	}
	return text, nil
}

// ReadAt returns the text of n bytes at offset off of block, read through
// c (a text that an earlier revision of a game had, internal/revisions).
// The text is part of the block c keeps: the caller must not change it.
func ReadAt(ctx context.Context, q RowQuerier, block, off, n int64, c *Cache) ([]byte, error) {
	if n <= 0 {
		return nil, nil
	}
	data, err := c.Block(ctx, q, block)
	if err != nil {
		return nil, err
	}
	if off < 0 || off+n > int64(len(data)) {
		return nil, errors.New("bad block reference")
	}
	return data[off : off+n], nil
}

// locate returns where game id's text is: its block, offset and length.
func locate(ctx context.Context, q RowQuerier, id int64) (block, off, n int64, err error) {
	err = q.QueryRowContext(ctx, `SELECT tblock, toff, tlen FROM games WHERE id = ?`, id).Scan(&block, &off, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, 0, ErrNoGame
	}
	return block, off, n, err
}

// storedBlock returns text block id as stored (compressed).
func storedBlock(ctx context.Context, q RowQuerier, id int64) ([]byte, error) {
	var stored []byte
	err := q.QueryRowContext(ctx, `SELECT data FROM texts WHERE id = ?`, id).Scan(&stored)
	return stored, err
}

// readBlock reads and decodes text block id.
func readBlock(ctx context.Context, q RowQuerier, id int64) ([]byte, error) {
	stored, err := storedBlock(ctx, q, id)
	if err != nil {
		return nil, err
	}
	if store.BlockDict(stored) != 0 {
		return store.DecodeBlock(ctx, q, stored)
	}
	d, err := decoder()
	if err != nil {
		return nil, err
	}
	return d.DecodeAll(stored, nil)
}

// decoder is the decoder of whole blocks, shared: DecodeAll may be called
// from several goroutines at once.
var decoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
})
