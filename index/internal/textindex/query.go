package textindex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"
)

// Bounds of a query: Bleve's query-string parser takes time growing with
// the square of the text, and every term is a searcher; a wildcard, fuzzy
// or regular-expression term is a search of every matching term of the
// index.
const (
	MaxQuery    = 1024 // bytes
	MaxTerms    = 32   // words separated by spaces
	MaxPatterns = 4    // words with *, ?, ~ or a /regexp/
)

// QueryError is a query refused: over a bound, or not a query string, or
// one the index cannot run. Msg says which, naming the query.
type QueryError struct{ Msg string }

func (e *QueryError) Error() string { return e.Msg }

func queryError(format string, args ...any) error {
	return &QueryError{Msg: fmt.Sprintf(format, args...)}
}

// Search runs a Bleve query-string query (fields players, event, site,
// annotator, comments, game, result, date) and returns the matching game
// ids, at most max, in no particular order. A query over a bound (its
// size, its words, a word that stands for too many terms: MaxWildcards,
// MaxRegexpInsts, MaxExpansion), or that does not parse, is a
// *QueryError; the query is parsed and its patterns compiled before the
// index is opened, and the search stops when ctx is done (its error is
// then ctx's), also while it matches the terms of a pattern. A word of
// stars alone ("*") matches every game.
func (x *Index) Search(ctx context.Context, q string, max int) ([]int64, error) {
	ids, _, err := x.SearchCount(ctx, q, max)
	return ids, err
}

// SearchCount is Search, also returning the number of documents the index
// held when it was searched.
func (x *Index) SearchCount(ctx context.Context, q string, max int) (ids []int64, docs uint64, err error) {
	qq, err := prepare(q)
	if err != nil {
		return nil, 0, err
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	var qerr error
	err = x.With(func(idx bleve.Index) error {
		ids, qerr = run(ctx, idx, q, qq, max)
		if qerr == nil {
			docs, qerr = idx.DocCount()
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return ids, docs, qerr
}

// Count is the number of documents in the index: 0 when there is none
// yet (none is created).
func (x *Index) Count() (docs uint64, err error) {
	if _, err := os.Stat(x.path); errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	err = x.With(func(idx bleve.Index) error {
		docs, err = idx.DocCount()
		return err
	})
	return docs, err
}

// prepare checks a query string against the bounds and parses it into
// the query Search runs.
func prepare(q string) (query.Query, error) {
	if len(q) > MaxQuery {
		return nil, queryError("text query of %d bytes, at most %d", len(q), MaxQuery)
	}
	if n := len(strings.Fields(q)); n > MaxTerms {
		return nil, queryError("text query of %d words, at most %d", n, MaxTerms)
	}
	if n := patternTerms(q); n > MaxPatterns {
		return nil, queryError("text query of %d wildcard, fuzzy or regular-expression words, at most %d", n, MaxPatterns)
	}
	parsed, err := bleve.NewQueryStringQuery(q).Parse()
	if err != nil {
		return nil, queryError("text query %q: %v", q, err)
	}
	return bounded(overTextFields(everyDocument(parsed)))
}

// run runs qq, prepared from the query string q, on an open index.
func run(ctx context.Context, idx bleve.Index, q string, qq query.Query, max int) ([]int64, error) {
	req := bleve.NewSearchRequestOptions(qq, max, 0, false)
	req.Score = "none" // a set of games: no scores, so that many terms are searched as one
	res, err := idx.SearchInContext(ctx, req)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, fmt.Errorf("text query: %w", cerr)
		}
		if qe := (*QueryError)(nil); errors.As(err, &qe) {
			return nil, qe
		}
		return nil, queryError("text query %q: %v", q, err)
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

// Parse parses a Bleve query string for Plateau's text index. A term
// without a field (or naming _all) searches each text field instead of
// _all: it becomes the disjunction of the same term over textFields, which
// matches the games _all matched (the union of the fields' tokens,
// analyzed alike) in indexes with _all and without; only scores differ.
// The disjunction is a query-string boolean query, so that a term that
// analyzes to nothing is still dropped from its conjunction as Bleve drops
// it. A phrase ("…", field:"…") matches the games that hold all its words
// in one field (its field, or any one text field), in any order
// (phraseWords).
func Parse(q string) (query.Query, error) {
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
// Positions (term vectors) would make the index much larger, and indexes
// written without them would still need this search (docs/storage.md).
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
