package textindex

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/plateau/plateau/record"

	_ "github.com/plateau/plateau/rules/all"
)

// allTextMapping is indexMapping as it was up to 2026-12: with Bleve's
// default field _all.
func allTextMapping(t testing.TB) mapping.IndexMapping {
	t.Helper()
	m, err := indexMapping()
	if err != nil {
		t.Fatal(err)
	}
	im := m.(*mapping.IndexMappingImpl)
	if _, ok := im.DefaultMapping.Properties[allField]; !ok {
		t.Fatal("indexMapping does not disable _all")
	}
	delete(im.DefaultMapping.Properties, allField)
	return im
}

// buildWithAll is a document as docBuilder built it up to 2026-12: its
// fields and the composite field _all of the text fields.
func buildWithAll(bd *docBuilder, d *Doc) *document.Document {
	doc := bd.build(d)
	doc.AddField(document.NewCompositeFieldWithIndexingOptions(allField, true, nil,
		[]string{"_id", "game", "result", "date"}, bindex.IndexField|bindex.IncludeTermVectors))
	return doc
}

// writeTextIndex creates a text index at path with mapping m and indexes
// docs in batches of 100 (several segments), document n built by
// withAll(n) with _all, else as now.
func writeTextIndex(t testing.TB, path string, m mapping.IndexMapping, docs []Doc, withAll func(n int) bool) {
	t.Helper()
	idx, err := bleve.New(path, m)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			idx.Close()
		}
	}()
	bd, err := newDocBuilder(idx.Mapping())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(docs); i += 100 {
		b := idx.NewBatch()
		for n := i; n < min(i+100, len(docs)); n++ {
			doc := bd.build(&docs[n])
			if withAll(n) {
				doc = buildWithAll(bd, &docs[n])
			}
			if err := b.IndexAdvanced(doc); err != nil {
				t.Fatal(err)
			}
		}
		if err := idx.Batch(b); err != nil {
			t.Fatal(err)
		}
	}
	closed = true
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
}

// sampleTextDocs are the documents of the valid games of the samples.
func sampleTextDocs(t testing.TB, first int64) []Doc {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "samples", "*", "*.pdn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	var docs []Doc
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		r := record.NewReader(f, name)
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if d, ok := gameDoc(first+int64(len(docs)), rec, err); ok {
				docs = append(docs, d)
			}
		}
		f.Close()
	}
	return docs
}

// openTextIndex opens the index at path for the test.
func openTextIndex(t testing.TB, path string) bleve.Index {
	t.Helper()
	idx, err := bleve.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return idx
}

