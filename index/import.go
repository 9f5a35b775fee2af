package index

import (
	"context"
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

	"github.com/plateau/plateau/importers"
	"github.com/plateau/plateau/internal/nice"
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
	// the games in the database, at least 5000 and at most maxTxGames
	// (200,000); a transaction also ends when its text documents weigh
	// maxTxDocs (for Ōgi, at about 200,000 games), and its rows are stored
	// before the commit whenever they weigh txHeld (writer.flushHeld),
	// so that its memory stays bounded. A commit rewrites every page it
	// touches of the random-key B-trees (the tree, tags, the games'
	// indexes: about 210 bytes a game, 2.1 GB at 10,000,000 Ōgi games),
	// so a large database takes large transactions, and a writer's page
	// cache that holds those pages until the commit (writerCacheKiB).
	// Measured at 300k games (when positions were one B-tree), 2,770
	// games/s with 5000 per transaction, 4,800 with 50,000. At 1,000,000
	// and 3,500,000 larger ones did not pay (1,000,000 into 1,000,000:
	// 4,650 games/s with transactions of 100,000 and a 1 GiB cache, 4,623
	// with about 25,000 and 256 MiB; 500,000 into 3,000,000 with
	// transactions of 200,000 and 256 MiB, the same time): the writer's
	// cost there is per row (B-tree descents), not pages written again.
	// From 10,500,000 games on they halve an import's time: 500,000 Ōgi
	// games in 152.4 and 146.7 s (3,281 and 3,408 games/s) against 307.9
	// and 252.8 s (1,624 and 1,978) with transactions of about 25,000 and
	// a 256 MiB cache (four imports one after the other into one database
	// of 10.5 to 12 million games, in the order new, old, old, new), with
	// 12.7–13.6 GB written instead of 45.5–49.7, and 4.4 GB of memory at
	// most instead of 1.3.
	TxGames int
	// Force re-reads files already imported completely (their games are then
	// skipped as duplicates).
	Force bool
	// Replace removes the games stored from a file before that its new read
	// does not hold (see supersede.go; without it, only the games that a
	// different record replaces at the same offset or line are removed).
	Replace bool
	// Progress, if set, is called from time to time and at the end.
	Progress func(ImportStats)
	// MaxRecord is the size limit of a record (record.Reader.SetMaxRecord;
	// 0: record.DefaultMaxRecord). A larger record is stored as an invalid
	// record naming the limit.
	MaxRecord int64
	// FileError, if set, is told of each file that could not be read (open
	// or read error: the games read before it are kept, the file is not
	// marked done) and of each file skipped in a directory walk (an error
	// wrapping importers.ErrNotRegular). The import goes on with the other
	// files. It is called from the goroutine that reads the files.
	FileError func(file string, err error)
}

// chunkBytes bounds the record text of a chunk (a chunk holds at most
// chunkSize records), maxTxDocs the text documents a transaction holds
// before it is committed whatever TxGames says (they go to the text index
// after the commit), and maxTxGames the games of a transaction when
// TxGames is 0: together with the record size limit and maxTxHeld they
// bound an import's memory, whatever the records.
const (
	chunkBytes = 1 << 20
	// maxTextComments bounds the comments of a game given to the text
	// index: the first 32 KiB are searchable (Bleve's analysis of one
	// large document costs many times its size).
	maxTextComments = 32 << 10
	maxTxDocs       = 32 << 20
	maxTxGames      = 200000
	maxInFlight     = 64 << 20 // records read and not yet written (recordWeight)
)

