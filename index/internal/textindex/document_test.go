package textindex

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// mappedDoc is a game's document as Plateau gave it to Bleve up to 2026-11
// (a map through indexMapping's reflection), the reference of docBuilder.
func mappedDoc(d Doc) map[string]any {
	m := map[string]any{"game": d.Game, "result": d.Result, "date": d.Date, "players": d.Players}
	for k, v := range map[string]string{"event": d.Event, "site": d.Site, "annotator": d.Annotator, "comments": d.Comments} {
		if v != "" {
			m[k] = v
		}
	}
	return m
}

// textTestDocs are the documents of generated Ōgi games and of hand-made
// ones that try the analyzers' corners: empty fields, accents, scripts,
// apostrophes, numbers with separators, repeated words.
func textTestDocs(t testing.TB, n int) []Doc {
	t.Helper()
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, 7)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := gen.Write(context.Background(), &buf, n, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	var docs []Doc
	r := record.NewReader(&buf, "g.pdn")
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if d, ok := gameDoc(int64(len(docs)+1), rec, err); ok {
			docs = append(docs, d)
		}
	}
	odd := []Doc{
		{},
		{Game: "ogi", Players: ";"},
		{Game: "dames", Result: "1-1", Date: "1988.??.??", Players: "Ōno, Kōji ; DE GRAAF", Event: "Ōsaka Ōsaka ōsaka", Site: "Zürich"},
		{Game: "draughts", Result: "2-0", Players: "O'Brien ; d'Artagnan", Comments: "3.14 1,000 a.b x_y e-mail don't l'œil ÆØÅ ß ǅ ﬁ café naïve"},
		{Game: "jetan", Players: "高橋 明 ; رنا الهاشمي", Event: "София 名人戦 1988", Annotator: "Veltin, Cyril", Comments: "  {brace} $1 !? 12. P-e4 ... \t\n x"},
		{Game: "sauts", Result: "*", Players: "A ; B", Site: "São Paulo", Comments: strings.Repeat("long long ", 500)},
	}
	for _, d := range odd {
		d.ID = int64(len(docs) + 1)
		docs = append(docs, d)
	}
	return docs
}

// TestDocBuilderAsMapping: a document built by docBuilder is, once analyzed,
// the one indexMapping makes of the map: same fields, options, lengths, token
// frequencies and locations, and the same default field _all.
func TestDocBuilderAsMapping(t *testing.T) {
	m, bd := testDocBuilder(t)
	for _, d := range textTestDocs(t, 300) {
		want := document.NewDocument(strconv.FormatInt(d.ID, 10))
		if err := m.MapDocument(want, mappedDoc(d)); err != nil {
			t.Fatal(err)
		}
		got := bd.build(&d)
		if g, w := docSummary(got), docSummary(want); g != w {
			t.Fatalf("document %d (%+v):\n got %s\nwant %s", d.ID, d, g, w)
		}
	}
}

// docSummary analyzes a document as the index does and writes out all it
// gives the index.
func docSummary(d *document.Document) string {
	d.AddIDField()
	var fields []string
	d.VisitFields(func(f bindex.Field) {
		f.Analyze()
		if f.Name() != "_id" {
			d.VisitComposite(func(cf bindex.CompositeField) {
				cf.Compose(f.Name(), f.AnalyzedLength(), f.AnalyzedTokenFrequencies())
			})
		}
		fields = append(fields, fieldSummary(f))
	})
	sort.Strings(fields)
	d.VisitComposite(func(cf bindex.CompositeField) { fields = append(fields, fieldSummary(cf)) })
	return fmt.Sprintf("id %s indexed %v size %d fields %d %d:\n%s", d.ID(), d.Indexed(), d.NumPlainTextBytes(),
		len(d.Fields), len(d.CompositeFields), strings.Join(fields, "\n"))
}

func fieldSummary(f bindex.Field) string {
	var terms []string
	for k, tf := range f.AnalyzedTokenFrequencies() {
		s := fmt.Sprintf("%q=%q/%d", k, tf.Term, tf.Frequency())
		for _, l := range tf.Locations {
			s += fmt.Sprintf(" %s@%d:%d-%d%v", l.Field, l.Position, l.Start, l.End, l.ArrayPositions)
		}
		terms = append(terms, s)
	}
	sort.Strings(terms)
	return fmt.Sprintf("%s type %c opts %v len %d value %q pos %v plain %d terms %v", f.Name(), f.EncodedFieldType(),
		f.Options(), f.AnalyzedLength(), f.Value(), f.ArrayPositions(), f.NumPlainTextBytes(), terms)
}

