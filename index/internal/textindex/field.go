package textindex

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	bindex "github.com/blevesearch/bleve_index_api"
)

// analyzed is a field value as an analyzer gave it to the index: its
// token frequencies (shared, read only, by every field of that value) and
// its number of tokens. joins reports that the value's tokens, in a
// players field "a ; b", are exactly a's then b's (foldTerms).
type analyzed struct {
	tf    bindex.TokenFrequencies
	terms []termFreq // tf's terms and frequencies, for segmentWriter
	n     int
	joins bool
}

// termFreq is a term of a field value and its number of tokens.
type termFreq struct {
	term string
	freq uint32
}

// newAnalyzed is the analysis of a value of n tokens whose frequencies
// are tf.
func newAnalyzed(tf bindex.TokenFrequencies, n int, joins bool) *analyzed {
	terms := make([]termFreq, 0, len(tf))
	for k, f := range tf {
		terms = append(terms, termFreq{term: k, freq: uint32(f.Frequency())})
	}
	return &analyzed{tf: tf, terms: terms, n: n, joins: joins}
}

// termCache remembers the analysis of the field values of one AddTo
// call: most values recur (a collection repeats a few events, sites,
// comments and player names across its games: docs/storage.md), and each
// analysis costs an allocation per token and a map.
// Bleve reads a field's token frequencies and never writes them (zapx's
// MergeAll writes only into a field named twice in one document, which
// docBuilder never makes), so that fields of one value share them.
type termCache struct {
	a     analysis.Analyzer
	chars []analysis.CharFilter // a's char filters, when a is a DefaultAnalyzer
	plain bool                  // a is a DefaultAnalyzer: joins can be told
	m     map[string]*analyzed
}

// maxTermCache bounds the values a termCache holds; past it, it starts
// afresh.
const maxTermCache = 1 << 17

func newTermCache(a analysis.Analyzer) *termCache {
	c := &termCache{a: a, m: map[string]*analyzed{}}
	if d, ok := a.(*analysis.DefaultAnalyzer); ok {
		c.plain, c.chars = true, d.CharFilters
	}
	return c
}

// get returns the analysis of v, from the cache or made and remembered.
func (c *termCache) get(v string) *analyzed {
	if r, ok := c.m[v]; ok {
		return r
	}
	if len(c.m) >= maxTermCache {
		clear(c.m)
	}
	r := c.analyze(v)
	c.m[v] = r
	return r
}

func (c *termCache) analyze(v string) *analyzed {
	in := []byte(v)
	var tokens analysis.TokenStream
	joins := false
	if c.plain {
		// DefaultAnalyzer.Analyze, with the char filters' output kept to
		// tell joins.
		d := c.a.(*analysis.DefaultAnalyzer)
		for _, cf := range c.chars {
			in = cf.Filter(in)
		}
		joins = wordEdges(in)
		tokens = d.Tokenizer.Tokenize(in)
		for _, tf := range d.TokenFilters {
			tokens = tf.Filter(tokens)
		}
	} else {
		tokens = c.a.Analyze(in)
	}
	return newAnalyzed(analysis.TokenFrequency(tokens, nil, textIndexing), len(tokens), joins)
}

// wordEdges reports that s, a char-filtered value, begins and ends with a
// letter or a digit. The char filters map each character by itself, so the
// filtered "a ; b" is the filtered a, " ; ", the filtered b; and a Unicode
// word boundary (UAX #29) falls on either side of a space next to a letter
// or digit (no rule joins them: only spaces join spaces, and only Extend,
// Format and ZWJ characters, not letters or digits, join what precedes
// them), and on either side of a semicolon between two spaces. Two values
// with word edges joined by " ; " thus have the tokens of one then the
// other.
func wordEdges(s []byte) bool {
	first, _ := utf8.DecodeRune(s)
	last, _ := utf8.DecodeLastRune(s)
	word := func(r rune) bool { return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) }
	return len(s) > 0 && word(first) && word(last)
}

// players returns the analysis of a players value "a ; b": those of a and
// b when both have word edges (their tokens then are a's then b's, so that
// the value's frequencies are their sums: textField), else that of the
// whole value and nil.
func (c *termCache) players(v string) (*analyzed, *analyzed) {
	a, b, ok := strings.Cut(v, " ; ")
	if !ok || !c.plain {
		return c.get(v), nil
	}
	ra, rb := c.get(a), c.get(b)
	if !ra.joins || !rb.joins {
		return c.get(v), nil
	}
	return ra, rb
}

// sumFrequencies returns the token frequencies of a value whose tokens
// are a's then b's.
func sumFrequencies(a, b *analyzed) bindex.TokenFrequencies {
	tf := make(bindex.TokenFrequencies, len(a.tf)+len(b.tf))
	for k, f := range a.tf {
		tf[k] = f
	}
	for k, f := range b.tf {
		if e, ok := tf[k]; ok {
			s := &bindex.TokenFreq{Term: e.Term}
			s.SetFrequency(e.Frequency() + f.Frequency())
			f = s
		}
		tf[k] = f
	}
	return tf
}

// textField is an indexed text field of a game's document whose value was
// analyzed when the document was built (termCache): Bleve's Analyze, run on
// its analysis workers, has nothing left to do. It gives the index what a
// document.TextField with the same name, value, options (textIndexing) and
// analyzer gives it.
type textField struct {
	name  string
	value string
	// a is the value's analysis, or with b that of its two parts, whose
	// tokens are a's then b's (players); tf then is their frequencies'
	// sum, made when first asked for.
	a, b *analyzed
	tf   bindex.TokenFrequencies
}

func (f *textField) Name() string                         { return f.name }
func (f *textField) ArrayPositions() []uint64             { return nil }
func (f *textField) Options() bindex.FieldIndexingOptions { return textIndexing }
func (f *textField) Analyze()                             {}
func (f *textField) Value() []byte                        { return []byte(f.value) } // read for stored fields only
func (f *textField) Text() string                         { return f.value }
func (f *textField) NumPlainTextBytes() uint64            { return uint64(len(f.value)) }
func (f *textField) EncodedFieldType() byte               { return 't' }
func (f *textField) AnalyzedLength() int {
	if f.b != nil {
		return f.a.n + f.b.n
	}
	return f.a.n
}

func (f *textField) AnalyzedTokenFrequencies() bindex.TokenFrequencies {
	if f.b == nil {
		return f.a.tf
	}
	if f.tf == nil {
		f.tf = sumFrequencies(f.a, f.b)
	}
	return f.tf
}

// Size is the memory the field holds of its own, for Bleve's accounting:
// the token frequencies are shared.
func (f *textField) Size() int { return int(unsafe.Sizeof(*f)) + len(f.value) }
