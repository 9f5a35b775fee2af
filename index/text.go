package index

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	unicodetok "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"
	bolterrors "go.etcd.io/bbolt/errors"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/plateau/plateau/record"
)

// textDoc is the text-index document of one valid game: the values of its
// fields (fields), turned into a Bleve document by textDocs.build.
type textDoc struct {
	id                               int64
	game, result, date, players      string
	event, site, annotator, comments string
}

// A Bleve batch holds at most bleveBatch documents and, once past
// bleveBatchBytes of text, ends with the document that crossed it. Each
// batch is a segment that Bleve then merges: batches of 5000 games instead
// of 1000 took about a sixth off the CPU time per game (BenchmarkTextIndex).
// textBatch is the number of games an edit re-indexes at a time (syncText).
const (
	bleveBatch      = 5000
	bleveBatchBytes = 8 << 20
	textBatch       = 1000
)

// size is the text of a document, in bytes.
func (d *textDoc) size() int {
	return len(d.game) + len(d.result) + len(d.date) + len(d.players) + len(d.event) + len(d.site) +
		len(d.annotator) + len(d.comments)
}

func docOf(id int64, p *prepared) textDoc {
	return textDoc{id: id, game: p.game, result: p.result, date: p.date,
		players: strings.TrimSpace(p.players[0] + " ; " + p.players[1]),
		event:   p.event, site: p.site, annotator: p.annot, comments: p.comment}
}

// Fields of the text index: textFields analyzed by foldAnalyzer, searched
// by a query term written without a field (textQuery); keywordFields whole,
// only queried by name.
var (
	textFields    = [...]string{"players", "event", "site", "annotator", "comments"}
	keywordFields = [...]string{"game", "result", "date"}
)

// fields returns the values of the document's textFields and keywordFields,
// in their order.
func (d *textDoc) fields() (text [len(textFields)]string, kw [len(keywordFields)]string) {
	return [...]string{d.players, d.event, d.site, d.annotator, d.comments},
		[...]string{d.game, d.result, d.date}
}

// docBuilder builds Bleve documents for an index, as its mapping
// (textMapping) would map them, without the mapping's reflection over a
// map[string]any: every keyword field and the text fields that are not
// empty (the mapping leaves them out of the map). Bleve's default field
// _all, every text token a second time, is not built (textQuery). Fields
// are analyzed as they are built, each value once (termCache, textField).
type docBuilder struct {
	fold, keyword *termCache
}

// textIndexing are the indexing options of textMapping's fields: neither
// stored, nor term vectors, nor doc values.
const textIndexing = bindex.IndexField

func newDocBuilder(m mapping.IndexMapping) (*docBuilder, error) {
	fold, kw := m.AnalyzerNamed(foldAnalyzer), m.AnalyzerNamed(keyword.Name)
	if fold == nil || kw == nil {
		return nil, fmt.Errorf("text index: the mapping lacks the analyzers %s and %s", foldAnalyzer, keyword.Name)
	}
	return &docBuilder{fold: newTermCache(fold), keyword: newTermCache(kw)}, nil
}

func (b *docBuilder) build(d *textDoc) *document.Document {
	doc := document.NewDocument(strconv.FormatInt(d.id, 10))
	text, kw := d.fields()
	doc.Fields = make([]document.Field, 0, len(text)+len(kw)+1) // and _id, added by the index
	fs := make([]textField, 0, len(text)+len(kw))
	add := func(name, v string, a *analyzed) {
		fs = append(fs, textField{name: name, value: v, a: a})
		doc.Fields = append(doc.Fields, &fs[len(fs)-1])
	}
	add(textFields[0], text[0], b.fold.players(text[0])) // players is always in the map
	for i, v := range text[1:] {
		if v != "" {
			add(textFields[i+1], v, b.fold.get(v))
		}
	}
	for i, v := range kw {
		add(keywordFields[i], v, b.keyword.get(v))
	}
	doc.SetIndexed()
	return doc
}

const foldAnalyzer = "plateau_fold"

