package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// IDs are the ids of the rows a writer's games refer to by name — players,
// tag names and source files — each looked up or added once and kept
// from one transaction to the next; what a rolled-back transaction learnt
// is void (Forget).
type IDs struct {
	fold                   func(string) string
	players, tags, sources map[string]int64
}

// NewIDs returns an IDs that stores a player's name folded by fold beside
// it.
func NewIDs(fold func(string) string) *IDs {
	return &IDs{fold: fold, players: map[string]int64{}, tags: map[string]int64{}, sources: map[string]int64{}}
}

// Player is the id of the player of a name, added if new; nil for no
// name. A player is looked up, then inserted: an upsert with RETURNING id
// cost far more (its statement journal: docs/storage.md).
func (ids *IDs) Player(ctx context.Context, p Preparer, name string) (any, error) {
	if name == "" {
		return nil, nil
	}
	if id, ok := ids.players[name]; ok {
		return id, nil
	}
	sel, err := p.Stmt(ctx, `SELECT id FROM players WHERE name = ?`)
	var id int64
	if err == nil {
		err = sel.QueryRowContext(ctx, name).Scan(&id)
	}
	if errors.Is(err, sql.ErrNoRows) {
		var add *sql.Stmt
		if add, err = p.Stmt(ctx, `INSERT INTO players(name, folded) VALUES(?, ?)`); err == nil {
			var res sql.Result
			if res, err = add.ExecContext(ctx, name, ids.fold(name)); err == nil {
				id, err = res.LastInsertId()
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("player %q: %w", name, err)
	}
	ids.players[name] = id
	return id, nil
}

// Tag is the id of a tag name, added if new.
func (ids *IDs) Tag(ctx context.Context, p Preparer, name string) (int64, error) {
	id, err := ids.upsert(ctx, p, ids.tags, `INSERT INTO tag_names(name) VALUES(?) ON CONFLICT(name) DO UPDATE SET name = excluded.name RETURNING id`, name)
	if err != nil {
		return 0, fmt.Errorf("tag %q: %w", name, err)
	}
	return id, nil
}

// Source is the id of a source file's path, added if new.
func (ids *IDs) Source(ctx context.Context, p Preparer, file string) (int64, error) {
	return ids.upsert(ctx, p, ids.sources, `INSERT INTO sources(path) VALUES(?) ON CONFLICT(path) DO UPDATE SET path = excluded.path RETURNING id`, file)
}

// upsert is the id of key in cache, or else the id query returns for it.
func (ids *IDs) upsert(ctx context.Context, p Preparer, cache map[string]int64, query, key string) (int64, error) {
	if id, ok := cache[key]; ok {
		return id, nil
	}
	st, err := p.Stmt(ctx, query)
	var id int64
	if err == nil {
		err = st.QueryRowContext(ctx, key).Scan(&id)
	}
	if err != nil {
		return 0, err
	}
	cache[key] = id
	return id, nil
}

// ForgetPlayers forgets the players' ids (a player was removed).
func (ids *IDs) ForgetPlayers() { clear(ids.players) }

// Forget forgets every id learnt (a transaction was rolled back).
func (ids *IDs) Forget() {
	clear(ids.players)
	clear(ids.tags)
	clear(ids.sources)
}
