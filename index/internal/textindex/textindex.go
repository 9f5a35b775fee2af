// Package textindex is Plateau's text index: one Bleve document per valid
// game (players, event, site, annotator and comments, analyzed with an
// ASCII-folding analyzer; game, result and date as keywords), written in
// batches and searched with Bleve query strings.
//
// Decisions:
//
//   - The index is opened for one piece of work and closed after it
//     (With). Bleve (boltdb) admits one writing process or several reading
//     ones, never both: a writer holds it for a batch of documents, a
//     reader for one search, so that an import and searches in other
//     processes take turns. A read-only Index waits up to ReadWait for a
//     writer before failing with ErrBusy; a writable one waits up to
//     WriteWait for readers. Within one process, a writable Index's works
//     take turns and a read-only one's run side by side.
//   - A failed open says why: ErrBusy only when boltdb's lock timed out,
//     ErrBroken for damaged files (the index can be rebuilt from the store
//     of record), a file-system error (no space, permissions) with its
//     path, ErrMissing for a read-only Index with no index yet.
//   - A new index is built beside its path and renamed into place, so that
//     a reader never sees one half made.
//   - Documents are built field by field as the mapping would map them,
//     each distinct value analyzed once (termCache, textField); they have
//     no _all field. A term written without a field searches each text
//     field (Parse): indexes written with _all are searched the same way.
//   - A batch of docBuilder's documents becomes a segment written by
//     segmentPlugin, which takes zap v16's place in Bleve's plugin
//     registry for the whole process: zap's own bytes, written from flat
//     arrays instead of zap's maps; zap still writes any other batch and
//     opens and merges every segment.
//   - Fields keep no word positions: a phrase matches the documents that
//     hold all its words in one field, in any order (phraseWords).
//   - A query is bounded (MaxQuery, MaxTerms, MaxPatterns) and parsed
//     before the index is opened; it runs under the caller's context.
//   - A wildcard word or a regular expression is matched by Go's regexp
//     against the terms of each field's dictionary, looking at the
//     context as it goes, not by Bleve's automaton, whose construction
//     ignores the context and whose cost the pattern's length does not
//     bound; a word is bounded by its wildcards (MaxWildcards), its
//     compiled size (MaxRegexpInsts) and the terms it stands for
//     (MaxExpansion). Scores are not computed: a search answers a set of
//     games. A word of stars alone ("*") matches every game.
//
// The measurements behind these choices are in docs/storage.md.
package textindex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	"github.com/blevesearch/bleve/v2/mapping"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Errors of an open of the index.
var (
	// ErrBusy: the index is held by another process beyond the wait.
	ErrBusy = errors.New("text index is busy (an import is running?)")
	// ErrBroken: the index cannot be opened (damaged files).
	ErrBroken = errors.New("text index is damaged")
	// ErrMissing: a read-only Index found no index at its path.
	ErrMissing = errors.New("no text index")
	// ErrClosed: the Index was closed (Close) before the work.
	ErrClosed = errors.New("text index is closed")
)

// The waits of an open for another process's turn to end.
const (
	// ReadWait is how long a search waits for a writer to release the
	// index before failing with ErrBusy: a writer holds it for one batch
	// of documents at a time.
	ReadWait = 20 * time.Second
	// WriteWait is how long a writer waits for readers to release it.
	WriteWait = time.Minute
)

// A Bleve batch holds at most Batch documents and, once past BatchBytes of
// text, ends with the document that crossed it. Each batch is a segment
// that Bleve then merges.
const (
	Batch      = 10000
	BatchBytes = 8 << 20
)

// Index is the text index at one path, opened for each piece of work.
type Index struct {
	path     string
	readOnly bool
	// mu: a writable Index's works take turns (Lock); a read-only one's
	// share it (RLock), so that no search waits for another.
	mu     sync.RWMutex
	closed bool // set by Close, read under mu: no work opens the index again
	// fault, set by tests, fails a writable open (a fault-injecting file
	// system: no space left…).
	fault func() error
}

// New is the index at path (a directory, created by the first writable
// work), read-only or not.
func New(path string, readOnly bool) *Index {
	return &Index{path: path, readOnly: readOnly}
}

