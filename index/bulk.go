package index

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/plateau/plateau/index/internal/store"
)

// A bulk import (internal/writer decides which import is) leaves the games
// table's player and date indexes (store.Deferred) out while it stores its
// games and builds them at its end (store's doc says why).
//
// While a bulk import runs, its readers see games without those indexes: a
// player page is read by name word (internal/players) or, for invalid games, by a
// scan of the games table; a date or opponent filter scans. A bulk import
// killed before it builds them leaves them out: the next import, or the
// next writable open while no import runs, builds them (store.Restore).

// restoreAtOpen builds, at a writable open, the deferred indexes that a
// killed bulk import left out, unless an import holds the import lock (it
// builds them at its end).
func (db *DB) restoreAtOpen(ctx context.Context) error {
	missing, err := store.Missing(ctx, db.sql)
	if err != nil || len(missing) == 0 {
		return err
	}
	lock, err := db.tryLock(importLockName)
	if err != nil || lock == nil {
		return err
	}
	defer lock.release()
	if db.notice != nil {
		db.notice(fmt.Sprintf("%s: building the indexes %s that an interrupted import left out", db.dir, strings.Join(missing, ", ")))
	}
	_, err = store.Restore(ctx, db.sql)
	return err
}

// playerIndexes tells whether the games' player indexes are there (a bulk
// import leaves them out while it runs).
func (db *DB) playerIndexes(ctx context.Context) (bool, error) {
	missing, err := store.Missing(ctx, db.sql)
	if err != nil {
		return false, err
	}
	return !slices.Contains(missing, "games_p0") && !slices.Contains(missing, "games_p1"), nil
}
