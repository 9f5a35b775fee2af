package textindex

import (
	"context"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	bindex "github.com/blevesearch/bleve_index_api"
)

// Bounds of a word that stands for many terms: a wildcard word or a
// regular expression is matched against every term of a field's
// dictionary that could match (those after its literal prefix), and the
// documents of the matching terms are searched.
const (
	// MaxWildcards is the most * and ? in one wildcard word.
	MaxWildcards = 8
	// MaxRegexpInsts is the most instructions of a regular expression
	// once compiled (its size: `a.*b` is 7, `.{0,100}` over 200).
	MaxRegexpInsts = 256
	// MaxExpansion is the most terms of one field that one wildcard word
	// or regular expression may stand for.
	MaxExpansion = 10_000
)

// checkEvery is how many terms of a dictionary are matched between two
// looks at the search's context.
const checkEvery = 256

// bounded returns q with each wildcard word and regular expression
// replaced by its termSet (checked against MaxWildcards and
// MaxRegexpInsts: a *QueryError), and a field-less word of stars alone
// ("*") by the query of every document. Boolean, conjunction and
// disjunction queries are rewritten in place.
//
// Why not Bleve's own searchers: they build a deterministic automaton of
// the pattern first, which neither looks at the search's context nor
// stays small (`a*` written 40 times took seconds, `.{0,200}x.{0,200}`
// half a minute, each once per field), and they expand a pattern into
// any number of terms. A termSet matches the dictionary's terms with
// Go's regexp (time linear in the term), looks at the context as it
// goes, and stops at MaxExpansion.
func bounded(q query.Query) (query.Query, error) {
	var err error
	switch q := q.(type) {
	case *query.BooleanQuery:
		for _, c := range []*query.Query{&q.Must, &q.Should, &q.MustNot, &q.Filter} {
			if *c != nil && err == nil {
				*c, err = bounded(*c)
			}
		}
		return q, err
	case *query.ConjunctionQuery:
		for i := range q.Conjuncts {
			if err == nil {
				q.Conjuncts[i], err = bounded(q.Conjuncts[i])
			}
		}
		return q, err
	case *query.DisjunctionQuery:
		for i := range q.Disjuncts {
			if err == nil {
				q.Disjuncts[i], err = bounded(q.Disjuncts[i])
			}
		}
		return q, err
	case *query.WildcardQuery:
		return wildcardTerms(q)
	case *query.RegexpQuery:
		return regexpTerms(q)
	}
	return q, nil
}

// starsOnly reports a wildcard word of stars alone.
func starsOnly(w string) bool { return w != "" && strings.Trim(w, "*") == "" }

// everyDocument replaces, in q as Bleve parsed it (before overTextFields),
// a field-less word of stars alone by the query of every document: "*"
// asks for every game, not for every term of every field.
func everyDocument(q query.Query) query.Query {
	switch q := q.(type) {
	case *query.BooleanQuery:
		q.Must = everyDocument(q.Must)
		q.Should = everyDocument(q.Should)
		q.MustNot = everyDocument(q.MustNot)
		q.Filter = everyDocument(q.Filter)
	case *query.ConjunctionQuery:
		for i, c := range q.Conjuncts {
			q.Conjuncts[i] = everyDocument(c)
		}
	case *query.DisjunctionQuery:
		for i, c := range q.Disjuncts {
			q.Disjuncts[i] = everyDocument(c)
		}
	case *query.WildcardQuery:
		if (q.FieldVal == "" || q.FieldVal == allField) && starsOnly(q.Wildcard) {
			m := query.NewMatchAllQuery()
			m.SetBoost(q.Boost())
			return m
		}
	}
	return q
}

// wildcardTerms is the termSet of a wildcard word: * any run of
// characters, ? any one, every other character itself, as Bleve reads it.
func wildcardTerms(q *query.WildcardQuery) (query.Query, error) {
	n := strings.Count(q.Wildcard, "*") + strings.Count(q.Wildcard, "?")
	if n > MaxWildcards {
		return nil, queryError("text query word %q: %d wildcards (* and ?), at most %d", q.Wildcard, n, MaxWildcards)
	}
	var b strings.Builder
	prefix := true
	lit := 0
	for i, r := range q.Wildcard {
		switch r {
		case '*', '?':
			if prefix {
				lit, prefix = i, false
			}
			if r == '*' {
				b.WriteString(".*")
			} else {
				b.WriteString(".")
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	if prefix {
		lit = len(q.Wildcard)
	}
	re, err := regexp.Compile(`^(?:` + b.String() + `)$`)
	if err != nil {
		return nil, queryError("text query word %q: %v", q.Wildcard, err)
	}
	return &termSet{field: q.FieldVal, boost: q.Boost(), word: q.Wildcard, re: re, prefix: q.Wildcard[:lit]}, nil
}

// regexpTerms is the termSet of a regular expression (Go's syntax, as
// Bleve's; a leading ^ is dropped as Bleve drops it): it matches whole
// terms.
func regexpTerms(q *query.RegexpQuery) (query.Query, error) {
	expr := strings.TrimPrefix(q.Regexp, "^")
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, queryError("text query /%s/: %v", q.Regexp, err)
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return nil, queryError("text query /%s/: %v", q.Regexp, err)
	}
	if len(prog.Inst) > MaxRegexpInsts {
		return nil, queryError("text query /%s/: regular expression of %d instructions, at most %d", q.Regexp, len(prog.Inst), MaxRegexpInsts)
	}
	re, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		return nil, queryError("text query /%s/: %v", q.Regexp, err)
	}
	prefix, _ := prog.Prefix()
	return &termSet{field: q.FieldVal, boost: q.Boost(), word: "/" + q.Regexp + "/", re: re, prefix: prefix}, nil
}

// termSet is a word standing for the terms of field that re matches
// whole, all of which begin with prefix.
type termSet struct {
	field  string
	boost  float64
	word   string // as written, for errors
	re     *regexp.Regexp
	prefix string
}

// Searcher searches the documents of the terms of the field that match,
// found in its dictionary, looking at ctx every checkEvery terms; past
// MaxExpansion terms it is a *QueryError.
func (q *termSet) Searcher(ctx context.Context, i bindex.IndexReader, m mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	field := q.field
	if field == "" {
		field = m.DefaultSearchField()
	}
	terms, err := q.terms(ctx, i, field)
	if err != nil {
		return nil, err
	}
	return searcher.NewMultiTermSearcher(ctx, i, terms, field, q.boost, options, false)
}

// terms are the terms of field's dictionary that match.
func (q *termSet) terms(ctx context.Context, i bindex.IndexReader, field string) (terms []string, err error) {
	var dict bindex.FieldDict
	if q.prefix != "" {
		dict, err = i.FieldDictPrefix(field, []byte(q.prefix))
	} else {
		dict, err = i.FieldDict(field)
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := dict.Close(); err == nil {
			err = cerr
		}
	}()
	for n := 0; ; n++ {
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		e, err := dict.Next()
		if err != nil || e == nil {
			return terms, err
		}
		if !q.re.MatchString(e.Term) {
			continue
		}
		if len(terms) == MaxExpansion {
			return nil, queryError("text query word %s matches more than %d words of %s: make it longer", q.word, MaxExpansion, field)
		}
		terms = append(terms, e.Term)
	}
}
