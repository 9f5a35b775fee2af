package textindex

import (
	"fmt"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	unicodetok "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
)

// Doc is the text-index document of one valid game: the values of its
// fields (fields), turned into a Bleve document by docBuilder.build.
// Players is the two players' names as "first ; second".
type Doc struct {
	ID                               int64
	Game, Result, Date, Players      string
	Event, Site, Annotator, Comments string
}

// Size is the text of a document, in bytes.
func (d *Doc) Size() int {
	return len(d.Game) + len(d.Result) + len(d.Date) + len(d.Players) + len(d.Event) + len(d.Site) +
		len(d.Annotator) + len(d.Comments)
}

// Fields of the text index: textFields analyzed by foldAnalyzer, searched
// by a query term written without a field (Parse); keywordFields whole,
// only queried by name.
var (
	textFields    = [...]string{"players", "event", "site", "annotator", "comments"}
	keywordFields = [...]string{"game", "result", "date"}
)

// fields returns the values of the document's textFields and keywordFields,
// in their order.
func (d *Doc) fields() (text [len(textFields)]string, kw [len(keywordFields)]string) {
	return [...]string{d.Players, d.Event, d.Site, d.Annotator, d.Comments},
		[...]string{d.Game, d.Result, d.Date}
}

// docBuilder builds Bleve documents for an index, as its mapping
// (indexMapping) would map them, without the mapping's reflection over a
// map[string]any: every keyword field and the text fields that are not
// empty (the mapping leaves them out of the map). Bleve's default field
// _all, every text token a second time, is not built (Parse). Fields are
// analyzed as they are built, each value once (termCache, textField).
type docBuilder struct {
	fold, keyword *termCache
}

// textIndexing are the indexing options of indexMapping's fields: neither
// stored, nor term vectors, nor doc values.
const textIndexing = bindex.IndexField

func newDocBuilder(m mapping.IndexMapping) (*docBuilder, error) {
	fold, kw := m.AnalyzerNamed(foldAnalyzer), m.AnalyzerNamed(keyword.Name)
	if fold == nil || kw == nil {
		return nil, fmt.Errorf("text index: the mapping lacks the analyzers %s and %s", foldAnalyzer, keyword.Name)
	}
	return &docBuilder{fold: newTermCache(fold), keyword: newTermCache(kw)}, nil
}

func (b *docBuilder) build(d *Doc) *document.Document {
	doc := document.NewDocument(strconv.FormatInt(d.ID, 10))
	text, kw := d.fields()
	doc.Fields = make([]document.Field, 0, len(text)+len(kw)+1) // and _id, added by the index
	fs := make([]textField, 0, len(text)+len(kw))
	add := func(name, v string, a, b *analyzed) {
		fs = append(fs, textField{name: name, value: v, a: a, b: b})
		doc.Fields = append(doc.Fields, &fs[len(fs)-1])
	}
	pa, pb := b.fold.players(text[0])
	add(textFields[0], text[0], pa, pb) // players is always in the map
	for i, v := range text[1:] {
		if v != "" {
			add(textFields[i+1], v, b.fold.get(v), nil)
		}
	}
	for i, v := range kw {
		add(keywordFields[i], v, b.keyword.get(v), nil)
	}
	doc.SetIndexed()
	return doc
}

const foldAnalyzer = "plateau_fold"

// indexMapping is the mapping of a new index: the text fields analyzed by
// foldAnalyzer, the keyword fields whole, none stored, no _all.
func indexMapping() (mapping.IndexMapping, error) {
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
	dm.AddSubDocumentMapping(allField, bleve.NewDocumentDisabledMapping()) // no _all (Parse)
	im.DefaultMapping = dm
	return im, nil
}
