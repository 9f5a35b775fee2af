package index

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/index/internal/treeagg"
)

// A bulk import (internal/writer decides which import is) leaves the games
// table's player, date and event indexes (store.Deferred) out while it stores its
// games and builds them at its end (store's doc says why). An import of
// files of at least 32 MiB (bulk or into a large database) spools its
// opening-tree moves and adds them to the tree a group at a time and at
// its end (internal/writer's treespool.go).
//
// While a bulk import runs, its readers see games without those indexes: a
// player page is read by name word (internal/players) or, for invalid games, by a
// scan of the games table; a date or opponent filter scans; an opening
// tree counts the games settled (those stored before the import, then a
// group at a time). An import killed before its end leaves the indexes
// out and its last moves spooled: the next import, or the next writable
// open while no import runs, builds them (store.Restore) and settles them
// (writer.DB.SettleTree).

// restoreAtOpen builds, at a writable open, the deferred indexes that a
// killed bulk import left out and adds the opening-tree entries it
// spooled to the tree (internal/writer's treespool.go), unless an import
// holds the import lock (it does both at its end).
func (db *DB) restoreAtOpen(ctx context.Context) error {
	missing, err := store.Missing(ctx, db.sql)
	if err != nil {
		return err
	}
	spooled, err := treeagg.Pending(ctx, db.sql)
	if err != nil || (len(missing) == 0 && !spooled) {
		return err
	}
	lock, err := db.tryLock(importLockName)
	if err != nil || lock == nil {
		return err
	}
	defer lock.release()
	if len(missing) > 0 {
		db.tell(fmt.Sprintf("%s: building the indexes %s that an interrupted import left out", db.dir, strings.Join(missing, ", ")))
		if _, err := store.Restore(ctx, db.sql); err != nil {
			return err
		}
	}
	if spooled {
		db.tell(fmt.Sprintf("%s: counting in the opening tree the games that an interrupted import left out", db.dir))
		return db.writes().SettleTree(ctx)
	}
	return nil
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