// Path is the index's directory.
func (x *Index) Path() string { return x.path }

// SetFault makes every writable open fail with f's error when f returns
// one (tests: a full disk, a lost file).
func (x *Index) SetFault(f func() error) { x.fault = f }

// With opens the index (read-only for a read-only Index; otherwise for
// writing, creating it if needed), runs fn and closes it, having run the
// merges Bleve's merge policy plans after a writable fn.
func (x *Index) With(fn func(bleve.Index) error) error {
	if x.readOnly {
		x.mu.RLock()
		defer x.mu.RUnlock()
	} else {
		x.mu.Lock()
		defer x.mu.Unlock()
	}
	idx, err := x.open()
	if err != nil {
		return err
	}
	err = fn(idx)
	if err == nil && !x.readOnly {
		err = merge(idx)
	}
	return errors.Join(err, idx.Close())
}

// Close waits for the works under way, runs fn (a handle closing its
// store) and makes every later work fail with ErrClosed: a work that
// outlives its handle (a count in the background) must not create or
// write the index of a database closed, perhaps removed.
func (x *Index) Close(fn func() error) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.closed = true
	return fn()
}

// Add indexes docs, in batches.
func (x *Index) Add(docs []Doc) error {
	return x.With(func(idx bleve.Index) error { return AddTo(idx, docs) })
}

// Update indexes again the documents of ids found in docs and removes the
// others, in one batch.
func (x *Index) Update(ids []int64, docs map[int64]Doc) error {
	return x.With(func(idx bleve.Index) error {
		bd, err := newDocBuilder(idx.Mapping())
		if err != nil {
			return err
		}
		b := idx.NewBatch()
		for _, id := range ids {
			if d, ok := docs[id]; ok {
				if err := b.IndexAdvanced(bd.build(&d)); err != nil {
					return err
				}
			} else {
				b.Delete(strconv.FormatInt(id, 10))
			}
		}
		return idx.Batch(b)
	})
}

// Check opens the index and closes it: nil when it opens (or, for a
// writable Index, when there is none yet to open), else the open's error.
func (x *Index) Check() error {
	if _, err := os.Stat(x.path); err != nil {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	idx, err := x.open()
	if err != nil {
		return err
	}
	return idx.Close()
}

// Remove deletes the index's files, for a rebuild. It first renames the
// directory aside (path.old), at once, then deletes that: a process killed
// while deleting leaves no index at path (which a reader reports as
// missing and an import rebuilds) rather than a directory missing some of
// its files (which reads as damaged). The next Remove or create deletes
// what a killed one left aside.
func (x *Index) Remove() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	old := x.path + ".old"
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("text index %s: %w", old, err)
	}
	if err := os.Rename(x.path, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("text index %s: %w", x.path, err)
	}
	return os.RemoveAll(old)
}

// open opens the index, creating it for a writable Index. Its errors say
// what happened: ErrBusy when another process holds it beyond the wait,
// ErrBroken when its files are damaged, ErrMissing when a read-only Index
// finds none, the file system's error otherwise (no space, permissions),
// each naming the path.
func (x *Index) open() (bleve.Index, error) {
	if x.closed {
		return nil, fmt.Errorf("text index %s: %w", x.path, ErrClosed)
	}
	if x.fault != nil && !x.readOnly {
		if err := x.fault(); err != nil {
			return nil, fmt.Errorf("text index %s: %w", x.path, err)
		}
	}
	if _, serr := os.Stat(x.path); serr != nil {
		if x.readOnly {
			return nil, fmt.Errorf("%w at %s", ErrMissing, x.path)
		}
		if err := create(x.path); err != nil {
			return nil, err
		}
	}
	cfg := map[string]any{"bolt_timeout": WriteWait.String()}
	wait := WriteWait
	if x.readOnly {
		cfg = map[string]any{"bolt_timeout": ReadWait.String(), "read_only": true}
		wait = ReadWait
	}
	idx, err := bleve.OpenUsing(x.path, cfg)
	if err != nil {
		return nil, openError(x.path, wait, err)
	}
	return idx, nil
}

