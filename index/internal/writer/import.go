package writer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"time"

	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/internal/nice"
	"github.com/plateau/plateau/internal/pipeline"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// ImportOptions tune an import.
type ImportOptions struct {
	// DefaultGame is the ruleset of records with neither Game nor GameType
	// tag (the CLI passes "draughts", PDN's default).
	DefaultGame string
	// Detect chooses the ruleset of an untagged record that fits 8×8
	// (replay.Options.Detect).
	Detect bool
	// Workers replaying records; 0 means one per CPU.
	Workers int
	// TxGames is the number of games per transaction. 0 means a tenth of
	// the games in the database, at least 5000 and at most maxTxGames, or
	// fewer, those written in maxTxTime; a transaction also ends when its
	// text documents weigh maxTxDocs, and
	// its rows are stored before the commit whenever they weigh txHeld
	// (txn.flushHeld), so that its memory stays bounded. A commit
	// rewrites every page it touches of the random-key B-trees (the tree,
	// tags, the games' indexes: about 210 bytes a game), so a large
	// database takes large transactions, and a writer's page cache that
	// holds those pages until the commit (store.WriterCacheKiB).
	TxGames int
	// Replace removes the games stored from a file before that its new read
	// does not hold (see supersede.go; without it, only the games that a
	// different record replaces at the same offset or line are removed).
	Replace bool
	// Bytes is the size of the records' files as stored, when known
	// (importers.SourceStats.Bytes): ImportStats.TotalBytes, and whether
	// the import is bulk (bulk.go).
	Bytes int64
	// Progress, if set, is called from time to time and at the end, from
	// the goroutine that called Import.
	Progress func(ImportStats)
}

// Record is one input of an import: a record read from a file, or the end
// of a file read completely (End).
type Record struct {
	Game *record.Game // nil when the reader could not make a game of the text
	Err  error        // the read error, if any (*record.Error)
	// File is the record's file as stored: its provenance, and what a new
	// read of the same file supersedes (supersede.go).
	File string
	// Size is the bytes of source text the record took; 0: the distance
	// to the next record of its chunk, when both have offsets.
	Size int64
	// Read is how far into File the reader is after this record, in bytes
	// as the file is stored (ImportStats.Bytes); 0 if unknown.
	Read int64
	// End, when set, makes this no record but the end of File, read to its
	// end: the import marks the file imported and removes the games that
	// its new read supersedes. A file that fails has no End.
	End *FileEnd
}

// FileEnd is what an import keeps of a file read completely.
type FileEnd struct {
	Size, ModTime int64 // as read (ModTime in Unix nanoseconds)
	// Stream marks standard input: it is never found imported again.
	Stream bool
}

// ImportStats count what an import did.
type ImportStats struct {
	// Files, SkippedFiles and Unreadable are the reader's counts (package
	// internal/ingest fills them); Import counts the rest.
	Files        int   // files read
	SkippedFiles int   // files skipped: already imported, unchanged
	Unreadable   int   // files (or directories) that could not be read
	Records      int   // records read
	Stored       int   // games added to the database
	Valid        int   // of which valid
	Invalid      int   // of which invalid (listed by Errors)
	Duplicates   int   // records whose canonical form was already stored
	Replaced     int   // games removed: superseded by a new read of their file
	Committed    int   // of Stored, the games committed (the rest was rolled back)
	Bytes        int64 // bytes of the files stored so far, as stored (compressed); decoded for stdin
	TotalBytes   int64 // size of the input files (ImportOptions.Bytes)
	TextIndexed  int   // games added to the text index
	Elapsed      time.Duration
}

// Import replays each record of next through its rules and stores it, in
// order; next returns io.EOF at the end. It returns what it did; an error
// stops the import (what was committed stays, and running the same import
// again completes it). An error of next ends the input: the records before
// it are stored, then the error is returned. The caller holds the import
// lock.
func (d *DB) Import(ctx context.Context, next func() (Record, error), opts ImportOptions) (ImportStats, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r, err := d.newImportRun(ctx, cancel, opts)
	if err != nil {
		return r.st, err
	}
	defer r.close()
	werr, perr := r.pipeline(ctx, next)
	return r.finish(ctx, werr, perr)
}

