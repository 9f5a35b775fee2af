package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/klauspost/compress/zstd"

	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/internal/nice"
	"github.com/plateau/plateau/internal/pipeline"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// An import is a pipeline (package internal/pipeline): the caller's
// records are cut into chunks (read), replayed and turned into rows by
// workers (replay), stored in order by one writer (write), and indexed for
// text search after each commit (text). The writer is the one serial
// stage: the others run on threads of lower priority (helperNice) and keep
// ahead of it within the memory budget (importmem.go). index never opens a
// file: package internal/ingest reads them (importers.Source) and gives
// their records to ImportRecords. docs/import.md has the measurements
// behind the sizes chosen here.

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
	// the games in the database, at least 5000 and at most maxTxGames; a
	// transaction also ends when its text documents weigh maxTxDocs, and
	// its rows are stored before the commit whenever they weigh txHeld
	// (writer.flushHeld), so that its memory stays bounded. A commit
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
	// the goroutine that called ImportRecords.
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
	// end: the import marks the file imported (Imported) and removes the
	// games that its new read supersedes. A file that fails has no End.
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
	// internal/ingest fills them); ImportRecords counts the rest.
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

// Imported reports whether file was imported completely before, with this
// size and modification time (Unix nanoseconds): a reader leaves such a
// file out unless forced.
func (db *DB) Imported(ctx context.Context, file string, size, modTime int64) (bool, error) {
	var s, m int64
	err := db.sql.QueryRowContext(ctx, `SELECT size, mtime FROM sources WHERE path = ? AND done = 1`, file).Scan(&s, &m)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil && s == size && m == modTime, err
}

// ImportRecords replays each record of next through its rules and stores
// it, in order; next returns io.EOF at the end. It returns what it did; an
// error stops the import (what was committed stays, and running the same
// import again completes it). An error of next ends the input: the records
// before it are stored, then the error is returned.
func (db *DB) ImportRecords(ctx context.Context, next func() (Record, error), opts ImportOptions) (ImportStats, error) {
	if db.readOnly {
		return ImportStats{TotalBytes: opts.Bytes}, fmt.Errorf("import: %w (opened for queries only)", ErrReadOnly)
	}
	lock, err := db.waitImportLock(ctx) // mergelock.go
	if err != nil {
		return ImportStats{TotalBytes: opts.Bytes}, err
	}
	defer lock.release()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r, err := db.newImportRun(ctx, cancel, opts)
	if err != nil {
		return r.st, err
	}
	defer r.close()
	werr, perr := r.pipeline(ctx, next)
	return r.finish(ctx, werr, perr)
}