func textMapping() (mapping.IndexMapping, error) {
	im := bleve.NewIndexMapping()
	err := im.AddCustomAnalyzer(foldAnalyzer, map[string]any{
		"type":          custom.Name,
		"char_filters":  []string{asciifolding.Name},
		"tokenizer":     unicodetok.Name,
		"token_filters": []string{lowercase.Name},
	})
	if err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = foldAnalyzer
	dm := bleve.NewDocumentMapping()
	txt := func() *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = foldAnalyzer
		f.Store = false
		f.IncludeTermVectors = false
		f.DocValues = false
		return f
	}
	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store = false
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		f.DocValues = false // never sorted or faceted on
		return f
	}
	for _, n := range textFields {
		dm.AddFieldMappingsAt(n, txt())
	}
	for _, n := range keywordFields {
		dm.AddFieldMappingsAt(n, kw())
	}
	dm.AddSubDocumentMapping(allField, bleve.NewDocumentDisabledMapping()) // no _all (textQuery)
	im.DefaultMapping = dm
	return im, nil
}

func (db *DB) textPath() string { return filepath.Join(db.dir, bleveName) }

// The text index is opened for one piece of work and closed after it:
// Bleve (boltdb) lets one process write it, or several read it, never both.
// An import holds it only while it indexes up to textTurn documents of one
// commit, so that a reader in another process (plateau search --text,
// serve) opens it between two turns; a reader holds it for one query.
const (
	// textReadWait is how long a query waits for an import to release the
	// index before failing with ErrTextBusy. An import holds it for at
	// most textTurn documents (about a second for 10,000 Ōgi games): a
	// commit of a large database's import holds up to 200,000.
	textReadWait = 20 * time.Second
	// textWriteWait is how long an import waits for readers to release it.
	textWriteWait = time.Minute
	// textYield is the pause of an import after releasing the index: longer
	// than boltdb's 50 ms retry period, so that a waiting reader gets in.
	textYield = 120 * time.Millisecond
)

// textTurn is the most documents an import indexes in one opening of the
// index (a variable for tests).
var textTurn = 10000

// testTextTurn, set by a test, is told the documents of each turn.
var testTextTurn func(docs int)

// withText opens the text index (read-only for a read-only database;
// otherwise for writing, creating it if needed), runs fn and closes it.
// Within one process a writable database's calls take turns; a read-only
// database's run side by side (boltdb's shared lock).
func (db *DB) withText(fn func(bleve.Index) error) error {
	if db.readOnly {
		db.mu.RLock()
		defer db.mu.RUnlock()
	} else {
		db.mu.Lock()
		defer db.mu.Unlock()
	}
	idx, err := db.openText()
	if err != nil {
		return err
	}
	err = fn(idx)
	if err == nil && !db.readOnly {
		err = mergeText(idx)
	}
	return errors.Join(err, idx.Close())
}

// openText opens the text index, creating it for a writable database. Its
// errors say what happened: ErrTextBusy when another process holds it
// beyond the wait, ErrTextBroken when its files are damaged, the file
// system's error otherwise (no space, permissions), each naming the path.
func (db *DB) openText() (bleve.Index, error) {
	path := db.textPath()
	if db.textFault != nil && !db.readOnly {
		if err := db.textFault(); err != nil {
			return nil, fmt.Errorf("text index %s: %w", path, err)
		}
	}
	if _, serr := os.Stat(path); serr != nil {
		if db.readOnly {
			return nil, fmt.Errorf("no text index in %s: %w", db.dir, ErrNotFound)
		}
		if err := createText(path); err != nil {
			return nil, err
		}
	}
	cfg := map[string]any{"bolt_timeout": textWriteWait.String()}
	wait := textWriteWait
	if db.readOnly {
		cfg = map[string]any{"bolt_timeout": textReadWait.String(), "read_only": true}
		wait = textReadWait
	}
	idx, err := bleve.OpenUsing(path, cfg)
	if err != nil {
		return nil, textOpenError(path, wait, err)
	}
	return idx, nil
}

