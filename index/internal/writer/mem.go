package writer

import (
	"context"
	"sync"
	"time"

	"github.com/plateau/plateau/record"
)

// The memory an import holds is bounded whatever its records: a chunk's
// text and weight, the records and prepared rows between the reader and
// the writer (budget, maxInFlight), a transaction's held rows (txHeld)
// and text documents (maxTxDocs), and the record size limit of the reader.

// chunkBytes bounds the record text of a chunk (a chunk holds at most
// chunkSize records), maxTxDocs the text documents a transaction holds
// before it is committed whatever TxGames says (they go to the text index
// after the commit), and maxTxGames the games of a transaction when
// TxGames is 0: together with the record size limit and maxTxHeld they
// bound an import's memory, whatever the records.
const (
	chunkBytes  = 1 << 20
	maxTxDocs   = 32 << 20
	maxTxGames  = 200000
	maxInFlight = 64 << 20 // records read and not yet written (recordWeight)
)

// maxTxTime is how long a transaction of the default size stays open: an
// import stopped (Ctrl-C, a full disk, a kill) loses at most the games of
// its last maxTxTime, whatever the speed of the machine.
const maxTxTime = 5 * time.Second

// maxTxHeld bounds the rows (positions, tags, tree entries) a transaction
// holds in memory: beyond, they are stored before the commit
// (txn.flushHeld), the positions as a run of their own (Tuning.MaxTxHeld
// for tests). Large enough that a transaction's positions make one or two
// runs a level high, so that a level of merges is not done at all and a
// lookup during the import reads fewer runs (docs/import.md).
const maxTxHeld = 256 << 20

// txHeld is the bound of a transaction's held rows under Go's memory
// limit (GOMEMLIMIT, or the import's own, 1.5 GiB): maxHeld, or a sixth of
// the limit when that is less, and not under minTxHeld (tests set maxHeld
// lower), as sorting and encoding a run hold about twice its rows.
func txHeld(memLimit int64, maxHeld int) int {
	return int(min(int64(maxHeld), max(memLimit/6, minTxHeld)))
}

const minTxHeld = 16 << 20

// recordWeight estimates the memory a read record holds: its moves (a
// move costs about 200 bytes whatever its text), comments and tags.
func recordWeight(g *record.Game) int64 {
	if g == nil {
		return 256
	}
	n := int64(256)
	for _, t := range g.Tags {
		n += int64(len(t.Name)+len(t.Value)) + 32
	}
	for _, c := range g.Intro {
		n += int64(len(c)) + 16
	}
	var line func(l record.Line)
	line = func(l record.Line) {
		for _, m := range l {
			n += 200 + int64(len(m.Text)) + 8*int64(len(m.NAGs))
			for _, c := range m.Before {
				n += int64(len(c)) + 16
			}
			for _, c := range m.After {
				n += int64(len(c)) + 16
			}
			for _, v := range m.Variations {
				line(v)
			}
		}
	}
	line(g.Moves)
	return n
}

// helperNice is how much nicer than the writer the import's other
// goroutines run (reader, replay workers, text indexer), each on a thread
// of its own (nice.LowerThread): the writer is the one serial stage, and
// the others, which only need to keep ahead of it, yield it the processor.
// Where the priority cannot be lowered (LowerThread's error, ignored), a
// helper runs as it is: only the speed differs.
const helperNice = 5

// maxPrepared bounds the prepared chunks waiting for the writer (the
// memory budget binds first: 64 MiB is about 200 chunks of Ōgi games).
const maxPrepared = 1024

// preparedWeight estimates the memory a prepared game holds: its rows,
// texts and strings.
func preparedWeight(p *prepared) int64 {
	if p == nil {
		return 64
	}
	n := int64(512 + len(p.Moves) + cap(p.Text) + 24*cap(p.Pos) + 48*len(p.Tree) + len(p.Comment) + len(p.Annot) +
		len(p.Event) + len(p.Site) + len(p.FEN) + len(p.Players[0]) + len(p.Players[1]))
	for _, t := range p.Tags {
		n += int64(len(t.Name)+len(t.Value)) + 32
	}
	for _, w := range p.Warns {
		n += int64(len(w.Msg)) + 64
	}
	if p.Err != nil {
		n += int64(len(p.Err.Msg)+len(p.Err.Move)+len(p.Err.Rule)) + 64
	}
	return n
}

// budget bounds the memory of the records between the reader and the
// writer: the reader waits while what it would add passes the bound, unless
// nothing is held (a chunk larger than the bound goes alone).
type budget struct {
	mu    sync.Mutex
	used  int64
	max   int64
	freed chan struct{} // a signal to the (one) waiting reader
}

func newBudget(max int64) *budget { return &budget{max: max, freed: make(chan struct{}, 1)} }

func (b *budget) acquire(ctx context.Context, n int64) error {
	if b == nil {
		return nil
	}
	for {
		b.mu.Lock()
		if b.used == 0 || b.used+n <= b.max {
			b.used += n
			b.mu.Unlock()
			return nil
		}
		b.mu.Unlock()
		select {
		case <-b.freed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (b *budget) release(n int64) {
	if b == nil || n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	select {
	case b.freed <- struct{}{}:
	default:
	}
}

// inUse is the memory the budget counts as held.
func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}