// create creates an empty index at path atomically: it is built beside
// path and renamed into place once complete, so that a reader in another
// process sees either no index or a whole one, never the files of one
// being created (which would read as damaged).
func create(path string) error {
	tmp := path + ".new"
	for _, left := range []string{tmp, path + ".old"} { // left by a killed process
		if err := os.RemoveAll(left); err != nil {
			return fmt.Errorf("text index %s: %w", left, err)
		}
	}
	m, err := indexMapping()
	if err != nil {
		return err
	}
	idx, err := bleve.NewUsing(tmp, m, bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore,
		map[string]any{"bolt_timeout": WriteWait.String()})
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("text index %s: cannot create it: %w", path, err)
	}
	if err := idx.Close(); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("text index %s: cannot create it: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("text index %s: cannot create it: %w", path, err)
	}
	return nil
}

// openError names the cause of a failed open of the index at path.
func openError(path string, wait time.Duration, err error) error {
	var pe *fs.PathError
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return fmt.Errorf("%w: %s still locked by another process after %v", ErrBusy, path, wait)
	case errors.As(err, &pe) && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EROFS)):
		return fmt.Errorf("text index %s: %w", path, err)
	}
	return fmt.Errorf("%w: %s: %v (`plateau reindex` rebuilds it from the SQLite store; an import does so by itself)", ErrBroken, path, err)
}

// merge runs the merges that Bleve's default merge policy plans, which
// its background merger would have run had the index stayed open.
func merge(idx bleve.Index) error {
	adv, err := idx.Advanced()
	if err != nil {
		return err
	}
	sc, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil
	}
	opts := mergeplan.DefaultMergePlanOptions
	return sc.ForceMerge(context.Background(), &opts)
}

// AddTo indexes docs into an open index, in batches of Batch documents.
func AddTo(idx bleve.Index, docs []Doc) error {
	return AddBatches(idx, docs, Batch)
}

// AddBatches is AddTo in batches of at most batch documents.
func AddBatches(idx bleve.Index, docs []Doc, batch int) error {
	return new(Builder).AddBatches(idx, docs, batch)
}

// A Builder makes the Bleve documents of Docs and remembers the analysis
// of the field values it has met (termCache) from one AddTo to the next:
// an import keeps one for all its turns, whose values recur. It analyzes
// with the analyzers of the index it writes, and starts afresh when an
// index defines them otherwise than the last one. The zero value is
// ready; a Builder is used by one goroutine at a time.
type Builder struct {
	bd   *docBuilder
	defs any // the definitions of bd's analyzers (analyzerDefs)
}

// AddTo is the package's AddTo, with the Builder's documents.
func (b *Builder) AddTo(idx bleve.Index, docs []Doc) error {
	return b.AddBatches(idx, docs, Batch)
}

// builder returns the Builder's docBuilder for idx.
func (b *Builder) builder(idx bleve.Index) (*docBuilder, error) {
	m := idx.Mapping()
	defs := analyzerDefs(m)
	if b.bd != nil && defs != nil && reflect.DeepEqual(defs, b.defs) {
		return b.bd, nil
	}
	bd, err := newDocBuilder(m)
	if err != nil {
		return nil, err
	}
	b.bd, b.defs = bd, defs
	return bd, nil
}

// analyzerDefs returns the custom analyzers a mapping defines, nil when
// it cannot tell them (then no Builder reuses its analyses).
func analyzerDefs(m mapping.IndexMapping) any {
	im, ok := m.(*mapping.IndexMappingImpl)
	if !ok || im.CustomAnalysis == nil {
		return nil
	}
	return *im.CustomAnalysis
}

// AddBatches is AddTo in batches of at most batch documents.
func (b *Builder) AddBatches(idx bleve.Index, docs []Doc, batch int) error {
	bd, err := b.builder(idx)
	if err != nil {
		return err
	}
	for len(docs) > 0 {
		b := idx.NewBatch()
		n, size := 0, 0
		for n < len(docs) && n < batch && size < BatchBytes {
			if err := b.IndexAdvanced(bd.build(&docs[n])); err != nil {
				return err
			}
			size += docs[n].Size()
			n++
		}
		if err := idx.Batch(b); err != nil {
			return fmt.Errorf("text index: %w", err)
		}
		docs = docs[n:]
	}
	return nil
}