// chunk is the unit of the pipeline: records of one file, then their rows.
type chunk struct {
	weight int64 // memory held by its records (estimated), taken from the budget
	recs   []Record
	preps  []*prepared
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

// zenc compresses the canonical texts, in blocks of store.BlockSize. zstd's
// default level, not its better one: about the same ratio in two thirds of
// the time or less (docs/import.md).
var zenc = sync.OnceValues(func() (*zstd.Encoder, error) {
	return zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
})

// importRun is one import: what its stages share.
type importRun struct {
	db        *DB
	opts      ImportOptions
	st        ImportStats
	start     time.Time
	inDB      int64 // games in the database before: TxGames 0, the writer's cache, bulk
	enc       *zstd.Encoder
	mem       *budget
	cancel    context.CancelCauseFunc // a failing stage cancels the others, with its error as the cause
	w         *writer
	release   func() // gives the writer's connection back
	ckpt      *store.Checkpointer
	text      *textStage
	bulk      bool
	heldLimit int
	// The writer's pace: the last progress report, and (debugTiming) the
	// time it waited for chunks.
	lastProgress, lastWrite time.Time
	waited                  time.Duration
}

// newImportRun prepares an import: the text index caught up, the writer
// on its connection, the deferred indexes dropped for a bulk import (or
// built, those a killed one left out), the checkpointer beside it.
func (db *DB) newImportRun(ctx context.Context, cancel context.CancelCauseFunc, opts ImportOptions) (*importRun, error) {
	r := &importRun{db: db, opts: opts, start: time.Now(), cancel: cancel, mem: newBudget(maxInFlight)}
	r.st.TotalBytes = opts.Bytes
	if _, err := db.catchUpText(ctx); err != nil {
		return r, db.nameFull(err)
	}
	var err error
	if r.enc, err = zenc(); err != nil {
		return r, err
	}
	if err := db.sql.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM games`).Scan(&r.inDB); err != nil {
		return r, err
	}
	r.w = newWriter(db)
	r.w.replace = opts.Replace
	r.w.bgMerge = !testSyncMerge
	conn, release, err := store.WriterConn(ctx, db.sql, r.inDB)
	if err != nil {
		r.w.stopMerge()
		return r, err
	}
	r.w.conn, r.release = conn, release
	// A bulk import leaves the games' player and date indexes out until
	// its end; any other builds those a killed bulk import left out
	// (bulk.go).
	r.bulk = isBulk(r.st.TotalBytes, r.inDB)
	if r.bulk {
		if err = store.DropDeferred(ctx, conn); err == nil && testBulkDropped != nil {
			testBulkDropped()
		}
	} else {
		_, err = store.Restore(ctx, conn)
	}
	if err != nil {
		release()
		r.w.stopMerge()
		return r, db.nameFull(err)
	}
	r.ckpt = store.NewCheckpointer(db.sql, debugTiming)
	r.heldLimit = txHeld(debug.SetMemoryLimit(-1))
	r.lastProgress, r.lastWrite = time.Now(), time.Now()
	return r, nil
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
	p := newPreparer(replay.Options{DefaultGame: r.opts.DefaultGame, Detect: r.opts.Detect}, r.enc)
	return func(c chunk) chunk {
		// Detection's preference is kept within a chunk only: chunks are
		// prepared in parallel.
		p.ForgetDetection()
		c.preps = make([]*prepared, len(c.recs))
		var weight int64
		for i, rec := range c.recs {
			c.preps[i] = p.safePrepare(rec)
			weight += preparedWeight(c.preps[i])
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
	var err error
	pprof.Do(ctx, pprof.Labels("write", "add"), func(ctx context.Context) { err = r.db.writeChunk(ctx, r.w, c, &r.st) })
	r.mem.release(c.weight)
	if err != nil {
		return err
	}
	if r.w.games >= r.txGames() || r.w.docBytes >= maxTxDocs {
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
// (committed).
func (r *importRun) commit(ctx context.Context) error {
	r.w.hw = r.text.hw.Load()
	t0 := time.Now()
	docs, err := r.w.commit(ctx)
	if debugTiming {
		fmt.Fprintf(os.Stderr, "commit %v at %v\n", time.Since(t0), time.Since(r.start))
	}
	if committed(err) {
		r.ckpt.Committed()
		r.st.Committed = r.st.Stored
		if len(docs) > 0 {
			r.text.docs <- docs
		}
		// The cache grows with the database as the import goes.
		if cerr := store.SetCache(context.WithoutCancel(ctx), r.w.conn, store.WriterCacheKiB(r.inDB+int64(r.st.Stored))); err == nil {
			err = cerr
		}
	}
	return err
}

// finish builds the deferred indexes of a bulk import, waits for the text
// index, records what the import leaves (the text index's high-water mark,
// the counts), and says the outcome.
func (r *importRun) finish(ctx context.Context, werr, perr error) (ImportStats, error) {
	db := r.db
	if r.bulk && ctx.Err() == nil {
		// While the text index takes the last transaction's games. An
		// interrupted import leaves them to the next (restoreAtOpen).
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
	close(r.text.docs)
	<-r.text.done
	if testImportBudget != nil {
		testImportBudget(r.mem)
	}
	if werr == nil && r.st.Replaced > 0 {
		werr = db.syncText(ctx) // the text documents of the games replaced
	}
	if hw := r.text.hw.Load(); hw > 0 && r.text.err == nil && werr == nil {
		werr = setMeta(context.Background(), db.sql, "text_hw", hw)
	}
	if werr == nil {
		// Counted from the counts the last import stored: only this
		// import's games are read. A failure leaves them to be counted
		// by the next reader.
		db.storeCounts(ctx)
		r.ckpt.Stop()
		db.checkpoint()
	}
	if r.opts.Progress != nil {
		r.report()
	} else {
		r.st.Elapsed = time.Since(r.start)
		r.st.TextIndexed = int(r.text.n.Load())
	}
	return r.st, db.nameFull(r.cause(ctx, werr, perr))
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

// textStage indexes the games of each commit for text search, after the
// commit, and publishes the highest id indexed for the next commit to
// record (the text index's high-water mark).
type textStage struct {
	docs  chan []textDoc
	hw, n atomic.Int64 // the highest id indexed, and the games indexed
	err   error        // read after done
	done  chan struct{}
}

func (r *importRun) startText(ctx context.Context) *textStage {
	t := &textStage{docs: make(chan []textDoc, 4), done: make(chan struct{})}
	go pprof.Do(ctx, pprof.Labels("stage", "text"), func(context.Context) {
		defer close(t.done)
		nice.LowerThread(helperNice)
		var released time.Time
		for all := range t.docs {
			for len(all) > 0 && t.err == nil {
				// The index is released after each textTurn documents of
				// a commit, and left alone a moment, for readers in other
				// processes.
				docs := all[:min(len(all), textTurn)]
				all = all[len(docs):]
				if d := textYield - time.Since(released); d > 0 {
					time.Sleep(d)
				}
				if t.err = t.index(r.db, docs); t.err != nil {
					r.cancel(t.err)
				}
				released = time.Now()
			}
		}
	})
	return t
}

// index adds docs to the text index, in one opening of it.
func (t *textStage) index(db *DB, docs []textDoc) error {
	t0 := time.Now()
	err := db.withText(func(idx bleve.Index) error { return indexDocs(idx, docs) })
	if debugTiming {
		fmt.Fprintf(os.Stderr, "text batch %d docs %v\n", len(docs), time.Since(t0))
	}
	if err != nil {
		return err
	}
	t.n.Add(int64(len(docs)))
	t.hw.Store(docs[len(docs)-1].ID)
	if testTextTurn != nil {
		testTextTurn(len(docs))
	}
	return nil
}

func (p *preparer) safePrepare(r Record) (out *prepared) {
	defer func() {
		if v := recover(); v != nil {
			// A rules package panicked on this record: keep it as invalid.
			r.Game, r.Err = nil, fmt.Errorf("internal error while replaying: %v", v)
			out = p.prepare(r)
		}
	}()
	return p.prepare(r)
}

func (db *DB) writeChunk(ctx context.Context, w *writer, c chunk, st *ImportStats) error {
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
	err := db.writeRecords(context.WithoutCancel(ctx), w, c, st)
	if err == nil {
		// The blocks a merge beside the writer has ready (posmerge.go).
		err = w.drainMerge(context.WithoutCancel(ctx), false)
	}
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

func (db *DB) writeRecords(ctx context.Context, w *writer, c chunk, st *ImportStats) error {
	for _, p := range c.preps {
		st.Records++
		_, dup, err := w.add(ctx, p)
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

// checkpoint copies the WAL into the database file and truncates it, so
// that a finished import leaves no large WAL behind even while readers keep
// the database open (SQLite removes the WAL only when the last connection
// closes). Readers are never blocked by it; when one holds an old snapshot
// for more than a few seconds the WAL is left as it is, for SQLite's next
// automatic checkpoint: the data are committed either way.
func (db *DB) checkpoint() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	db.sql.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
}

var debugTiming = os.Getenv("PLATEAU_DEBUG_TIMING") != ""