// scanTextDoc reads a row of (id, game, result, date, event, site, the two
// players' names) and the stored record's annotator and comments into the
// game's text document.
func (db *DB) scanTextDoc(ctx context.Context, rows *sql.Rows, cache *blockCache) (int64, textDoc, error) {
	var id int64
	var game string
	var res, date, ev, site, a, b sql.NullString
	if err := rows.Scan(&id, &game, &res, &date, &ev, &site, &a, &b); err != nil {
		return 0, textDoc{}, err
	}
	p := &prepared{game: game, result: res.String, date: date.String, event: ev.String, site: site.String,
		players: [2]string{a.String, b.String}}
	if rec, err := db.record(ctx, id, cache); err == nil {
		p.annot = rec.Tag("Annotator")
		var cb strings.Builder
		for _, c := range rec.Intro {
			cb.WriteString(c + " ")
		}
		collectComments(&cb, rec.Moves)
		p.comment = cb.String()
	}
	return id, docOf(id, p), nil
}

// createText creates an empty text index at path atomically: it is built
// beside path and renamed into place once complete, so that a reader in
// another process sees either no index or a whole one, never the files of
// one being created (which would read as damaged).
func createText(path string) error {
	tmp := path + ".new"
	if err := os.RemoveAll(tmp); err != nil { // left by a killed process
		return fmt.Errorf("text index %s: %w", tmp, err)
	}
	m, err := textMapping()
	if err != nil {
		return err
	}
	idx, err := bleve.NewUsing(tmp, m, bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore,
		map[string]any{"bolt_timeout": textWriteWait.String()})
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

// textOpenError names the cause of a failed open of the text index at path.
func textOpenError(path string, wait time.Duration, err error) error {
	var pe *fs.PathError
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return fmt.Errorf("%w: %s still locked by another process after %v", ErrTextBusy, path, wait)
	case errors.As(err, &pe) && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EROFS)):
		return fmt.Errorf("text index %s: %w", path, err)
	}
	return fmt.Errorf("%w: %s: %v (`plateau reindex` rebuilds it from the SQLite store; an import does so by itself)", ErrTextBroken, path, err)
}

