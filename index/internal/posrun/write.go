package posrun

import (
	"context"
	"database/sql"
)

// blockBytes is the encoded bytes of a block: five block rows fill a
// 16 KiB page (a block passes it by an occurrence at most, and a row's
// cell takes about 10 bytes more), and a row stays within a page of 4
// KiB, as older files have.
const blockBytes = 3240

// MaxRunsPerLevel is the number of runs of one size level that are merged
// into one: between merges, a level holds fewer.
const MaxRunsPerLevel = 8

// runLevel is the size level of a run of n occurrences.
func runLevel(n int64) int {
	l := 0
	for n >= 64<<10 {
		n >>= 3
		l++
	}
	return l
}

// runWriter appends a new run in a transaction.
type runWriter struct {
	ctx context.Context
	tx  Tx
	run int64
	ins *sql.Stmt
	enc *blockEncoder
}

func newRunWriter(ctx context.Context, tx Tx) (*runWriter, error) {
	run, err := nextRunID(ctx, tx)
	if err != nil {
		return nil, err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO pos_blocks(run, last, data) VALUES(?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	rw := &runWriter{ctx: ctx, tx: tx, run: run, ins: ins}
	rw.enc = newBlockEncoder(rw.insert)
	return rw, nil
}

// insert stores one block of the run.
func (rw *runWriter) insert(last int64, data []byte) error {
	_, err := rw.ins.ExecContext(rw.ctx, rw.run, last, data)
	return err
}

// list lists the run with its n occurrences (none: not listed) and closes
// the writer.
func (rw *runWriter) list(n int64) (int64, error) {
	defer rw.ins.Close()
	if n == 0 {
		return 0, nil
	}
	_, err := rw.tx.ExecContext(rw.ctx, `INSERT INTO pos_runs(run, entries, level) VALUES(?, ?, ?)`, rw.run, n, runLevel(n))
	return rw.run, err
}

// Write sorts occurrences and stores them as a new run.
func Write(ctx context.Context, tx Tx, ps []Pos) error {
	return WriteRun(ctx, tx, Encode(ps, nil))
}

// Encoded is a run's blocks, encoded before its transaction stores them
// (WriteRun): a writer sorts and encodes a commit's occurrences beside its
// other work.
type Encoded struct {
	blocks []encodedBlock
	N      int64      // occurrences
	filter *runFilter // nil: none
	counts []keyCount // its hot keys' (counts.go)
}

type encodedBlock struct {
	last int64
	data []byte
	end  int // data's end in the run's bytes, while encoding
}

// Encode sorts occurrences (in place) and encodes them as a run's blocks,
// as blockEncoder does (TestEncodeRun), into s's memory (s nil: memory of
// its own): the run is valid until the next Encode with s.
func Encode(ps []Pos, s *Scratch) Encoded {
	if s == nil {
		s = &Scratch{}
	}
	sortPositions(ps, s)
	// The blocks are written one after the other in arena, their ends
	// noted in blocks and sliced at the end (arena may move as it grows).
	buf := s.arena[:0]
	if cap(buf) < 12*len(ps) { // about 11 bytes an occurrence at most, keys being hashes
		s.arena = nil
		buf = make([]byte, 0, 12*len(ps)+len(ps)/4+blockBytes)
	}
	blocks := s.blocks[:0]
	filter := filterFor(int64(len(ps)))
	e := newBlockEncoder(func(last int64, data []byte) error {
		buf = append(buf, data...)
		blocks = append(blocks, encodedBlock{last: last, end: len(buf)})
		return nil
	})
	e.filter = filter
	for _, p := range ps {
		e.add(p.Key, p.At) // emit fails never
	}
	e.flush()
	n := e.n
	start := 0
	for i := range blocks {
		b := &blocks[i]
		b.data = buf[start:b.end:b.end]
		start = b.end
	}
	s.arena, s.blocks = buf, blocks
	return Encoded{blocks: blocks, N: n, filter: filter, counts: e.count.counts()}
}

// WriteRun stores an encoded run as a new run, with its filter; an empty
// run is not listed.
func WriteRun(ctx context.Context, tx Tx, r Encoded) error {
	if r.N == 0 {
		return nil
	}
	rw, err := newRunWriter(ctx, tx)
	if err != nil {
		return err
	}
	for _, b := range r.blocks {
		if err := rw.insert(b.last, b.data); err != nil {
			rw.ins.Close()
			return err
		}
	}
	run, err := rw.list(r.N)
	if err != nil {
		return err
	}
	if err := storeCounts(ctx, tx, run, r.counts); err != nil {
		return err
	}
	return storeFilter(ctx, tx, run, r.filter)
}

// storeFilter stores the filter of a run just listed (none: nil), in
// place of any row of its id.
func storeFilter(ctx context.Context, tx Tx, run int64, f *runFilter) error {
	if f == nil {
		_, err := tx.ExecContext(ctx, `DELETE FROM pos_filters WHERE run = ?`, run)
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO pos_filters(run, data) VALUES(?, ?)`, run, f.encode())
	return err
}
