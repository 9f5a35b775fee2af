package bench

import (
	"bytes"
	"context"
	"fmt"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
)

// saves measures Config.Saves saves of games of the database in dir (of
// games games): each game spread over the collection is read at its
// current revision, given one comment more and saved as its next
// revision, timed from the call to its return (its transaction, then the
// text index's update).
func (r *run) saves(ctx context.Context, dir string, games int) error {
	n := r.cfg.Saves
	if n <= 0 || games <= 0 {
		return nil
	}
	r.logf("saves…")
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = 1 + int64(i)*int64(games)/int64(n)%int64(games)
	}
	note := fmt.Sprintf("a comment added to a stored game, saved as a new revision; into %s games", thousands(games))
	return latency(r.rep, "save (new revision)", note, ids, func(id int64) error {
		rev, text, err := db.CurrentRevision(ctx, id)
		if err != nil {
			return err
		}
		g, err := record.NewReader(bytes.NewReader(text), "bench").Next()
		if err != nil {
			return fmt.Errorf("game #%d: %w", id, err)
		}
		g.Intro = append(g.Intro, fmt.Sprintf("Saved by plateau bench, revision %d.", rev+1))
		res, err := db.SaveRecord(ctx, id, record.Format(g), rev)
		if err == nil && !res.Changed {
			err = fmt.Errorf("game #%d: the save changed nothing", id)
		}
		return err
	})
}