// mergeText runs the merges that Bleve's default merge policy plans, which
// its background merger would have run had the index stayed open.
func mergeText(idx bleve.Index) error {
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

func indexDocs(idx bleve.Index, docs []textDoc) error {
	return indexDocsBatch(idx, docs, bleveBatch)
}

// indexDocsBatch is indexDocs in Bleve batches of at most batch documents.
func indexDocsBatch(idx bleve.Index, docs []textDoc, batch int) error {
	bd, err := newDocBuilder(idx.Mapping())
	if err != nil {
		return err
	}
	for len(docs) > 0 {
		b := idx.NewBatch()
		n, size := 0, 0
		for n < len(docs) && n < batch && size < bleveBatchBytes {
			if err := b.IndexAdvanced(bd.build(&docs[n])); err != nil {
				return err
			}
			size += docs[n].size()
			n++
		}
		if err := idx.Batch(b); err != nil {
			return fmt.Errorf("text index: %w", err)
		}
		docs = docs[n:]
	}
	return nil
}

// catchUpText indexes the valid games SQLite holds beyond the text index's
// high-water mark (left there by an import that was killed). It returns the
// number of games indexed.
func (db *DB) catchUpText(ctx context.Context) (int, error) {
	if n, done, err := db.repairText(ctx); done || err != nil {
		return n, err
	}
	hw, err := db.metaInt(ctx, db.sql, "text_hw")
	if err != nil {
		return 0, err
	}
	var max sql.NullInt64
	if err := db.sql.QueryRowContext(ctx, `SELECT MAX(id) FROM games WHERE valid = 1`).Scan(&max); err != nil {
		return 0, err
	}
	if !max.Valid || max.Int64 <= hw {
		return 0, nil
	}
	return db.indexFrom(ctx, hw)
}

// indexFrom (re)indexes every valid game with id > after, then records the
// high-water mark.
func (db *DB) indexFrom(ctx context.Context, after int64) (int, error) {
	return db.indexFromProgress(ctx, after, nil)
}

// indexFromProgress is indexFrom calling progress after each batch with the
// games indexed and the valid games to index.
func (db *DB) indexFromProgress(ctx context.Context, after int64, progress func(done, total int)) (int, error) {
	total := 0
	if progress != nil {
		db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE valid = 1 AND id > ?`, after).Scan(&total)
	}
	n := 0
	var cache blockCache
	for {
		rows, err := db.sql.QueryContext(ctx, `SELECT g.id, g.game, g.result, g.date, g.event, g.site, a.name, b.name
			FROM games g LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1
			WHERE g.valid = 1 AND g.id > ? ORDER BY g.id LIMIT ?`, after, bleveBatch)
		if err != nil {
			return n, err
		}
		var docs []textDoc
		size := 0
		for size < bleveBatchBytes && rows.Next() {
			id, doc, err := db.scanTextDoc(ctx, rows, &cache)
			if err != nil {
				rows.Close()
				return n, err
			}
			docs = append(docs, doc)
			size += doc.size()
			after = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return n, err
		}
		if len(docs) == 0 {
			return n, nil
		}
		if err := db.withText(func(idx bleve.Index) error { return indexDocs(idx, docs) }); err != nil {
			return n, err
		}
		n += len(docs)
		if err := setMeta(ctx, db.sql, "text_hw", after); err != nil {
			return n, err
		}
		if progress != nil {
			progress(n, max(n, total))
		}
		if err := ctx.Err(); err != nil {
			return n, err
		}
	}
}

// repairText rebuilds a damaged text index (a disk that filled while it
// was written, files lost) from SQLite, telling Notice so; done reports
// that it did.
func (db *DB) repairText(ctx context.Context) (n int, done bool, err error) {
	if _, err := os.Stat(db.textPath()); err != nil {
		return 0, false, nil
	}
	db.mu.Lock()
	idx, err := db.openText()
	if err == nil {
		err = idx.Close()
	}
	db.mu.Unlock()
	if !errors.Is(err, ErrTextBroken) {
		return 0, false, err
	}
	if db.notice != nil {
		db.notice(fmt.Sprintf("%v; rebuilding it from the SQLite store", err))
	}
	n, err = db.reindex(ctx, nil) // under the import's lock
	if err != nil {
		return n, true, fmt.Errorf("rebuilding the damaged text index: %w", err)
	}
	if db.notice != nil {
		db.notice(fmt.Sprintf("text index rebuilt: %d games indexed", n))
	}
	return n, true, nil
}

// Reindex rebuilds the text index from SQLite and returns the number of
// games indexed.
func (db *DB) Reindex(ctx context.Context) (int, error) {
	return db.ReindexProgress(ctx, nil)
}

// ReindexProgress is Reindex calling progress after each batch of documents
// with the games indexed and the games to index. Stopped (ctx), it leaves
// the index holding the games up to the last batch, and the next writable
// import or reindex goes on from there.
func (db *DB) ReindexProgress(ctx context.Context, progress func(done, total int)) (int, error) {
	if db.readOnly {
		return 0, fmt.Errorf("reindex: %w (opened for queries only)", ErrReadOnly)
	}
	lock, err := db.waitImportLock(ctx) // mergelock.go
	if err != nil {
		return 0, err
	}
	defer lock.release()
	return db.reindex(ctx, progress)
}

// reindex is ReindexProgress under the import lock.
func (db *DB) reindex(ctx context.Context, progress func(done, total int)) (int, error) {
	db.mu.Lock()
	err := os.RemoveAll(db.textPath())
	db.mu.Unlock()
	if err != nil {
		return 0, err
	}
	if err := setMeta(ctx, db.sql, "text_hw", 0); err != nil {
		return 0, err
	}
	return db.indexFromProgress(ctx, 0, progress)
}

// record reads a stored record.
func (db *DB) record(ctx context.Context, id int64, cache *blockCache) (*record.Game, error) {
	text, err := db.recordText(ctx, id, cache)
	if err != nil {
		return nil, err
	}
	r := record.NewReader(bytes.NewReader(text), "db")
	return r.Next()
}

// Bounds of a text query: Bleve's query-string parser takes time growing
// with the square of the text (80 KB: 1.8 s), and every term is a searcher.
// A wildcard, fuzzy or regular-expression term is a search of every
// matching term of the index (*a* of a few thousand games: 0.2 s).
const (
	MaxTextQuery    = 1024 // bytes
	MaxTextTerms    = 32   // words separated by spaces
	MaxTextPatterns = 4    // words with *, ?, ~ or a /regexp/
)

// TextSearch runs a Bleve query-string query (fields players,
// event, site, annotator, comments, game, result, date) and returns the
// matching game ids, at most max. A query longer than MaxTextQuery or
// with more than MaxTextTerms words is refused with ErrQuery; the query is
// parsed before the text index is opened, and the search stops when ctx is
// done (its error is then ctx's).
func (db *DB) TextSearch(ctx context.Context, q string, max int) ([]int64, error) {
	if len(q) > MaxTextQuery {
		return nil, fmt.Errorf("%w: text query of %d bytes, at most %d", ErrQuery, len(q), MaxTextQuery)
	}
	if n := len(strings.Fields(q)); n > MaxTextTerms {
		return nil, fmt.Errorf("%w: text query of %d words, at most %d", ErrQuery, n, MaxTextTerms)
	}
	if n := patternTerms(q); n > MaxTextPatterns {
		return nil, fmt.Errorf("%w: text query of %d wildcard, fuzzy or regular-expression words, at most %d", ErrQuery, n, MaxTextPatterns)
	}
	qq, err := textQuery(q)
	if err != nil {
		return nil, fmt.Errorf("%w: text query %q: %v", ErrQuery, q, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req := bleve.NewSearchRequestOptions(qq, max, 0, false)
	var res *bleve.SearchResult
	var qerr error
	err = db.withText(func(idx bleve.Index) error {
		res, qerr = idx.SearchInContext(ctx, req)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if qerr != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, fmt.Errorf("text query: %w", cerr)
		}
		return nil, fmt.Errorf("%w: text query %q: %v", ErrQuery, q, qerr)
	}
	ids := make([]int64, 0, len(res.Hits))
	for _, h := range res.Hits {
		if id, err := strconv.ParseInt(h.ID, 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// allField is Bleve's default field, searched by a query term written
// without a field: in indexes written before 2026-12 the text fields'
// tokens once more (with term vectors), not written since.
const allField = "_all"

// textQuery parses a Bleve query string for Plateau's text index. A term
// without a field (or naming _all) searches each text field instead of _all:
// it becomes the disjunction of the same term over textFields, which
// matches the games _all matched (the union of the fields' tokens, analyzed
// alike) in indexes with _all and without; only scores differ. The
// disjunction is a query-string boolean query, so that a term that
// analyzes to nothing is still dropped from its conjunction as Bleve drops
// it. A phrase ("…", field:"…") matches the games that hold all its words
// in one field (its field, or any one text field), in any order
// (phraseWords).
func textQuery(q string) (query.Query, error) {
	qq, err := bleve.NewQueryStringQuery(q).Parse()
	if err != nil {
		return nil, err
	}
	return overTextFields(qq), nil
}

// overTextFields rewrites q in place (boolean, conjunction and disjunction
// queries keep their must, must-not and should clauses and their query-
// string mode) and returns it, a field-less leaf replaced by its
// disjunction over textFields, a phrase by its phraseWords.
func overTextFields(q query.Query) query.Query {
	switch q := q.(type) {
	case *query.BooleanQuery:
		q.Must = overTextFields(q.Must)
		q.Should = overTextFields(q.Should)
		q.MustNot = overTextFields(q.MustNot)
		q.Filter = overTextFields(q.Filter)
		return q
	case *query.ConjunctionQuery:
		for i, c := range q.Conjuncts {
			q.Conjuncts[i] = overTextFields(c)
		}
		return q
	case *query.DisjunctionQuery:
		for i, c := range q.Disjuncts {
			q.Disjuncts[i] = overTextFields(c)
		}
		return q
	case query.FieldableQuery:
		if f := q.Field(); f != "" && f != allField {
			return wordsOfPhrase(q)
		}
		leaves := make([]query.Query, 0, len(textFields))
		for _, f := range textFields {
			c := copyLeaf(q)
			if c == nil {
				return q
			}
			c.SetField(f)
			leaves = append(leaves, wordsOfPhrase(c))
		}
		return query.NewBooleanQueryForQueryString(nil, leaves, nil)
	}
	return q
}

// wordsOfPhrase returns q, a phrase ("…") as phraseWords.
func wordsOfPhrase(q query.FieldableQuery) query.Query {
	if p, ok := q.(*query.MatchPhraseQuery); ok {
		return phraseWords{p}
	}
	return q
}

// phraseWords is a phrase of a query string, with its field, searched as
// the games whose field holds every word of the phrase, in any order:
// the text index keeps no word positions (textIndexing), without which
// Bleve's phrase search matches no game. Words are the field's analyzer's
// tokens, as for the phrase; one that analyzes to nothing matches nothing,
// as a phrase does (a query-string boolean query then drops it).
//
// Term vectors (positions, for exact phrases) would take the index from
// 124 to 215 bytes a game, for about the same CPU (BenchmarkTextIndex,
// 20,000 Ōgi games, medians of 3 alternated runs: 35.9 and 37.7 µs a
// game), and indexes written without them would still need this search.
type phraseWords struct{ *query.MatchPhraseQuery }

func (q phraseWords) Searcher(ctx context.Context, i bindex.IndexReader, m mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	field := q.FieldVal
	if field == "" {
		field = m.DefaultSearchField()
	}
	name := q.Analyzer
	if name == "" {
		name = m.AnalyzerNameForPath(field)
	}
	a := m.AnalyzerNamed(name)
	if a == nil {
		return nil, fmt.Errorf("no analyzer named %q", name)
	}
	var words []query.Query
	seen := map[string]bool{}
	for _, tok := range a.Analyze([]byte(q.MatchPhrase)) {
		w := string(tok.Term)
		if seen[w] {
			continue
		}
		seen[w] = true
		var wq query.FieldableQuery
		if q.Fuzziness > 0 {
			fq := query.NewFuzzyQuery(w)
			fq.SetFuzziness(q.Fuzziness)
			wq = fq
		} else {
			wq = query.NewTermQuery(w)
		}
		wq.SetField(field)
		words = append(words, wq)
	}
	if len(words) == 0 {
		return query.NewMatchNoneQuery().Searcher(ctx, i, m, options)
	}
	c := query.NewConjunctionQuery(words)
	c.SetBoost(q.Boost())
	return c.Searcher(ctx, i, m, options)
}

// copyLeaf returns a copy of a leaf query that can name a field, nil for a
// type it does not know.
func copyLeaf(q query.FieldableQuery) query.FieldableQuery {
	switch q := q.(type) {
	case *query.MatchQuery:
		c := *q
		return &c
	case *query.MatchPhraseQuery:
		c := *q
		return &c
	case *query.TermQuery:
		c := *q
		return &c
	case *query.PrefixQuery:
		c := *q
		return &c
	case *query.WildcardQuery:
		c := *q
		return &c
	case *query.FuzzyQuery:
		c := *q
		return &c
	case *query.RegexpQuery:
		c := *q
		return &c
	case *query.PhraseQuery:
		c := *q
		return &c
	case *query.MultiPhraseQuery:
		c := *q
		return &c
	case *query.NumericRangeQuery:
		c := *q
		return &c
	case *query.DateRangeQuery:
		c := *q
		return &c
	case *query.TermRangeQuery:
		c := *q
		return &c
	}
	return nil
}

// patternTerms counts the words of a query string that match many terms:
// wildcards (* ?), fuzzy terms (~) and regular expressions (/…/).
func patternTerms(q string) int {
	n := 0
	for _, w := range strings.Fields(q) {
		if strings.ContainsAny(w, "*?~/") {
			n++
		}
	}
	return n
}

// fold is the player-name key: lower case, accents removed, spaces and
// punctuation collapsed to single spaces.
func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	r, _, err := transform.String(t, s)
	if err != nil {
		r = s
	}
	r = strings.ToLower(r)
	f := strings.FieldsFunc(r, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
	return strings.Join(f, " ")
}
