package index

import (
	"context"
	"fmt"
	"io"
	"sort"

	"github.com/plateau/plateau/index/internal/openings"
	"github.com/plateau/plateau/rules"
)

// Opening names (internal/openings): names given to positions, a game's
// opening the deepest named position its main line reaches. The games'
// openings are stored: computed for every game of a ruleset whose names
// change, for the new games after each import, for a game after its save.

// Opening is a named position of a ruleset.
type Opening = openings.Opening

// OpeningEntry is a named line of moves as a file gives it.
type OpeningEntry = openings.Entry

// OpeningError is an entry of a file of names that cannot be read or
// played: its file, line and move (errors.As).
type OpeningError = openings.Error

// ErrOpeningEntry: an entry of a file of names cannot be read or played.
var ErrOpeningEntry = openings.ErrEntry

// SplitOpeningCode is an opening name's ECO-style code and the name after
// it ("B20 Sicilienne": "B20", "Sicilienne"); "" and the name when it has
// none (openings.SplitCode).
func SplitOpeningCode(name string) (code, rest string) { return openings.SplitCode(name) }

// OpeningsMaxPly is the number of a game's first plies whose positions
// can name it.
const OpeningsMaxPly = openings.MaxPly

// ReadOpenings reads a file of names: records with an Opening tag, or
// lines "ruleset<TAB>name<TAB>moves". It keeps going after a bad entry
// (errs, *OpeningError).
func ReadOpenings(r io.Reader, file string) ([]OpeningEntry, []error) { return openings.Read(r, file) }

// OpeningsImport is what ImportOpenings did.
type OpeningsImport struct {
	Names int // the entries stored
	Games int // the games named, in the rulesets of the entries stored
}

