package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// queriesOnly measures the queries of the database in Config.DBDir as it
// is (Config.QueriesOnly): no generation, no import. The query material is
// sampled from its stored games of the ruleset: up to Config.Queries ids
// spread evenly over the ids of every stored game, those of the ruleset
// and valid kept. A database of ten million games is measured in minutes,
// where generating and importing it again takes hours.
func (r *run) queriesOnly(ctx context.Context) error {
	cfg, rep := r.cfg, r.rep
	if cfg.DBDir == "" {
		return errors.New("queries only: which database? (--db)")
	}
	if cfg.Compact {
		if err := r.compact(ctx, cfg.DBDir, 0); err != nil {
			return err
		}
	}
	db, err := index.Open(ctx, cfg.DBDir, index.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	info, err := db.Info(ctx)
	if err != nil {
		return err
	}
	stored := 0
	rep.Games = 0
	for _, c := range info.Games {
		stored += c.Valid + c.Invalid
		if c.Game == rep.Game {
			rep.Games = c.Valid
		}
	}
	for i := range rep.Stages {
		if rep.Stages[i].Name == "compact" {
			rep.Stages[i].Count = rep.Games // known now
		}
	}
	if rep.Games == 0 {
		return fmt.Errorf("queries only: the database in %s holds no valid %s game", cfg.DBDir, rep.Game)
	}
	if rep.DBBytes, err = index.DiskSize(cfg.DBDir); err != nil {
		return err
	}
	r.logf("sampling the queries from the stored games…")
	smp, n, err := sampleStored(ctx, db, rep.Game, stored, cfg.Queries)
	if err != nil {
		return err
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("Queries only, on the database in %s as it is (%s valid %s games of %s stored): the query material is sampled from %d of its stored games, evenly spread over their ids.",
		cfg.DBDir, thousands(rep.Games), rep.Game, thousands(stored), n))
	if len(cfg.TreePlies) > 0 {
		return r.plyTrees(ctx, db, smp)
	}
	if err := r.queries(ctx, db, smp); err != nil {
		return err
	}
	return r.saves(ctx, cfg.DBDir, stored)
}

// sampleStored takes the query material of up to queries games of the
// ruleset game among the ids 1..stored, evenly spread; n is the number of
// games sampled.
func sampleStored(ctx context.Context, db *index.DB, game string, stored, queries int) (smp *sampler, n int, err error) {
	smp = newSampler(queries, queries)
	ids := make([]int64, 0, queries)
	for i := range queries {
		ids = append(ids, 1+int64(i)*int64(stored)/int64(queries))
	}
	res, err := db.Search(ctx, index.Query{Game: game, IDs: ids, Limit: queries})
	if err != nil {
		return nil, 0, err
	}
	for i, h := range res.Hits {
		text, err := db.Text(ctx, h.ID)
		if err != nil {
			return nil, n, err
		}
		rec, err := record.NewReader(bytes.NewReader(text), fmt.Sprintf("game %d", h.ID)).Next()
		if err != nil {
			return nil, n, fmt.Errorf("stored game %d: %w", h.ID, err)
		}
		g := replay.Replay(rec, replay.Options{})
		if g.Err != nil {
			return nil, n, fmt.Errorf("stored game %d: %v", h.ID, g.Err)
		}
		smp.take(i, g)
		n++
	}
	return smp, n, nil
}

// plyTrees measures the opening trees of the positions after each ply of
// Config.TreePlies, twice (Config.TreePlies).
func (r *run) plyTrees(ctx context.Context, db *index.DB, smp *sampler) error {
	for _, n := range r.cfg.TreePlies {
		if n < 1 || n > maxTreePly {
			return fmt.Errorf("tree plies: %d is not a ply from 1 to %d", n, maxTreePly)
		}
		r.logf("opening trees at ply %d…", n)
		for _, pass := range []string{"", ", again"} {
			name := fmt.Sprintf("opening tree (ply %d%s)", n, pass)
			if err := latency(r.rep, name, "positions after this ply of the sampled games", smp.plies[n], func(pos rules.Position) error {
				_, err := db.Tree(ctx, r.rep.Game, pos)
				return err
			}); err != nil {
				return err
			}
		}
	}
	return nil
}
