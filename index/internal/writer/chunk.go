package writer

import (
	"context"
	"errors"
	"io"

	"github.com/plateau/plateau/record"
)

// chunk is the unit of the pipeline: records of one file, then their rows.
type chunk struct {
	weight int64 // memory held by its records (estimated), taken from the budget
	recs   []Record
	preps  []*prepared
	aheads []*ahead // of preps' valid games, made by the replay workers
	file   string   // of its records
	done   *FileEnd // set: file ends with this chunk, read completely
	bytes  int64    // of file, read (as stored) since the chunk before
}

const chunkSize = 64

// chunker cuts records into chunks: at most chunkSize records, chunkBytes
// of text or of weight, one file's only; a file's end closes its last
// chunk, even an empty one. Each chunk takes its weight from the budget
// before it goes.
type chunker struct {
	ctx   context.Context
	emit  func(chunk) error
	mem   *budget
	c     chunk
	start int64 // offset of the chunk's first record
	read  int64 // Record.Read of c.file's last record
}

// records reads next into chunks until io.EOF or an error.
func (k *chunker) records(next func() (Record, error)) error {
	for {
		r, err := next()
		if errors.Is(err, io.EOF) {
			return k.flush()
		}
		if err != nil {
			if ferr := k.flush(); ferr != nil {
				return ferr
			}
			return err
		}
		if r.File != k.c.file {
			if err := k.flush(); err != nil {
				return err
			}
			k.c.file, k.read = r.File, 0
		}
		if r.Read > k.read {
			k.c.bytes += r.Read - k.read
			k.read = r.Read
		}
		if r.End != nil {
			k.c.done = r.End
			if err := k.send(); err != nil {
				return err
			}
			continue
		}
		if err := k.add(r); err != nil {
			return err
		}
	}
}

// add adds a record to the chunk, and sends the chunk when it is full.
func (k *chunker) add(r Record) error {
	c := &k.c
	off := recOffset(&r)
	if n := len(c.recs); n > 0 && off > 0 && c.recs[n-1].Size == 0 {
		c.recs[n-1].Size = off - recOffset(&c.recs[n-1])
	}
	if len(c.recs) == 0 {
		k.start = off
	}
	c.recs = append(c.recs, r)
	c.weight += recordWeight(r.Game)
	if len(c.recs) == chunkSize || off-k.start >= chunkBytes || c.weight >= chunkBytes {
		return k.send()
	}
	return nil
}

// flush sends the chunk if it holds anything.
func (k *chunker) flush() error {
	if len(k.c.recs) == 0 && k.c.bytes == 0 {
		return nil
	}
	return k.send()
}

func (k *chunker) send() error {
	if err := k.mem.acquire(k.ctx, k.c.weight); err != nil {
		return err
	}
	if err := k.emit(k.c); err != nil {
		return err
	}
	k.c = chunk{file: k.c.file}
	return nil
}

func recOffset(r *Record) int64 {
	if r.Game != nil {
		return r.Game.Pos.Offset
	}
	var re *record.Error
	if errors.As(r.Err, &re) {
		return re.Pos.Offset
	}
	return 0
}

// writeChunk stores a chunk's rows in the transaction, beginning one if
// none is open.
func (w *txn) writeChunk(ctx context.Context, c chunk, st *ImportStats) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.tx == nil {
		if err := w.begin(ctx); err != nil {
			return err
		}
	}
	// The statements of the transaction run without the cancellation: the
	// driver runs a cancellable statement in a goroutine of its own (a
	// few µs each, five statements a game). A cancelled import stops
	// between chunks, or at the next statement: database/sql rolls the
	// transaction back when ctx is done.
	err := w.writeRecords(context.WithoutCancel(ctx), c, st)
	if err == nil {
		// The blocks a merge beside the writer has ready (posrun.Beside).
		err = w.drainMerge(context.WithoutCancel(ctx), false)
	}
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// writeRecords adds a chunk's games, counting them, and when the chunk
// ends its file, finishes the file: the games its new read supersedes
// removed, the file marked done.
func (w *txn) writeRecords(ctx context.Context, c chunk, st *ImportStats) error {
	for i, p := range c.preps {
		st.Records++
		var a *ahead
		if i < len(c.aheads) {
			a = c.aheads[i]
		}
		_, dup, err := w.addAhead(ctx, p, a)
		if err != nil {
			return err
		}
		switch {
		case dup:
			st.Duplicates++
		case p.Valid:
			st.Stored++
			st.Valid++
		default:
			st.Stored++
			st.Invalid++
		}
	}
	st.Bytes += c.bytes
	if c.done == nil {
		return nil
	}
	if _, err := w.ids.Source(ctx, txStmts{w}, c.file); err != nil {
		return err
	}
	if err := w.finishSource(ctx, c.file); err != nil {
		return err
	}
	st.Replaced = w.replaced
	_, err := w.tx.ExecContext(ctx, `UPDATE sources SET done = ?, size = ?, mtime = ? WHERE path = ?`,
		!c.done.Stream, c.done.Size, c.done.ModTime, c.file)
	return err
}
