package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/plateau/plateau/index/internal/patsig"
	"github.com/plateau/plateau/index/internal/pattern"
	"github.com/plateau/plateau/internal/pipeline"
	"github.com/plateau/plateau/rules"
)

// upgrade13 turns a layout-13 database into layout 14 in one transaction
// (a kill leaves it at 13, and the next writable open starts again): the
// pattern signatures of the valid games (internal/patsig), written from
// their stored move lists as an import writes them (signAll), and the
// index of the games with a start position of their own
// (pattern.FENIndex), which a pattern search reads.
func (db *DB) upgrade13(ctx context.Context) error {
	return db.upgradeTx(ctx, 13, "pattern signatures of the games", func(tx *sql.Tx) error {
		for _, q := range []string{patsig.Table, pattern.FENIndex} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("upgrade to layout 14: %w", err)
			}
		}
		if err := signAll(ctx, tx); err != nil {
			return fmt.Errorf("upgrade to layout 14: %w", err)
		}
		return nil
	})
}

// sigGame is a stored game to sign, then its signature.
type sigGame struct {
	id    int64
	game  string
	fen   string
	final uint64
	moves []byte
	sig   []byte
}

// signAll writes the signature of every valid game, signed on every core
// (pattern.Signer) in batches read in id order. A game of a ruleset this
// program has not, or whose moves do not replay, gets an empty signature:
// a scan tests it.
func signAll(ctx context.Context, tx *sql.Tx) error {
	ins, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO pattern_sigs(block, sigs) VALUES(?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	block, blob := int64(-1), []byte(nil)
	write := func() error {
		if len(blob) == 0 {
			return nil
		}
		_, err := ins.ExecContext(ctx, block, blob)
		blob = blob[:0]
		return err
	}
	err = pipeline.Run(ctx, pipeline.Options{},
		func(ctx context.Context, emit func([]sigGame) error) error {
			return readSigGames(ctx, tx, emit)
		},
		func(context.Context) func([]sigGame) []sigGame {
			var s pattern.Signer
			return func(b []sigGame) []sigGame {
				for i := range b {
					if g, err := rules.Lookup(b[i].game); err == nil {
						b[i].sig = s.Sign(nil, g, b[i].fen, b[i].moves, b[i].final)
					}
				}
				return b
			}
		},
		func(b []sigGame) error {
			for _, g := range b {
				if patsig.BlockOf(g.id) != block {
					if err := write(); err != nil {
						return err
					}
					block = patsig.BlockOf(g.id)
				}
				blob = patsig.AppendEntry(blob, g.id, g.sig)
			}
			return nil
		})
	if err != nil {
		return err
	}
	return write()
}

// readSigGames reads the valid games in id order, in batches of 256.
func readSigGames(ctx context.Context, tx *sql.Tx, emit func([]sigGame) error) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, game, fen, final, moves FROM games WHERE valid = 1 ORDER BY id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var b []sigGame
	for rows.Next() {
		var g sigGame
		var fen sql.NullString
		var final sql.NullInt64
		if err := rows.Scan(&g.id, &g.game, &fen, &final, &g.moves); err != nil {
			return err
		}
		g.fen, g.final = fen.String, uint64(final.Int64)
		if b = append(b, g); len(b) == 256 {
			if err := emit(b); err != nil {
				return err
			}
			b = nil
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(b) > 0 {
		return emit(b)
	}
	return nil
}

// upgrade22 turns a layout-22 database into layout 23 in one transaction
// (a kill leaves it at 22): every pattern signature written in version 2
// (patsig.Convert: codes and slots by bitmap, the same bounds), which a
// layout-22 program does not read, into a new table written in block
// order that replaces pattern_sigs, so that its pages hold the shorter
// blobs. The old pages are given back after the commit, as upgrade18
// does.
func (db *DB) upgrade22(ctx context.Context) error {
	if err := db.upgradeTx(ctx, 22, "shorter pattern signatures", func(tx *sql.Tx) error {
		if err := convertSigs(ctx, tx); err != nil {
			return fmt.Errorf("upgrade to layout 23: %w", err)
		}
		return nil
	}); err != nil {
		return err
	}
	return db.giveBack(ctx)
}

// convertSigs writes pattern_sigs again with every signature converted
// (patsig.Convert); a blob that does not parse keeps its entries up to
// the fault, as patsig.Merge does.
func convertSigs(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{`DROP TABLE IF EXISTS pattern_sigs_old`, `ALTER TABLE pattern_sigs RENAME TO pattern_sigs_old`, patsig.Table} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO pattern_sigs(block, sigs) VALUES(?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	rows, err := tx.QueryContext(ctx, `SELECT block, sigs FROM pattern_sigs_old ORDER BY block`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var out []byte
	for rows.Next() {
		var block int64
		var blob []byte
		if err := rows.Scan(&block, &blob); err != nil {
			return err
		}
		out = out[:0]
		patsig.Entries(block, blob, func(id int64, sig []byte) {
			out = patsig.AppendEntry(out, id, patsig.Convert(sig))
		})
		if _, err := ins.ExecContext(ctx, block, out); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `DROP TABLE pattern_sigs_old`)
	return err
}