// ImportOpenings plays each entry by its rules and stores the name of the
// position it reaches, replacing the name that position had; the entries
// that do not play are returned in errs (*OpeningError) and the others
// stored. The openings of every game of the rulesets of the entries
// stored are computed again (even when no name changed: importing a file
// again brings every game of its rulesets up to date), in the same
// transaction, under the import lock.
func (db *DB) ImportOpenings(ctx context.Context, es []OpeningEntry) (st OpeningsImport, errs []error, err error) {
	var os []Opening
	for _, e := range es {
		o, err := openings.Resolve(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		os = append(os, o)
	}
	err = db.writeOpenings(ctx, "import openings", func(tx openings.Execer) (map[string]bool, error) {
		return openings.Put(ctx, tx, os)
	}, &st.Games)
	if err == nil {
		st.Names = len(os)
	}
	return st, errs, err
}

// DeleteOpenings removes the names of a ruleset ("": every ruleset), and
// so the openings of its games; it returns the number of names removed.
func (db *DB) DeleteOpenings(ctx context.Context, game string) (int64, error) {
	if game != "" {
		rg, err := rules.Lookup(game)
		if err != nil {
			return 0, err
		}
		game = rg.ID()
	}
	var n int64
	err := db.writeOpenings(ctx, "delete openings", func(tx openings.Execer) (map[string]bool, error) {
		var err error
		n, err = openings.Delete(ctx, tx, game)
		return nil, err
	}, nil)
	return n, err
}

// writeOpenings runs change under the import lock in one transaction, after
// the openings of the games a killed import left out are computed, then
// computes again the openings of the games of the rulesets it changed.
func (db *DB) writeOpenings(ctx context.Context, what string, change func(openings.Execer) (map[string]bool, error), named *int) error {
	if db.readOnly {
		return fmt.Errorf("%s: %w (opened for queries only)", what, ErrReadOnly)
	}
	lock, err := db.waitImportLock(ctx)
	if err != nil {
		return err
	}
	defer lock.release()
	if err := db.catchUpOpenings(ctx); err != nil {
		return err
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	changed, err := change(tx)
	if err != nil {
		return err
	}
	if len(changed) > 0 {
		all, err := openings.Names(ctx, tx)
		if err != nil {
			return err
		}
		names := map[string]map[int64]int64{}
		for g := range changed {
			names[g] = all[g]
		}
		n, err := openings.Assign(ctx, tx, names, "1")
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if named != nil {
			*named = n
		}
	}
	return db.nameFull(tx.Commit())
}

// catchUpOpenings computes the openings of the valid games after the
// high-water mark (meta opening_hw) and moves the mark to the last game:
// after each import, and before the names change (a killed import's
// games).
func (db *DB) catchUpOpenings(ctx context.Context) error {
	if !db.openings {
		return nil
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	hw, err := db.metaInt(ctx, tx, "opening_hw")
	if err != nil {
		return err
	}
	var last int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM games`).Scan(&last); err != nil {
		return err
	}
	if last <= hw {
		return nil
	}
	names, err := openings.Names(ctx, tx)
	if err != nil {
		return err
	}
	if _, err := openings.Assign(ctx, tx, names, "id > ? AND id <= ?", hw, last); err != nil {
		return fmt.Errorf("opening names: %w", err)
	}
	if err := setMeta(ctx, tx, "opening_hw", last); err != nil {
		return err
	}
	return tx.Commit()
}

// refreshOpening computes the opening of game id again, after its save.
// The save is committed: a failure (a long openings import holding the
// writer past the busy timeout) is told (Options.Notice), not returned,
// and the game keeps its former opening until the names change.
func (db *DB) refreshOpening(ctx context.Context, id int64) {
	if err := db.computeOpening(ctx, id); err != nil {
		db.tell(fmt.Sprintf("game #%d is saved, but its opening was not computed again (%v): the next plateau openings import computes it", id, err))
	}
}

// computeOpening replaces the opening of game id by the one its stored
// move list reaches.
func (db *DB) computeOpening(ctx context.Context, id int64) error {
	if !db.openings {
		return nil
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := openings.Forget(ctx, tx, id); err != nil {
		return err
	}
	names, err := openings.Names(ctx, tx)
	if err != nil {
		return err
	}
	if _, err := openings.Assign(ctx, tx, names, "id = ?", id); err != nil {
		return fmt.Errorf("opening names: %w", err)
	}
	return tx.Commit()
}

// Openings lists the named positions of a ruleset ("": every one), by
// ruleset and name.
func (db *DB) Openings(ctx context.Context, game string) ([]Opening, error) {
	if !db.openings {
		return nil, nil
	}
	if game != "" {
		rg, err := rules.Lookup(game)
		if err != nil {
			return nil, err
		}
		game = rg.ID()
	}
	return openings.List(ctx, db.sql, game)
}

// OpeningGames counts the games whose opening is each named position of
// a ruleset ("": every ruleset), by Opening.ID: the games of that name
// exactly (a game counts under its deepest name only).
func (db *DB) OpeningGames(ctx context.Context, game string) (map[int64]int, error) {
	if !db.openings {
		return map[int64]int{}, nil
	}
	if game != "" {
		rg, err := rules.Lookup(game)
		if err != nil {
			return nil, err
		}
		game = rg.ID()
	}
	return openings.Counts(ctx, db.sql, game)
}

// GameOpenings reads the opening names of games: the name of each of ids
// that has one.
func (db *DB) GameOpenings(ctx context.Context, ids []int64) (map[int64]string, error) {
	if !db.openings {
		return map[int64]string{}, nil
	}
	return openings.Of(ctx, db.sql, ids)
}

// PositionNames names positions of the ruleset game: the name of each of
// positions that has one, by its index in positions.
func (db *DB) PositionNames(ctx context.Context, game string, positions []rules.Position) (map[int]string, error) {
	out := map[int]string{}
	if !db.openings || len(positions) == 0 {
		return out, nil
	}
	rg, err := rules.Lookup(game)
	if err != nil {
		return nil, err
	}
	keys := make([]int64, len(positions))
	for i, p := range positions {
		keys[i] = saltKey(rg.ID(), p.Key())
	}
	names, err := openings.At(ctx, db.sql, keys)
	if err != nil {
		return nil, err
	}
	for i, k := range keys {
		if n, ok := names[k]; ok {
			out[i] = n
		}
	}
	return out, nil
}

// OpeningOf is the opening of a line of positions of the ruleset game
// (the positions after each ply of a game's main line, the deepest last):
// the name of the deepest named one within OpeningsMaxPly plies, "" when
// none is named. It names a game that is not stored (a file replayed).
func (db *DB) OpeningOf(ctx context.Context, game string, line []rules.Position) (string, error) {
	line = line[:min(len(line), OpeningsMaxPly)]
	names, err := db.PositionNames(ctx, game, line)
	if err != nil || len(names) == 0 {
		return "", err
	}
	idx := make([]int, 0, len(names))
	for i := range names {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	return names[idx[len(idx)-1]], nil
}