// importRun is one import: what its stages share.
type importRun struct {
	d         *DB
	opts      ImportOptions
	st        ImportStats
	start     time.Time
	inDB      int64 // games in the database before: TxGames 0, the writer's cache, bulk
	mem       *budget
	cancel    context.CancelCauseFunc // a failing stage cancels the others, with its error as the cause
	w         *txn
	release   func() // gives the writer's connection back
	wc        *store.Writer
	ckpt      *store.Checkpointer
	text      *textStage
	bulk      bool
	heldLimit int
	// The writer's pace: the last progress report, and (debugTiming) the
	// time it waited for chunks.
	lastProgress, lastWrite time.Time
	waited                  time.Duration
	txStart                 time.Time // the transaction's first write
}

// newImportRun prepares an import: the text index caught up, the writer
// on its connection, the deferred indexes dropped for a bulk import (or
// built, those a killed one left out), the checkpointer beside it.
func (d *DB) newImportRun(ctx context.Context, cancel context.CancelCauseFunc, opts ImportOptions) (*importRun, error) {
	r := &importRun{d: d, opts: opts, start: time.Now(), cancel: cancel, mem: newBudget(maxInFlight)}
	r.st.TotalBytes = opts.Bytes
	if err := d.CatchUpText(ctx); err != nil {
		return r, err
	}
	if _, err := zenc(); err != nil {
		return r, err
	}
	if err := d.SQL.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM games`).Scan(&r.inDB); err != nil {
		return r, err
	}
	r.w = d.newTxn()
	r.w.replace = opts.Replace
	r.w.bgMerge = !d.Tuning.SyncMerge
	wc, release, err := store.WriterConn(ctx, d.SQL, r.inDB)
	if err != nil {
		r.w.stopMerge()
		return r, err
	}
	raw := store.NewRawStmts(wc.Conn)
	r.w.conn, r.w.raw, r.wc = wc.Conn, raw, wc
	r.release = func() {
		raw.Close() // before the connection
		release()
	}
	if err := r.deferIndexes(ctx); err != nil {
		r.release()
		r.w.stopMerge()
		return r, err
	}
	r.ckpt = store.NewCheckpointer(d.SQL, debugTiming)
	r.heldLimit = txHeld(debug.SetMemoryLimit(-1), d.Tuning.maxTxHeld())
	r.lastProgress, r.lastWrite = time.Now(), time.Now()
	return r, nil
}

// deferIndexes drops the games' player and date indexes of a bulk import
// until its end; any other import builds those a killed bulk import left
// out (bulk.go).
func (r *importRun) deferIndexes(ctx context.Context) error {
	r.bulk = isBulk(r.st.TotalBytes, r.inDB, r.d.Tuning.bulkMinBytes())
	if err := r.spoolStart(ctx); err != nil { // treespool.go
		return err
	}
	if !r.bulk {
		_, err := store.Restore(ctx, r.w.conn)
		return err
	}
	err := store.DropDeferred(ctx, r.w.conn)
	if err == nil {
		run(r.d.Tuning.BulkDropped)
	}
	return err
}

// close waits for the checkpoint in progress and releases the writer.
func (r *importRun) close() {
	r.ckpt.Stop()
	r.release()
	r.w.stopMerge()
}

// pipeline runs the stages until every record is stored and committed, or
// an error. werr is the writer's (or the end of ctx), perr the reading's:
// the records read before it are stored all the same.
func (r *importRun) pipeline(ctx context.Context, next func() (Record, error)) (werr, perr error) {
	r.text = r.startText(ctx)
	workers := r.opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	read := func(ctx context.Context, emit func(chunk) error) error {
		pprof.Do(ctx, pprof.Labels("stage", "read"), func(ctx context.Context) {
			nice.LowerThread(helperNice)
			k := chunker{ctx: ctx, emit: emit, mem: r.mem}
			perr = k.records(next)
		})
		return nil // perr is returned after the writer stored what came before
	}
	// Prepared chunks wait for the writer as far as the memory budget
	// allows (maxPrepared), not a few: while the writer commits (seconds,
	// for a transaction of 10,000 games and more), the workers go on
	// replaying instead of waiting.
	o := pipeline.Options{Workers: workers, Queue: 2 * workers, Results: maxPrepared}
	// The stages are labelled in a CPU profile: `go tool pprof -tags`
	// gives the time of each (read, replay, write and its steps, compress,
	// text; the garbage collector's own workers are not labelled).
	pprof.Do(ctx, pprof.Labels("stage", "write"), func(ctx context.Context) {
		werr = pipeline.Run(ctx, o, read, r.replayer, func(c chunk) error { return r.write(ctx, c) })
		if werr == nil {
			r.w.final = true
			werr = r.commit(ctx)
		}
	})
	if debugTiming {
		fmt.Fprintf(os.Stderr, "writer waited %v for chunks\n", r.waited)
	}
	if werr != nil {
		r.w.rollback()
		r.cancel(nil)
	}
	return werr, perr
}

// replayer is the setup of a replay worker, on its goroutine: it returns
// what turns a chunk's records into rows.
func (r *importRun) replayer(ctx context.Context) func(chunk) chunk {
	pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("stage", "replay")))
	nice.LowerThread(helperNice)
	p := newPreparer(replay.Options{DefaultGame: r.opts.DefaultGame, Detect: r.opts.Detect})
	return func(c chunk) chunk {
		// Detection's preference is kept within a chunk only: chunks are
		// prepared in parallel.
		p.ForgetDetection()
		c.preps = make([]*prepared, len(c.recs))
		c.aheads = make([]*ahead, len(c.recs))
		var weight int64
		for i, rec := range c.recs {
			pr := p.prepare(rec)
			c.preps[i] = pr
			if pr.Valid {
				// The writer reads the occurrences, not the positions.
				c.aheads[i] = aheadOf(r.d.Pos, pr)
				pr.Pos = nil
			}
			weight += preparedWeight(pr) + aheadWeight(c.aheads[i])
		}
		c.recs = nil
		// The records are gone: the chunk now holds its rows.
		if weight < c.weight {
			r.mem.release(c.weight - weight)
			c.weight = weight
		}
		return c
	}
}

// write stores a chunk's rows, in order, and commits when the transaction
// is full.
func (r *importRun) write(ctx context.Context, c chunk) error {
	r.waited += time.Since(r.lastWrite)
	defer func() { r.lastWrite = time.Now() }()
	if debugTiming {
		fmt.Fprintf(os.Stderr, "chunk of %d at %v\n", len(c.preps), time.Since(r.start))
	}
	if r.w.games == 0 {
		r.txStart = time.Now()
	}
	var err error
	pprof.Do(ctx, pprof.Labels("write", "add"), func(ctx context.Context) { err = r.w.writeChunk(ctx, c, &r.st) })
	r.mem.release(c.weight)
	if err != nil {
		return err
	}
	if r.w.games >= r.txGames() || r.w.docBytes >= maxTxDocs || r.txLong() {
		if err := r.commit(ctx); err != nil {
			return err
		}
	} else if r.w.held >= r.heldLimit {
		if err := r.w.flushHeld(ctx); err != nil {
			return err
		}
	}
	if r.opts.Progress != nil && time.Since(r.lastProgress) > 150*time.Millisecond {
		r.lastProgress = time.Now()
		r.report()
	}
	return nil
}

// txLong reports a transaction of the default size (TxGames 0) that has
// been open for maxTxTime: it is committed then, so that an import that
// stops (Ctrl-C, a full disk) keeps what it read but the last seconds.
func (r *importRun) txLong() bool {
	return r.opts.TxGames == 0 && r.w.games > 0 && time.Since(r.txStart) >= r.d.Tuning.maxTxTime()
}

// txGames is the size of a transaction (ImportOptions.TxGames).
func (r *importRun) txGames() int {
	if r.opts.TxGames > 0 {
		return r.opts.TxGames
	}
	return min(max(int(r.inDB+int64(r.st.Stored))/10, 5000), maxTxGames)
}

// report gives the progress to ImportOptions.Progress.
func (r *importRun) report() {
	r.st.Elapsed = time.Since(r.start)
	r.st.TextIndexed = int(r.text.n.Load())
	r.opts.Progress(r.st)
}

// commit commits the writer's transaction; the games count as committed,
// and go to the text index, even when the merges after the commit fail
// (Committed).
func (r *importRun) commit(ctx context.Context) error {
	r.w.hw = r.text.hw.Load()
	t0 := time.Now()
	docs, err := r.w.commit(ctx)
	if debugTiming {
		fmt.Fprintf(os.Stderr, "commit %v at %v\n", time.Since(t0), time.Since(r.start))
	}
	if Committed(err) {
		r.ckpt.Committed()
		r.st.Committed = r.st.Stored
		if len(docs) > 0 {
			r.text.docs <- docs
		}
		// The cache grows with the database as the import goes.
		if cerr := r.wc.Grow(context.WithoutCancel(ctx), r.inDB+int64(r.st.Stored)); err == nil {
			err = cerr
		}
		if serr := r.settleSpooled(ctx); err == nil && serr != nil {
			err = afterCommit{serr}
		}
	}
	return err
}

// finish builds the deferred indexes of a bulk import, waits for the text
// index, records what the import leaves (the text index's high-water mark,
// the counts), and says the outcome.
func (r *importRun) finish(ctx context.Context, werr, perr error) (ImportStats, error) {
	d := r.d
	if r.w.spool && werr == nil {
		run(d.Tuning.BeforeTreeSettle)
		t0 := time.Now()
		if debugTiming {
			fmt.Fprintf(os.Stderr, "tree settle starts at %v\n", time.Since(r.start))
		}
		if werr = ctx.Err(); werr == nil {
			werr = settleTree(ctx, r.w.conn, r.w.raw, d.Tuning.SettleEntries)
			// The settle's pages are copied into the database file
			// beside the deferred indexes' build.
			r.ckpt.Committed()
		}
		if debugTiming {
			fmt.Fprintf(os.Stderr, "tree settled in %v\n", time.Since(t0))
		}
	}
	if r.bulk && ctx.Err() == nil {
		// While the text index takes the last transaction's games. An
		// interrupted import leaves them to the next (the façade's open).
		pprof.Do(ctx, pprof.Labels("stage", "index"), func(ctx context.Context) {
			t0 := time.Now()
			if _, err := store.Restore(ctx, r.w.conn); err != nil && werr == nil {
				werr = err
			}
			if debugTiming {
				fmt.Fprintf(os.Stderr, "indexes built in %v\n", time.Since(t0))
			}
		})
	}
	t1 := time.Now()
	close(r.text.docs)
	<-r.text.done
	if debugTiming {
		fmt.Fprintf(os.Stderr, "text index done after %v, at %v\n", time.Since(t1), time.Since(r.start))
	}
	if hook := d.Tuning.BudgetAtEnd; hook != nil {
		hook(r.mem.inUse())
	}
	if werr == nil && r.st.Replaced > 0 {
		werr = d.SyncText(ctx) // the text documents of the games replaced
	}
	if hw := r.text.hw.Load(); hw > 0 && r.text.err == nil && werr == nil {
		werr = store.SetMeta(context.Background(), d.SQL, "text_hw", hw)
	}
	if werr == nil {
		// Counted from the counts the last import stored: only this
		// import's games are read. A failure leaves them to be counted
		// by the next reader.
		d.StoreCounts(ctx)
		// The pages the merges freed, when many: a failure leaves them
		// free, the games stored.
		pprof.Do(ctx, pprof.Labels("stage", "giveback"), func(ctx context.Context) {
			n, err := store.GiveBack(ctx, r.w.conn)
			if debugTiming {
				fmt.Fprintf(os.Stderr, "gave back %d pages (%v)\n", n, err)
			}
		})
		r.ckpt.Stop()
		t2 := time.Now()
		checkpoint(d.SQL)
		if debugTiming {
			fmt.Fprintf(os.Stderr, "last checkpoint %v, at %v\n", time.Since(t2), time.Since(r.start))
		}
	}
	if r.opts.Progress != nil {
		r.report()
	} else {
		r.st.Elapsed = time.Since(r.start)
		r.st.TextIndexed = int(r.text.n.Load())
	}
	return r.st, r.cause(ctx, werr, perr)
}

// cause is the error an import reports: the writer's, else the reading's,
// else the text index's; and rather than "context canceled", what
// cancelled it. A failed text index cancels the writer, whose own error is
// then a consequence ("context canceled", or go-sqlite3's "statement is
// closed" when the cancel lands inside a statement).
func (r *importRun) cause(ctx context.Context, werr, perr error) error {
	if werr == nil {
		werr = perr
	}
	textErr := r.text.err
	if werr == nil || (textErr != nil && (errors.Is(werr, context.Canceled) || errors.Is(context.Cause(ctx), textErr))) {
		werr = textErr
	}
	if errors.Is(werr, context.Canceled) {
		if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
			werr = c
		}
	}
	return werr
}