// TestDocBuilderSearch: an index written with docBuilder answers queries as
// one written through the mapping: same hits, same order, same scores.
func TestDocBuilderSearch(t *testing.T) {
	docs := textTestDocs(t, 400)
	open := func(name string, add func(bleve.Index, *bleve.Batch, Doc) error) bleve.Index {
		path := filepath.Join(t.TempDir(), name)
		if err := create(path); err != nil {
			t.Fatal(err)
		}
		idx, err := bleve.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { idx.Close() })
		for i := 0; i < len(docs); i += 100 { // several segments
			b := idx.NewBatch()
			for _, d := range docs[i:min(i+100, len(docs))] {
				if err := add(idx, b, d); err != nil {
					t.Fatal(err)
				}
			}
			if err := idx.Batch(b); err != nil {
				t.Fatal(err)
			}
		}
		return idx
	}
	old := open("mapped", func(_ bleve.Index, b *bleve.Batch, d Doc) error {
		return b.Index(strconv.FormatInt(d.ID, 10), mappedDoc(d))
	})
	var bd *docBuilder // one for the index, as AddTo
	built := open("built", func(idx bleve.Index, b *bleve.Batch, d Doc) error {
		if bd == nil {
			var err error
			if bd, err = newDocBuilder(idx.Mapping()); err != nil {
				return err
			}
		}
		return b.IndexAdvanced(bd.build(&d))
	})
	queries := []string{
		"osaka", "Ōsaka", "players:ono", "event:osaka", "site:zurich", "site:Zürich", "annotator:veltin",
		"comments:don't", "comments:3.14", "comments:cafe", "comments:oeil", "comments:ss", "game:ogi",
		"result:1-0", "result:\"1-1\"", "date:1988.??.??", "date:\"\"", "+game:dames -result:1-0",
		`"veltin cyril"`, `"long long"`, "comments:long", "high*", "kom*", "veltin~1", "/s[aã]o/", "paulo",
		"高橋", "明", "София", "名人戦", "الهاشمي", "players:d'artagnan", "players:o'brien", "x_y", "e-mail",
		"1988", "ÆØÅ", "aeoa", "naive", "fi", "players:a", "tournament", "open", "club",
	}
	for _, d := range docs[:50] { // each generated game's own words
		for _, w := range strings.Fields(d.Players + " " + d.Event + " " + d.Site) {
			if w != ";" {
				queries = append(queries, strconv.Quote(w))
			}
		}
	}
	for _, q := range queries {
		tq := func() *bleve.SearchRequest { // a tree of its own for each search
			qq, err := Parse(q)
			if err != nil {
				return bleve.NewSearchRequestOptions(bleve.NewQueryStringQuery(q), 1000, 0, false)
			}
			return bleve.NewSearchRequestOptions(qq, 1000, 0, false)
		}
		a, errA := old.Search(tq())
		b, errB := built.Search(tq())
		for _, r := range []*bleve.SearchResult{a, b} {
			if r != nil { // hits of equal scores come in the order of analysis, which runs in parallel
				sort.SliceStable(r.Hits, func(i, j int) bool {
					hi, hj := r.Hits[i], r.Hits[j]
					return hi.Score > hj.Score || hi.Score == hj.Score && hi.ID < hj.ID
				})
			}
		}
		if (errA != nil) != (errB != nil) {
			t.Fatalf("%s: errors %v and %v", q, errA, errB)
		}
		if errA != nil {
			continue
		}
		if a.Total != b.Total || len(a.Hits) != len(b.Hits) {
			t.Fatalf("%s: %d hits through the mapping, %d built", q, a.Total, b.Total)
		}
		for i := range a.Hits {
			if a.Hits[i].ID != b.Hits[i].ID || a.Hits[i].Score != b.Hits[i].Score {
				t.Fatalf("%s: hit %d is %s (%g) through the mapping, %s (%g) built", q, i,
					a.Hits[i].ID, a.Hits[i].Score, b.Hits[i].ID, b.Hits[i].Score)
			}
		}
	}
	for _, q := range []string{"game:ogi", "osaka", "comments:long"} {
		qq, err := Parse(q)
		if err != nil {
			t.Fatal(err)
		}
		r, err := built.Search(bleve.NewSearchRequest(qq))
		if err != nil {
			t.Fatal(err)
		}
		if r.Total == 0 {
			t.Fatalf("%s matches nothing", q)
		}
	}
}

// TestBuilderAnalyzers: a Builder reuses its analyses from one AddTo to
// the next on indexes that define the analyzers alike, and analyzes
// again for an index that defines them otherwise (here, no folding).
func TestBuilderAnalyzers(t *testing.T) {
	newIndex := func(name string, fold bool) bleve.Index {
		m, err := indexMapping()
		if err != nil {
			t.Fatal(err)
		}
		if !fold { // the same mapping, read back with the folding left out
			m.(*mapping.IndexMappingImpl).CustomAnalysis.Analyzers[foldAnalyzer]["char_filters"] = []string{}
			js, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			im := bleve.NewIndexMapping()
			if err := json.Unmarshal(js, im); err != nil {
				t.Fatal(err)
			}
			m = im
		}
		idx, err := bleve.New(filepath.Join(t.TempDir(), name), m)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { idx.Close() })
		return idx
	}
	hits := func(idx bleve.Index, q string) uint64 {
		qq, err := Parse(q)
		if err != nil {
			t.Fatal(err)
		}
		r, err := idx.Search(bleve.NewSearchRequest(qq))
		if err != nil {
			t.Fatal(err)
		}
		return r.Total
	}
	doc := func(id int64) []Doc {
		return []Doc{{ID: id, Game: "ogi", Players: "Ōno ; Zoë", Site: "Zürich"}}
	}
	var b Builder
	folded, again, plain := newIndex("folded", true), newIndex("again", true), newIndex("plain", false)
	for _, step := range []struct {
		idx          bleve.Index
		id           int64
		fold, accent uint64 // hits of site:zurich, site:zürich
	}{
		{folded, 1, 1, 1}, {folded, 2, 2, 2}, {again, 3, 1, 1}, {plain, 4, 0, 1}, {folded, 5, 3, 3},
	} {
		bd := b.bd
		if err := b.AddTo(step.idx, doc(step.id)); err != nil {
			t.Fatal(err)
		}
		if step.id > 1 && (bd == b.bd) != (step.idx != plain && step.id != 5) {
			t.Errorf("document %d: the Builder's analyses kept %v", step.id, bd == b.bd)
		}
		if got := hits(step.idx, "site:zurich"); got != step.fold {
			t.Errorf("document %d: site:zurich matches %d, want %d", step.id, got, step.fold)
		}
		if got := hits(step.idx, "site:zürich"); got != step.accent {
			t.Errorf("document %d: site:zürich matches %d, want %d", step.id, got, step.accent)
		}
	}
}