// searchIDs runs a query on idx and returns the matching ids in order.
func searchIDs(t testing.TB, idx bleve.Index, q query.Query) ([]int64, error) {
	t.Helper()
	res, err := idx.Search(bleve.NewSearchRequestOptions(q, 1_000_000, 0, false))
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(res.Hits))
	for _, h := range res.Hits {
		id, err := strconv.ParseInt(h.ID, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, nil
}

// textCorpus are textTestDocs of 400 games, the samples' and textFormDocs.
func textCorpus(t testing.TB) []Doc {
	docs := textTestDocs(t, 400)
	docs = append(docs, sampleTextDocs(t, int64(len(docs)+1))...)
	for _, d := range textFormDocs {
		d.ID = int64(len(docs) + 1)
		docs = append(docs, d)
	}
	return docs
}

// TestTextQueryAsAll: on generated games, the samples and odd documents,
// every query answers with the games the query string matched when text
// fields were searched through _all (an index written with _all, the query
// as Bleve parses it) — on an index without _all, on one with _all, and on
// one with _all in its older documents only (a database written before
// and imported into since).
func TestTextQueryAsAll(t *testing.T) {
	docs := textCorpus(t)
	dir := t.TempDir()
	m, err := indexMapping()
	if err != nil {
		t.Fatal(err)
	}
	indexes := map[string]func(int) bool{
		"old":   func(int) bool { return true },
		"now":   func(int) bool { return false },
		"mixed": func(n int) bool { return n < len(docs)/2 },
	}
	opened := map[string]bleve.Index{}
	for name, withAll := range indexes {
		im := m
		if name != "now" {
			im = allTextMapping(t)
		}
		path := filepath.Join(dir, name)
		writeTextIndex(t, path, im, docs, withAll)
		opened[name] = openTextIndex(t, path)
	}

	if ids, err := searchIDs(t, opened["now"], bleve.NewQueryStringQuery("bruxelles")); err != nil || len(ids) > 0 {
		t.Fatalf("_all searched directly in an index written now: %v, %v (want no _all)", head(ids), err)
	}
	queries := slices.Clone(textFormQueries)
	for i, d := range docs[:20] { // each generated game's own words, whole, prefixed, fuzzy
		for j, w := range strings.Fields(d.Players + " " + d.Event + " " + d.Site + " " + d.Annotator + " " + d.Comments) {
			w = strings.Trim(w, ",;.!?()")
			if w == "" || strings.ContainsAny(w, `+-&|!(){}[]^"~*?:\/ `) {
				continue
			}
			queries = append(queries, w, "+"+w+" -bruxelles")
			if r := []rune(w); len(r) > 3 {
				queries = append(queries, string(r[:3])+"*")
			}
			if (i+j)%5 == 0 {
				queries = append(queries, w+"~1")
			}
		}
	}
	matched := 0
	for _, q := range queries {
		if strings.Contains(q, `"`) {
			continue // phrases matched no game through _all (TestTextPhraseWords)
		}
		want, errWant := searchIDs(t, opened["old"], bleve.NewQueryStringQuery(q))
		_, errParse := Parse(q)
		if (errWant != nil) != (errParse != nil) {
			t.Fatalf("%s: error %v through _all, parse error %v", q, errWant, errParse)
		}
		if errParse != nil {
			continue
		}
		if len(want) > 0 {
			matched++
		}
		for _, name := range []string{"now", "old", "mixed"} {
			qq, _ := Parse(q) // a tree of its own for each search
			got, err := searchIDs(t, opened[name], qq)
			if err != nil {
				t.Fatalf("%s on %s: %v", q, name, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s on %s: %d games %v, through _all %d games %v", q, name,
					len(got), head(got), len(want), head(want))
			}
		}
	}
	if matched < len(queries)*3/4 {
		t.Fatalf("only %d of %d queries match a game", matched, len(queries))
	}
}

func head(ids []int64) []int64 { return ids[:min(len(ids), 10)] }

// textFormQueries are a query of every form of the query string, written
// for the documents of textTestDocs and textFormDocs.
var textFormQueries = []string{
	// words, with and without fields
	"bruxelles", "BRUXELLES", "Bruxelles Utrecht", "garnier", "garnier bruxelles", "osaka", "Ōsaka", "zurich",
	"paulo", "São", "veltin", "cyril", "quaglio", "zugzwang", "kyoto", "高橋", "София", "名人戦", "e-mail", "don't",
	"x_y", "3.14", "naive", "1,000", "1997", "1-0", "*", ";", "", "nothingatall", "_all:garnier",
	"players:garnier", "event:open", "site:bruxelles", "annotator:veltin", "comments:zugzwang", "game:ogi",
	"result:1-0", "date:1997.05.03", `players:"garnier"`,
	// must, must not, boosts
	"+garnier +bruxelles", "+garnier bruxelles", "garnier -bruxelles", "+bruxelles -garnier", "-garnier",
	"-garnier -bruxelles", "+game:ogi -bruxelles", "+game:ogi garnier", "-game:ogi garnier", "+garnier +;",
	"+; garnier", "-; garnier", "garnier^3 bruxelles", "+garnier^0.5 -site:utrecht", "+1997 -open",
	// phrases
	`"bruxelles"`, `"kubok bruxelles"`, `"garnier benoit"`, `"veltin cyril"`, `"long long"`, `"quiet opening"`,
	`+"bruxelles open" -garnier`, `event:"bruxelles open"`,
	// prefixes and wildcards
	"brux*", "gar*", "*elles", "b?uxelles", "+gar* -benoit", "players:gar*", "z*",
	// fuzzy
	"garnir~1", "bruxeles~", "bruxelles~2", "zugswang~1", "+garnir~1 -bruxelles", "players:garnir~1",
	// regular expressions
	"/brux.*/", "/g[a-z]+r/", "/quag.*|timi.*/", "+/g.*/ -/b.*/", "site:/k.*/",
	// numeric ranges (no numeric field: they match nothing, with or without a field)
	"players:>1", "date:>=1990", `date:>"2000-01-01"`,
	// errors
	"garnier~x", "players:", "+", `"open`,
}

// textFormDocs are hand-made documents whose text fields each hold words
// of their own, for TestTextSearchForms.
var textFormDocs = []Doc{
	{ID: 1, Game: "ogi", Result: "1-0", Date: "1997.05.03", Players: "Garnier, Ingrid ; Leclercq, Jiří",
		Event: "Bruxelles Open 1997", Site: "Bruxelles"},
	{ID: 2, Game: "dames", Result: "0-1", Players: "Moreau, Dagmar ; Garnier, Benoît", Event: "Kubok Utrecht",
		Site: "Utrecht", Comments: "a quiet opening, then the Bruxelles style"},
	{ID: 3, Game: "ogi", Result: "0-1", Players: "Popescu, Siobhán ; Võ, José", Event: "Tournoi", Site: "Timișoara",
		Annotator: "Quaglio, Cyril", Comments: "zugzwang after move 40"},
	{ID: 4, Game: "ogi", Players: "Smirnova, Olga ; Garnet, Paul", Site: "Kyōto"},
	{ID: 5, Game: "jetan", Players: "A ; B", Comments: "Garnier was not here"},
}

// TestTextSearchForms: TextSearch answers each form of query with the games
// that hold its words in any text field (or the named field), on an index
// without _all and on one written with it.
func TestTextSearchForms(t *testing.T) {
	tests := []struct {
		form, q string
		want    []int64
	}{
		{"word", "garnier", []int64{1, 2, 5}},
		{"word in players and comments", "bruxelles", []int64{1, 2}},
		{"word in comments only", "zugzwang", []int64{3}},
		{"word in site only", "kyoto", []int64{4}},
		{"word in annotator only", "quaglio", []int64{3}},
		{"word in event only", "tournoi", []int64{3}},
		{"accents", "Timisoara", []int64{3}},
		{"two words", "garnier utrecht", []int64{1, 2, 5}},
		{"must", "+garnier +bruxelles", []int64{1, 2}},
		{"must and should", "+garnier utrecht", []int64{1, 2, 5}},
		{"must not", "garnier -bruxelles", []int64{5}},
		{"must not alone", "-garnier", []int64{3, 4}},
		{"must, empty must", "+garnier +;", []int64{1, 2, 5}},
		// Fields keep no positions (textIndexing): a phrase matches the
		// games that hold all its words in one field, in any order.
		{"phrase of one word", `"zugzwang"`, []int64{3}},
		{"phrase of one word, many fields", `"bruxelles"`, []int64{1, 2}},
		{"phrase in players", `"garnier benoit"`, []int64{2}},
		{"phrase in players, other order", `"Benoît Garnier"`, []int64{2}},
		{"phrase in players, both names", `"garnier leclercq"`, []int64{1}},
		{"phrase in comments", `"quiet opening"`, []int64{2}},
		{"phrase in comments, punctuation", `"opening, then the"`, []int64{2}},
		{"phrase, repeated word", `"garnier garnier"`, []int64{1, 2, 5}},
		{"phrase, words in two fields", `"garnier bruxelles"`, nil},
		{"phrase, words in players and event", `"garnier utrecht"`, nil},
		{"phrase, a word in no game", `"garnier nothingatall"`, nil},
		{"phrase with a field", `comments:"bruxelles style"`, []int64{2}},
		{"phrase with another field", `event:"bruxelles style"`, nil},
		{"phrase with a field, words in another", `players:"quiet opening"`, nil},
		{"phrase with _all", `_all:"quaglio cyril"`, []int64{3}},
		{"phrase in a keyword field", `game:"ogi"`, []int64{1, 3, 4}},
		{"phrase, must", `+"bruxelles open" +garnier`, []int64{1}},
		{"phrase, must not", `"bruxelles open" -benoit`, []int64{1}},
		{"phrase, must, words in two fields", `+"bruxelles open" -garnier`, nil},
		{"phrase must not", `+garnier -"bruxelles open"`, []int64{2, 5}},
		{"phrase must not, words in two fields", `+garnier -"garnier bruxelles"`, []int64{1, 2, 5}},
		{"two phrases", `"garnier ingrid" "quiet opening"`, []int64{1, 2}},
		{"phrase boosted", `"garnier benoit"^2`, []int64{2}},
		{"phrase of nothing, must", `+garnier +";"`, []int64{1, 2, 5}},
		{"empty phrase", `""`, nil},
		{"prefix", "garn*", []int64{1, 2, 4, 5}},
		{"prefix, must not", "+garn* -garnier", []int64{4}},
		{"wildcard", "k?oto", []int64{4}},
		{"fuzzy", "zugswang~1", []int64{3}},
		{"fuzzy, one edit", "garnir~1", []int64{1, 2, 5}},
		{"fuzzy, two edits", "garnir~2", []int64{1, 2, 4, 5}},
		{"regexp", "/quag.*|timi.*/", []int64{3}},
		{"field", "players:garnier", []int64{1, 2}},
		{"field, comments", "comments:garnier", []int64{5}},
		{"keyword field", "game:ogi", []int64{1, 3, 4}},
		{"keyword field and word", "+game:ogi -garnier", []int64{3, 4}},
		{"keyword not in _all", "dames", nil},
		{"_all named", "_all:quaglio", []int64{3}},
		{"number", "1997", []int64{1}},
		{"no match", "nothingatall", nil},
	}
	ctx := context.Background()
	m, err := indexMapping()
	if err != nil {
		t.Fatal(err)
	}
	for _, ix := range []struct {
		name    string
		m       mapping.IndexMapping
		withAll bool
	}{{"without _all", m, false}, {"with _all", allTextMapping(t), true}} {
		x := New(filepath.Join(t.TempDir(), "text.bleve"), false)
		writeTextIndex(t, x.Path(), ix.m, textFormDocs, func(int) bool { return ix.withAll })
		for _, tt := range tests {
			got, err := x.Search(ctx, tt.q, 100)
			if err != nil {
				t.Fatalf("%s, %s %q: %v", ix.name, tt.form, tt.q, err)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s, %s %q: %v, want %v", ix.name, tt.form, tt.q, got, tt.want)
			}
		}
	}
}

// TestTextFieldOnly: a word present in one text field only, in any game,
// is found without a field in the games that hold it in that field, and
// the query searches no field twice.
func TestTextFieldOnly(t *testing.T) {
	docs := textCorpus(t)
	m, err := indexMapping()
	if err != nil {
		t.Fatal(err)
	}
	fold := m.AnalyzerNamed(foldAnalyzer)
	holders := map[string]map[int][]int64{} // token → field index → documents
	for _, d := range docs {
		text, _ := d.fields()
		for f, v := range text {
			seen := map[string]bool{}
			for _, tok := range fold.Analyze([]byte(v)) {
				w := string(tok.Term)
				if seen[w] {
					continue
				}
				seen[w] = true
				if holders[w] == nil {
					holders[w] = map[int][]int64{}
				}
				holders[w][f] = append(holders[w][f], d.ID)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "now")
	writeTextIndex(t, path, m, docs, func(int) bool { return false })
	idx := openTextIndex(t, path)
	found := map[int]int{} // field → words tried
	words := make([]string, 0, len(holders))
	for w := range holders {
		words = append(words, w)
	}
	slices.Sort(words)
	for _, w := range words {
		if len(holders[w]) != 1 || strings.ContainsAny(w, `+-&|!(){}[]^"~*?:\/ `) {
			continue
		}
		for f, want := range holders[w] {
			if found[f] >= 5 {
				continue
			}
			found[f]++
			q, err := Parse(w)
			if err != nil {
				t.Fatal(err)
			}
			got, err := searchIDs(t, idx, q)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%q, only in %s: %v, want %v", w, textFields[f], head(got), head(want))
			}
		}
	}
	for f, name := range textFields {
		if found[f] == 0 {
			t.Errorf("no word found only in %s", name)
		}
	}
}

// TestTextQueryTree: the rewritten tree keeps the clauses of the query and
// its fielded leaves, and spreads a field-less leaf over the text fields,
// as copies that keep its boost and fuzziness.
func TestTextQueryTree(t *testing.T) {
	q, err := Parse("+garnir~1 -site:utrecht kubok^2")
	if err != nil {
		t.Fatal(err)
	}
	got := treeShape(q)
	over := func(leaf string) string {
		var s []string
		for _, f := range textFields {
			s = append(s, f+":"+leaf)
		}
		return "bool(should:or(" + strings.Join(s, " ") + "))"
	}
	want := "bool(must:and(" + over("match(garnir~1)") + ") should:or(" + over("match(kubok^2)") +
		") not:or(site:match(utrecht)))"
	if got != want {
		t.Errorf("tree\n got %s\nwant %s", got, want)
	}
}

// TestTextQueryPhraseTree: a phrase with a field becomes its phraseWords,
// one without a field (or with _all) the disjunction of its phraseWords
// over the text fields; a phrase of a keyword field keeps its field.
func TestTextQueryPhraseTree(t *testing.T) {
	q, err := Parse(`+"Garnier Benoît" -comments:"quiet opening" _all:"a b"^2 game:"ogi"`)
	if err != nil {
		t.Fatal(err)
	}
	over := func(leaf string) string {
		var s []string
		for _, f := range textFields {
			s = append(s, f+":"+leaf)
		}
		return "bool(should:or(" + strings.Join(s, " ") + "))"
	}
	want := "bool(must:and(" + over("words(Garnier Benoît)") + ") should:or(" + over("words(a b^2)") +
		" game:words(ogi)) not:or(comments:words(quiet opening)))"
	if got := treeShape(q); got != want {
		t.Errorf("tree\n got %s\nwant %s", got, want)
	}
}

// TestTextPhraseWords: on generated games, the samples and odd documents,
// a phrase of two words of one text field of a game, or of two text fields
// of it, with and without a field, matches the games that hold both words
// in one field (the one named, else any text field), on an index without
// _all, one with _all and one with _all in its older documents.
func TestTextPhraseWords(t *testing.T) {
	docs := textCorpus(t)
	m, err := indexMapping()
	if err != nil {
		t.Fatal(err)
	}
	fold := m.AnalyzerNamed(foldAnalyzer)
	words := make([][len(textFields)]map[string]bool, len(docs)) // document → field → words
	tokens := func(s string) []string {
		var w []string
		for _, tok := range fold.Analyze([]byte(s)) {
			w = append(w, string(tok.Term))
		}
		return w
	}
	for n, d := range docs {
		text, _ := d.fields()
		for f, v := range text {
			words[n][f] = map[string]bool{}
			for _, w := range tokens(v) {
				words[n][f][w] = true
			}
		}
	}
	type phrase struct {
		field  int // index in textFields, -1 for none
		w1, w2 string
	}
	var phrases []phrase
	for n, d := range docs[:40] {
		text, _ := d.fields()
		var prev []string // the previous field's words
		for f, v := range text {
			w := tokens(v)
			for i := 0; i+1 < len(w) && i < 4; i++ {
				phrases = append(phrases, phrase{-1, w[i], w[i+1]}, phrase{(n + i) % len(textFields), w[i], w[i+1]})
			}
			if len(w) > 0 && len(prev) > 0 {
				phrases = append(phrases, phrase{-1, prev[0], w[len(w)-1]}, phrase{f, prev[0], w[0]})
			}
			if len(w) > 0 {
				prev = w
			}
		}
	}
	dir := t.TempDir()
	opened := map[string]bleve.Index{}
	for name, withAll := range map[string]func(int) bool{
		"now":   func(int) bool { return false },
		"old":   func(int) bool { return true },
		"mixed": func(n int) bool { return n < len(docs)/2 },
	} {
		im := m
		if name != "now" {
			im = allTextMapping(t)
		}
		path := filepath.Join(dir, name)
		writeTextIndex(t, path, im, docs, withAll)
		opened[name] = openTextIndex(t, path)
	}
	matched, split := 0, 0
	for _, p := range phrases {
		if strings.ContainsAny(p.w1+p.w2, `"\`) {
			continue
		}
		q := `"` + p.w1 + " " + p.w2 + `"`
		if p.field >= 0 {
			q = textFields[p.field] + ":" + q
		}
		var want []int64
		for n, d := range docs {
			for f := range textFields {
				if (p.field < 0 || p.field == f) && words[n][f][p.w1] && words[n][f][p.w2] {
					want = append(want, d.ID)
					break
				}
			}
		}
		if len(want) > 0 {
			matched++
		}
		for n := range docs { // games holding the words in two fields only
			in := func(w string) (any bool) {
				for f := range textFields {
					any = any || (p.field < 0 || p.field == f) && words[n][f][w]
				}
				return any
			}
			if in(p.w1) && in(p.w2) && !slices.Contains(want, docs[n].ID) {
				split++
				break
			}
		}
		for _, name := range []string{"now", "old", "mixed"} {
			qq, err := Parse(q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			got, err := searchIDs(t, opened[name], qq)
			if err != nil {
				t.Fatalf("%s on %s: %v", q, name, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s on %s: %d games %v, want %d games %v", q, name, len(got), head(got), len(want), head(want))
			}
		}
	}
	if matched < len(phrases)/2 || split == 0 {
		t.Fatalf("%d phrases: %d match a game, %d leave out a game holding their words in two fields",
			len(phrases), matched, split)
	}
}

// treeShape writes out a query tree.
func treeShape(q query.Query) string {
	switch q := q.(type) {
	case *query.BooleanQuery:
		var s []string
		for _, c := range []struct {
			name string
			q    query.Query
		}{{"must", q.Must}, {"should", q.Should}, {"not", q.MustNot}, {"filter", q.Filter}} {
			if c.q != nil {
				s = append(s, c.name+":"+treeShape(c.q))
			}
		}
		return "bool(" + strings.Join(s, " ") + ")"
	case *query.ConjunctionQuery:
		var s []string
		for _, c := range q.Conjuncts {
			s = append(s, treeShape(c))
		}
		return "and(" + strings.Join(s, " ") + ")"
	case *query.DisjunctionQuery:
		var s []string
		for _, c := range q.Disjuncts {
			s = append(s, treeShape(c))
		}
		return "or(" + strings.Join(s, " ") + ")"
	case *query.MatchQuery:
		s := q.Match
		if q.Fuzziness != 0 {
			s += fmt.Sprintf("~%d", q.Fuzziness)
		}
		if q.BoostVal != nil {
			s += fmt.Sprintf("^%g", q.Boost())
		}
		return fieldPrefix(q.FieldVal) + "match(" + s + ")"
	case phraseWords:
		s := q.MatchPhrase
		if q.BoostVal != nil {
			s += fmt.Sprintf("^%g", q.Boost())
		}
		return fieldPrefix(q.FieldVal) + "words(" + s + ")"
	}
	return fmt.Sprintf("%T", q)
}

func fieldPrefix(f string) string {
	if f == "" {
		return ""
	}
	return f + ":"
}
