package writer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/plateau/plateau/index/internal/patsig"
)

// sigStore keeps the pattern signatures of a transaction's valid games
// (internal/patsig) and writes them by blocks of ids at its flush, each
// block merged with the block as stored; the entries kept belong to one
// transaction (tx): a rolled-back transaction's are dropped by the next.
type sigStore struct {
	tx      *sql.Tx
	entries []patsig.Entry
}

// hold keeps the signature of game id for the flush of tx; a game
// without one (its positions could not all be known) gets an empty one,
// which a scan never skips.
func (s *sigStore) hold(tx *sql.Tx, id int64, sig []byte) {
	if s.tx != tx {
		s.tx, s.entries = tx, s.entries[:0]
	}
	s.entries = append(s.entries, patsig.Entry{ID: id, Sig: sig})
}

// flush writes the signatures held for tx.
func (s *sigStore) flush(ctx context.Context, tx *sql.Tx) error {
	if s.tx != tx || len(s.entries) == 0 {
		return nil
	}
	es := patsig.SortEntries(s.entries)
	s.entries = s.entries[:0]
	for len(es) > 0 {
		b := patsig.BlockOf(es[0].ID)
		n := 1
		for n < len(es) && patsig.BlockOf(es[n].ID) == b {
			n++
		}
		var old []byte
		err := tx.QueryRowContext(ctx, `SELECT sigs FROM pattern_sigs WHERE block = ?`, b).Scan(&old)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store pattern signatures: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO pattern_sigs(block, sigs) VALUES(?, ?)`, b, patsig.Merge(b, old, es[:n])); err != nil {
			return fmt.Errorf("store pattern signatures: %w", err)
		}
		es = es[n:]
	}
	return nil
}
