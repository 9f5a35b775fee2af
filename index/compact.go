package index

import (
	"context"
	"fmt"
)

// CompactStats says what CompactPositions did.
type CompactStats struct {
	Runs        int   // runs merged (0: nothing to do)
	Occurrences int64 // occurrences in the merged run
}

// CompactPositions merges every position run into one (posrun's Compact:
// a lookup then reads one block, not one per run), calling progress (when
// not nil) with the blocks written so far and the number of blocks of the
// runs merged (the merged run has as many or fewer). It waits for any
// import, reindex or other compaction to end (the import lock; imports
// started meanwhile wait for it), then for a merge in flight.
func (db *DB) CompactPositions(ctx context.Context, progress func(done, total int64)) (CompactStats, error) {
	if db.readOnly {
		return CompactStats{}, fmt.Errorf("compact: %w", ErrReadOnly)
	}
	ilock, err := db.waitImportLock(ctx)
	if err != nil {
		return CompactStats{}, err
	}
	defer ilock.release()
	st, err := db.pos.Compact(ctx, progress)
	return CompactStats(st), err
}
