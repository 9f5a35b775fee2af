package index

import (
	"context"
	"errors"
	"fmt"

	"github.com/plateau/plateau/index/internal/gametext"
	"github.com/plateau/plateau/index/internal/openings"
)

// Records calls fn with the canonical text of every game of the query, in
// id order (Limit applies; use a negative Limit for all), with an Opening
// tag naming the game's opening when it has one and its record has no
// Opening tag of its own (openings.WithTag): what an export writes.
func (db *DB) Records(ctx context.Context, q Query, fn func(id int64, text []byte) error) error {
	res, err := db.Search(ctx, q)
	if err != nil {
		return err
	}
	seen := map[int64]bool{}
	var cache blockCache
	var names map[int64]string
	for i, h := range res.Hits {
		if i%recordsBatch == 0 {
			if names, err = db.GameOpenings(ctx, hitIDs(res.Hits[i:min(i+recordsBatch, len(res.Hits))])); err != nil {
				return err
			}
		}
		if seen[h.ID] {
			continue
		}
		seen[h.ID] = true
		text, err := db.recordText(ctx, h.ID, &cache)
		if err != nil {
			return err
		}
		if name, ok := names[h.ID]; ok {
			text = openings.WithTag(text, name)
		}
		if err := fn(h.ID, text); err != nil {
			return err
		}
	}
	return nil
}

// recordsBatch is the number of games whose openings Records reads at once.
const recordsBatch = 1000

func hitIDs(hs []Hit) []int64 {
	ids := make([]int64, len(hs))
	for i, h := range hs {
		ids[i] = h.ID
	}
	return ids
}

// Text is the canonical record text of a game.
func (db *DB) Text(ctx context.Context, id int64) ([]byte, error) {
	return db.recordText(ctx, id, &blockCache{})
}

// blockCache keeps the last text block read (internal/gametext).
type blockCache = gametext.Cache

// recordText is the canonical text of game id, read through c; the text
// is part of the block c keeps.
func (db *DB) recordText(ctx context.Context, id int64, c *blockCache) ([]byte, error) {
	text, err := gametext.Read(ctx, db.sql, id, c)
	return text, notFound(id, err)
}

// notFound turns gametext's ErrNoGame into ErrNotFound.
func notFound(id int64, err error) error {
	if errors.Is(err, gametext.ErrNoGame) {
		return fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	return err
}

// Headers reads the named tags of the stored records of games ids (a
// game's record text is only read up to its movetext).
func (db *DB) Headers(ctx context.Context, ids []int64, names ...string) (map[int64]map[string]string, error) {
	return db.blocks.Headers(ctx, db.sql, ids, names...)
}

// WithText calls fn with the canonical record text of game id (ErrNotFound
// when there is none). The text is read from a block kept decoded when
// there is one (those of the list pages read: a reader opens the games of
// the page he sees); else its block is decoded only up to the game's end,
// into a buffer that is used again once fn returns: fn must not keep the
// text. It costs less than Text, which decodes the whole block into a new
// buffer, for a server asked for games one by one.
func (db *DB) WithText(ctx context.Context, id int64, fn func(text []byte) error) error {
	return notFound(id, db.blocks.WithText(ctx, db.sql, id, fn))
}
