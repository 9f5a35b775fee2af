package browse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay/web"
)

// Writing: the database's saves and adds (index.DB.SaveRecord,
// AddRecords) as a web.Editor. After a write the cached pages and trees
// are dropped and the counts made again in the background (a save does
// not change the last game id, by which the caches know the database
// changed).

var _ web.Editor = (*Source)(nil)

// EditDetail is Detail with the game's current revision, read with its
// text.
func (s *Source) EditDetail(ctx context.Context, n int) (*web.Detail, error) {
	rev, text, err := s.db.CurrentRevision(ctx, int64(n))
	if errors.Is(err, index.ErrNotFound) {
		return nil, fmt.Errorf("game %d: %w", n, web.ErrNoGame)
	}
	if err != nil {
		return nil, err
	}
	rec, rerr := record.NewReader(bytes.NewReader(text), "database").Next()
	if rerr != nil && rec == nil {
		return nil, fmt.Errorf("game %d: stored record unreadable: %w", n, rerr)
	}
	d := web.DetailOf(rec, s.opts, n, "database", n)
	if rerr != nil {
		d.Valid, d.Error = false, rerr.Error()
	}
	d.Revision = rev
	return d, nil
}

// Save stores text as game n's next revision if base is its current one.
func (s *Source) Save(ctx context.Context, n int, text []byte, base int) (web.Saved, error) {
	res, err := s.db.SaveRecord(ctx, int64(n), text, base)
	if res.Changed || err == nil {
		s.changed()
	}
	var ce *index.ConflictError
	switch {
	case errors.As(err, &ce):
		return web.Saved{}, &web.ConflictError{N: n, Base: ce.Base, Current: ce.Current}
	case errors.Is(err, index.ErrNotFound):
		return web.Saved{}, fmt.Errorf("game %d: %w", n, web.ErrNoGame)
	case errors.Is(err, index.ErrNotOneRecord):
		return web.Saved{}, fmt.Errorf("%w: %w", web.ErrBadRecord, err)
	case err != nil:
		return web.Saved{}, err
	}
	out := web.Saved{N: n, Revision: res.Revision, Changed: res.Changed, Valid: res.Valid, Note: res.Note}
	if f := res.Fault; f != nil {
		out.Error, out.Line, out.Ply, out.Move = f.Msg, f.Line, f.Ply, f.Move
	}
	return out, nil
}

// Add stores the records of text as new games.
func (s *Source) Add(ctx context.Context, text []byte) ([]web.AddedGame, error) {
	opts := s.opts
	if opts.DefaultGame == "" {
		opts.Detect = true // an untagged record's ruleset is detected
	}
	added, err := s.db.AddRecords(ctx, text, index.AddSource(time.Now(), "web"), opts)
	if len(added) > 0 {
		s.changed()
	}
	if errors.Is(err, index.ErrNotOneRecord) {
		return nil, fmt.Errorf("%w: %w", web.ErrBadRecord, err)
	}
	if err != nil {
		return nil, err
	}
	out := make([]web.AddedGame, len(added))
	for i, a := range added {
		out[i] = web.AddedGame{N: int(a.ID), Dup: a.Dup, Valid: a.Valid, Line: a.Line}
		if a.Fault != nil {
			out[i].Error = a.Fault.Msg
		}
	}
	return out, nil
}

// History lists game n's revisions.
func (s *Source) History(ctx context.Context, n int) ([]web.RevisionInfo, error) {
	revs, err := s.db.History(ctx, int64(n))
	if errors.Is(err, index.ErrNotFound) {
		return nil, fmt.Errorf("game %d: %w", n, web.ErrNoGame)
	}
	if err != nil {
		return nil, err
	}
	out := make([]web.RevisionInfo, len(revs))
	for i, r := range revs {
		out[i] = web.RevisionInfo{N: r.N, Size: r.Size, Valid: r.Valid, Note: r.Note, Current: r.Current}
		if !r.Time.IsZero() {
			out[i].Time = r.Time.UTC().Format(time.RFC3339)
		}
	}
	return out, nil
}

// RevisionText is the record text of revision r of game n.
func (s *Source) RevisionText(ctx context.Context, n, r int) ([]byte, error) {
	text, err := s.db.Revision(ctx, int64(n), r)
	if errors.Is(err, index.ErrNotFound) {
		return nil, fmt.Errorf("game %d revision %d: %w", n, r, web.ErrNoGame)
	}
	return text, err
}

// changed drops what was cached of the database: the next requests read
// it again.
func (s *Source) changed() {
	s.edits.Add(1)
	s.last.mu.Lock()
	s.last.at = time.Time{}
	s.last.mu.Unlock()
	s.counts.refresh()
}