// maxTxHeld bounds the rows (positions, tags, tree entries) a transaction
// holds in memory: beyond, they are stored before the commit
// (writer.flushHeld), the positions as a run of their own. A variable for
// tests. At 64 MiB a transaction of an import into a database of
// 1,000,000 Ōgi games stored its positions as five or six runs (about
// 2,000,000 occurrences each), that the merges beside the writer then
// took in; at 256 MiB, one or two runs of about 9,000,000 occurrences, a
// level higher (runLevel), so that a level of merges is not done at all
// and a lookup during the import reads fewer runs. Measured (a throw-away
// harness: 1,000,000 Ōgi games into a database of 1,000,000, queries
// paced at 20 ms in another process): with the tail merge of tailOf, the
// import took 77.5 s against 100.1 s, position lookups during it 572 µs
// p50 and 3.1 ms p99 against 817 µs and 3.6 ms; into an empty database
// 72.8 s against 74.9 s.
var maxTxHeld = 256 << 20

// txHeld is the bound of a transaction's held rows under Go's memory
// limit (GOMEMLIMIT, or the import's own, 1.5 GiB): maxTxHeld, or a sixth
// of the limit when that is less, and not under minTxHeld (tests set
// maxTxHeld lower), as sorting and encoding a run hold about twice its
// rows: with GOMEMLIMIT=512MiB, 85 MiB, about what it was before runs of
// 256 MiB.
func txHeld(memLimit int64) int {
	return int(min(int64(maxTxHeld), max(memLimit/6, minTxHeld)))
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

// testImportBudget, set by a test, sees the memory budget at the end of an
// import (every chunk written or dropped).
var testImportBudget func(*budget)

// preparedWeight estimates the memory a prepared game holds: its rows,
// texts and strings.
func preparedWeight(p *prepared) int64 {
	if p == nil {
		return 64
	}
	n := int64(512 + len(p.moves) + cap(p.text) + 24*cap(p.pos) + 48*len(p.tree) + len(p.comment) + len(p.annot) +
		len(p.event) + len(p.site) + len(p.fen) + len(p.players[0]) + len(p.players[1]))
	for _, t := range p.tags {
		n += int64(len(t.Name)+len(t.Value)) + 32
	}
	for _, w := range p.warns {
		n += int64(len(w.msg)) + 64
	}
	if p.err != nil {
		n += int64(len(p.err.msg)+len(p.err.move)+len(p.err.rule)) + 64
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

// ImportStats count what an import did.
type ImportStats struct {
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
	Bytes        int64 // bytes of the files read so far, as stored (compressed); decoded for stdin
	TotalBytes   int64 // size of the input files (compressed files count as stored)
	TextIndexed  int   // games added to the text index
	Elapsed      time.Duration
}

// source is one input file.
type source struct {
	path  string // as given; "-" is stdin
	name  string // as stored
	size  int64
	mtime int64
}

type chunk struct {
	seq    int
	weight int64 // memory held by its records (estimated), taken from the budget
	recs   []Record
	preps  []*prepared
	done   *source // the file ends with this chunk
	bytes  int64   // bytes of the file consumed up to the chunk's end (see progress.go)
}

const chunkSize = 64

// Import reads every record of the given paths (files, directories,
// globs, "-" for stdin; .gz and .zst decompressed), replays each through its
// rules and stores it. It returns what it did; an error stops the import
// (what was committed stays, and running the same import again completes it).
func (db *DB) Import(ctx context.Context, paths []string, opts ImportOptions) (ImportStats, error) {
	var unreadable atomic.Int64
	fileError := func(file string, err error) {
		if !errors.Is(err, importers.ErrNotRegular) {
			unreadable.Add(1)
		}
		if opts.FileError != nil {
			opts.FileError(file, err)
		}
	}
	files, err := importers.ExpandWith(paths, fileError)
	if err != nil {
		return ImportStats{}, err
	}
	if len(files) == 0 && unreadable.Load() == 0 {
		return ImportStats{}, fmt.Errorf("no record files in %v: %w", paths, ErrNotFound)
	}
	var srcs []source
	var st ImportStats
	for _, f := range files {
		s := source{path: f, name: f}
		if f == "-" {
			s.name = "<stdin>"
		} else if fi, err := os.Stat(f); err == nil {
			s.size, s.mtime = fi.Size(), fi.ModTime().UnixNano()
			st.TotalBytes += s.size
		}
		if !opts.Force && f != "-" {
			var size, mtime int64
			err := db.sql.QueryRowContext(ctx, `SELECT size, mtime FROM sources WHERE path = ? AND done = 1`, s.name).Scan(&size, &mtime)
			if err == nil && size == s.size && mtime == s.mtime {
				st.SkippedFiles++
				st.TotalBytes -= s.size
				continue
			}
		}
		srcs = append(srcs, s)
	}
	produce := func(ctx context.Context, out chan<- chunk, b *budget) error {
		seq := 0
		for i := range srcs {
			s := &srcs[i]
			err := readSource(ctx, s, &seq, out, opts.MaxRecord, b)
			var fe *importers.FileError
			if errors.As(err, &fe) {
				fileError(fe.File, fe.Err)
				continue
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	st, err = db.run(ctx, st, len(srcs), produce, opts)
	st.Unreadable = int(unreadable.Load())
	return st, err
}

// readSource reads one file into chunks. An error opening or reading it is
// an *importers.FileError, returned after the games read before it were
// sent (the file is then not marked done).
func readSource(ctx context.Context, s *source, seq *int, out chan<- chunk, maxRecord int64, b *budget) error {
	rc, counted, err := openCounted(s.path) // progress.go
	if err != nil {
		return &importers.FileError{File: s.name, Err: err}
	}
	defer rc.Close()
	r, err := importers.NewGameReader(s.path, rc, s.name)
	if err != nil {
		return &importers.FileError{File: s.name, Err: err}
	}
	if l, ok := r.(interface{ SetMaxRecord(int64) }); ok {
		l.SetMaxRecord(maxRecord)
	}
	c := chunk{seq: *seq}
	var prev *Record
	var start int64 // offset of the chunk's first record
	var ioErr error
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var re *record.Error
		if err != nil && !errors.As(err, &re) {
			ioErr = &importers.FileError{File: s.name, Err: err}
			break
		}
		rec := Record{Game: g, Err: err, File: s.name}
		off := recOffset(&rec)
		if prev != nil && off > 0 {
			prev.Size = off - recOffset(prev)
		}
		if len(c.recs) == 0 {
			start = off
		}
		c.recs = append(c.recs, rec)
		prev = &c.recs[len(c.recs)-1]
		c.bytes = consumed(counted, off)
		c.weight += recordWeight(g)
		if len(c.recs) == chunkSize || off-start >= chunkBytes || c.weight >= chunkBytes {
			if err := b.acquire(ctx, c.weight); err != nil {
				return err
			}
			select {
			case out <- c:
			case <-ctx.Done():
				return ctx.Err()
			}
			*seq++
			c = chunk{seq: *seq, bytes: c.bytes}
			prev = nil
		}
	}
	if ioErr == nil {
		c.done = s
		if s.size > 0 {
			c.bytes = s.size
		}
	}
	if err := b.acquire(ctx, c.weight); err != nil {
		return err
	}
	select {
	case out <- c:
	case <-ctx.Done():
		return ctx.Err()
	}
	*seq++
	return ioErr
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

// ImportRecords stores records given by the caller (tests, generators),
// as Import does with files. next returns io.EOF at the end.
func (db *DB) ImportRecords(ctx context.Context, next func() (Record, error), opts ImportOptions) (ImportStats, error) {
	produce := func(ctx context.Context, out chan<- chunk, _ *budget) error {
		seq := 0
		c := chunk{}
		for {
			r, err := next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			c.recs = append(c.recs, r)
			if len(c.recs) == chunkSize {
				select {
				case out <- c:
				case <-ctx.Done():
					return ctx.Err()
				}
				seq++
				c = chunk{seq: seq}
			}
		}
		select {
		case out <- c:
		case <-ctx.Done():
			return ctx.Err()
		}
		return nil
	}
	return db.run(ctx, ImportStats{}, 0, produce, opts)
}

// zenc compresses the canonical texts, in blocks of blockSize. zstd's
// default level, not its better one: on 16 KiB blocks it makes the same
// bytes of generated Ōgi records (ratio 0.4866 both) in 11.0 µs a game
// instead of 15.9, and of the PDN corpus (real draughts games) 2.4% more
// (ratio 0.2642 against 0.2580: texts are about a fifth of a database) in
// 40% of the time (77.5 MB/s against 30.9).
var zenc = sync.OnceValues(func() (*zstd.Encoder, error) {
	return zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
})

var zdec = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
})

func decompress(b []byte) ([]byte, error) {
	d, err := zdec()
	if err != nil {
		return nil, err
	}
	return d.DecodeAll(b, nil)
}

// run is the pipeline: produce → workers (replay) → one writer → text index.
func (db *DB) run(ctx context.Context, st ImportStats, nfiles int, produce func(context.Context, chan<- chunk, *budget) error, opts ImportOptions) (ImportStats, error) {
	if db.readOnly {
		return st, fmt.Errorf("import: %w (opened for queries only)", ErrReadOnly)
	}
	lock, err := db.waitImportLock(ctx) // mergelock.go
	if err != nil {
		return st, err
	}
	defer lock.release()
	start := time.Now()
	st.Files = nfiles
	if _, err := db.catchUpText(ctx); err != nil {
		return st, db.nameFull(err)
	}
	enc, err := zenc()
	if err != nil {
		return st, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var inDB int64 // games already in the database, for TxGames 0 and the writer's cache
	if err := db.sql.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM games`).Scan(&inDB); err != nil {
		return st, err
	}
	txGames := func() int {
		if opts.TxGames > 0 {
			return opts.TxGames
		}
		return min(max(int(inDB+int64(st.Stored))/10, 5000), maxTxGames)
	}
	// A failing part cancels the others with its error as the cause, so
	// that the run reports it rather than "context canceled".
	ctx, cancelCause := context.WithCancelCause(ctx)
	defer cancelCause(nil)
	cancel := func() { cancelCause(nil) }

	mem := newBudget(maxInFlight)
	in := make(chan chunk, workers*2)
	// Prepared chunks wait for the writer as far as the memory budget
	// allows, not a few: while the writer commits (seconds, for a
	// transaction of 10,000 games and more), the workers go on replaying
	// instead of waiting. Measured on 100,000 Ōgi games, 2 cores, two runs
	// each: 3,956 and 4,248 games/s with 4 chunks waiting, 4,304 and 4,626
	// with 64 (a larger budget, 192 MiB: no gain). A prepared chunk
	// weighs its rows (preparedWeight), a quarter of its records: the
	// budget holds about 13,000 prepared Ōgi games, most of what the
	// workers make while a transaction of 20,000 commits.
	done := make(chan chunk, maxPrepared)
	var perr error
	go pprof.Do(ctx, pprof.Labels("stage", "read"), func(ctx context.Context) {
		nice.LowerThread(helperNice)
		perr = produce(ctx, in, mem)
		close(in)
	})
	var wg sync.WaitGroup
	ropts := replay.Options{DefaultGame: opts.DefaultGame, Detect: opts.Detect}
	for range workers {
		wg.Add(1)
		go pprof.Do(ctx, pprof.Labels("stage", "replay"), func(ctx context.Context) {
			defer wg.Done()
			nice.LowerThread(helperNice)
			p := newPreparer(ropts, enc)
			for c := range in {
				// Detection's preference is kept within a chunk only:
				// chunks are prepared in parallel.
				p.prefFile, p.prefer = "", ""
				c.preps = make([]*prepared, len(c.recs))
				var weight int64
				for i, r := range c.recs {
					c.preps[i] = p.safePrepare(r)
					weight += preparedWeight(c.preps[i])
				}
				c.recs = nil
				// The records are gone: the chunk now holds its rows.
				if weight < c.weight {
					mem.release(c.weight - weight)
					c.weight = weight
				}
				select {
				case done <- c:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() { wg.Wait(); close(done) }()

	// The text indexer: after each commit, index its games, then publish the
	// highest indexed id for the next commit to record.
	texts := make(chan []textDoc, 4)
	var textHW, textN atomic.Int64
	var textErr error
	textDone := make(chan struct{})
	go pprof.Do(ctx, pprof.Labels("stage", "text"), func(context.Context) {
		defer close(textDone)
		nice.LowerThread(helperNice)
		var released time.Time
		for all := range texts {
			for len(all) > 0 && textErr == nil {
				// The index is released after each textTurn documents of
				// a commit, and left alone a moment, for readers in other
				// processes.
				docs := all[:min(len(all), textTurn)]
				all = all[len(docs):]
				if d := textYield - time.Since(released); d > 0 {
					time.Sleep(d)
				}
				t0 := time.Now()
				err := db.withText(func(idx bleve.Index) error { return indexDocs(idx, docs) })
				released = time.Now()
				if debugTiming {
					fmt.Fprintf(os.Stderr, "text batch %d docs %v\n", len(docs), time.Since(t0))
				}
				if err != nil {
					textErr = err
					cancelCause(err)
					continue
				}
				textN.Add(int64(len(docs)))
				textHW.Store(docs[len(docs)-1].id)
				if testTextTurn != nil {
					testTextTurn(len(docs))
				}
			}
		}
	})

	w := newWriter(db)
	w.replace = opts.Replace
	w.bgMerge = !testSyncMerge
	defer w.stopMerge()
	conn, release, err := db.writerConn(ctx, inDB)
	if err != nil {
		return st, err
	}
	defer release()
	w.conn = conn
	// A bulk import leaves the games' player and date indexes out until
	// its end; any other builds those a killed bulk import left out
	// (bulk.go).
	bulk := isBulk(st.TotalBytes, inDB)
	if bulk {
		if err = dropDeferred(ctx, conn); err == nil && testBulkDropped != nil {
			testBulkDropped()
		}
	} else {
		_, err = restoreIndexes(ctx, conn)
	}
	if err != nil {
		return st, db.nameFull(err)
	}
	ckpt := newCheckpointer(db)
	defer ckpt.stop()
	heldLimit := txHeld(debug.SetMemoryLimit(-1))
	pending := map[int]chunk{}
	next := 0
	lastProgress := time.Now()
	// commit commits the writer's transaction; the games count as
	// committed, and go to the text index, even when the merges after the
	// commit fail (committed).
	commit := func(ctx context.Context) error {
		w.hw = textHW.Load()
		t0 := time.Now()
		docs, err := w.commit(ctx)
		if debugTiming {
			fmt.Fprintf(os.Stderr, "commit %v at %v\n", time.Since(t0), time.Since(start))
		}
		if committed(err) {
			ckpt.committed()
			st.Committed = st.Stored
			if len(docs) > 0 {
				texts <- docs
			}
			// The cache grows with the database as the import goes.
			if cerr := setCache(context.WithoutCancel(ctx), conn, writerCacheKiB(inDB+int64(st.Stored))); err == nil {
				err = cerr
			}
		}
		return err
	}
	write := func(ctx context.Context) error {
		var waited time.Duration // for chunks
		defer func() {
			if debugTiming {
				fmt.Fprintf(os.Stderr, "writer waited %v for chunks\n", waited)
			}
		}()
		t0 := time.Now()
		for c := range done {
			waited += time.Since(t0)
			if debugTiming {
				fmt.Fprintf(os.Stderr, "chunk %d at %v\n", c.seq, time.Since(start))
			}
			pending[c.seq] = c
			for {
				c, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				var err error
				pprof.Do(ctx, pprof.Labels("write", "add"), func(ctx context.Context) { err = db.writeChunk(ctx, w, c, &st) })
				mem.release(c.weight)
				if err != nil {
					return err
				}
				if w.games >= txGames() || w.docBytes >= maxTxDocs {
					if err := commit(ctx); err != nil {
						return err
					}
				} else if w.held >= heldLimit {
					if err := w.flushHeld(ctx); err != nil {
						return err
					}
				}
				if opts.Progress != nil && time.Since(lastProgress) > 150*time.Millisecond {
					lastProgress = time.Now()
					st.Elapsed = time.Since(start)
					st.TextIndexed = int(textN.Load())
					opts.Progress(st)
				}
			}
			t0 = time.Now()
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		w.final = true
		return commit(ctx)
	}
	// The stages are labelled in a CPU profile: `go tool pprof -tags`
	// gives the time of each (read, replay, write and its steps, compress,
	// text; the garbage collector's own workers are not labelled).
	var werr error
	pprof.Do(ctx, pprof.Labels("stage", "write"), func(ctx context.Context) { werr = write(ctx) })
	if werr != nil {
		w.rollback()
		cancel()
		for range done {
		}
	}
	if bulk && ctx.Err() == nil {
		// While the text index takes the last transaction's games. An
		// interrupted import leaves them to the next (restoreAtOpen).
		pprof.Do(ctx, pprof.Labels("stage", "index"), func(ctx context.Context) {
			t0 := time.Now()
			if _, err := restoreIndexes(ctx, conn); err != nil && werr == nil {
				werr = err
			}
			if debugTiming {
				fmt.Fprintf(os.Stderr, "indexes built in %v\n", time.Since(t0))
			}
		})
	}
	close(texts)
	<-textDone
	if testImportBudget != nil {
		testImportBudget(mem)
	}
	if werr == nil && st.Replaced > 0 {
		werr = db.syncText(ctx) // the text documents of the games replaced
	}
	if hw := textHW.Load(); hw > 0 && textErr == nil && werr == nil {
		if err := setMeta(context.Background(), db.sql, "text_hw", hw); err != nil && werr == nil {
			werr = err
		}
	}
	if werr == nil {
		// Counted from the counts the last import stored: only this
		// import's games are read. A failure leaves them to be counted
		// by the next reader.
		db.storeCounts(ctx)
		ckpt.stop()
		db.checkpoint()
	}
	st.Elapsed = time.Since(start)
	st.TextIndexed = int(textN.Load())
	if opts.Progress != nil {
		opts.Progress(st)
	}
	if werr == nil {
		werr = perr
	}
	// A failed text index cancels the writer, whose own error is then a
	// consequence ("context canceled", or go-sqlite3's "statement is
	// closed" when the cancel lands inside a statement): report the cause.
	if werr == nil || (textErr != nil && (errors.Is(werr, context.Canceled) || errors.Is(context.Cause(ctx), textErr))) {
		werr = textErr
	}
	if errors.Is(werr, context.Canceled) {
		if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
			werr = c
		}
	}
	return st, db.nameFull(werr)
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
		case p.valid:
			st.Stored++
			st.Valid++
		default:
			st.Stored++
			st.Invalid++
		}
	}
	if c.bytes > 0 {
		st.Bytes += c.bytes - w.fileBytes
		w.fileBytes = c.bytes
	}
	if c.done != nil {
		if _, err := w.source(ctx, c.done.name); err != nil {
			return err
		}
		if err := w.finishSource(ctx, c.done.name); err != nil {
			return err
		}
		st.Replaced = w.replaced
		if _, err := w.tx.ExecContext(ctx, `UPDATE sources SET done = ?, size = ?, mtime = ? WHERE path = ?`,
			c.done.path != "-", c.done.size, c.done.mtime, c.done.name); err != nil {
			return err
		}
		w.fileBytes = 0
	}
	return nil
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
