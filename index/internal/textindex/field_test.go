package textindex

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
)

// TestTermCachePlayers: the analysis of a players value "a ; b" that
// termCache composes from a's and b's is the analyzer's of the whole value
// (same token frequencies and token count), for names with and without word
// edges: punctuation, apostrophes, combining marks, digits, scripts, flags,
// joiners, spaces and separators of their own; and that it is composed for
// ordinary names, not analyzed whole.
func TestTermCachePlayers(t *testing.T) {
	m, err := indexMapping()
	if err != nil {
		t.Fatal(err)
	}
	fold := m.AnalyzerNamed(foldAnalyzer)
	names := []string{
		"", "a", "Ōno, Kōji", "DE GRAAF", "O'Brien", "d'Artagnan", "'t Hooft", "Jr.", "x_", "_x", "3", "1,000",
		"3.14", "e\u0301", "\u0301e", "é", "ǅemal", "ﬁn", "Æsa", "ß", "高橋 明", "明", "رنا الهاشمي", "София",
		"부산", "カタカナ", "ひらがな", "🇫🇷", "a🇫🇷", "a\u200d", "\u200da", "a\u00ad", " a", "a ", "a ; b", ";", "a;",
		";a", "-a", "a-", "1.", ".1", "a:b", "a:", "Ⅻ", "①", "x\u0308", "ʼa", "aʼ", "١٢", "A ; ", " ; B",
	}
	c := newTermCache(fold)
	composed := 0
	for _, a := range names {
		for _, b := range names {
			v := strings.TrimSpace(a + " ; " + b)
			got, want := playersField(c, v), analyzeField(fold, v)
			if g, w := analyzedSummary(got), analyzedSummary(want); g != w {
				t.Fatalf("players %q: composed %s, analyzed %s", v, g, w)
			}
			if _, ok := c.m[v]; !ok {
				composed++
			}
		}
	}
	if _, b := newTermCache(fold).players("Ōno, Kōji ; DE GRAAF"); b == nil {
		t.Error("the players of ordinary names were analyzed whole, not composed")
	}
	if composed == 0 {
		t.Error("no players value composed")
	}
}

// playersField is the analysis of a players value v that a textField
// gives the index, from termCache's.
func playersField(c *termCache, v string) *analyzed {
	a, b := c.players(v)
	f := &textField{name: "players", value: v, a: a, b: b}
	return &analyzed{tf: f.AnalyzedTokenFrequencies(), n: f.AnalyzedLength()}
}

// analyzeField is the analysis of v as a document.TextField of the index's
// options gives it.
func analyzeField(a analysis.Analyzer, v string) *analyzed {
	f := document.NewTextFieldCustom("players", nil, []byte(v), textIndexing, a)
	f.Analyze()
	return &analyzed{tf: f.AnalyzedTokenFrequencies(), n: f.AnalyzedLength()}
}

func analyzedSummary(a *analyzed) string {
	var terms []string
	for k, tf := range a.tf {
		terms = append(terms, fmt.Sprintf("%q=%q/%d/%d", k, tf.Term, tf.Frequency(), len(tf.Locations)))
	}
	sort.Strings(terms)
	return fmt.Sprintf("%d %v", a.n, terms)
}
