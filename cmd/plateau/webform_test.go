package main

import (
	"os"
	"regexp"
	"testing"

	"github.com/plateau/plateau/index"
)

// TestSearchFormHasEveryCriterion: the web page's "More filters" form has
// a field for every search criterion of the database (index.Criteria, the
// one definition the command line and the API share), except those the
// page sets otherwise, so that a criterion added to the table is not
// missing from the page.
func TestSearchFormHasEveryCriterion(t *testing.T) {
	elsewhere := map[string]string{
		"game":     "the ruleset select (#gamefilter)",
		"text":     "the words box (#filter, parameter q)",
		"invalid":  "the valid/invalid select (#validfilter)",
		"position": "the board: Search this position",
		"moves":    "the board: Search this position",
		"id":       "a game's link",
		"date":     "Date from and to",
	}
	html, err := os.ReadFile("web/index.html")
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]bool{}
	for _, m := range regexp.MustCompile(`data-param="([^"]+)"`).FindAllStringSubmatch(string(html), -1) {
		if fields[m[1]] {
			t.Errorf("two fields with data-param=%q: the second's value would replace the first's", m[1])
		}
		fields[m[1]] = true
	}
	for _, c := range index.Criteria() {
		if _, ok := elsewhere[c.Name]; ok {
			if fields[c.Name] {
				t.Errorf("criterion %s: a form field, and also set by %s", c.Name, elsewhere[c.Name])
			}
			continue
		}
		if !fields[c.Name] {
			t.Errorf("criterion %s (%s): no field with data-param=%q in web/index.html", c.Name, c.Usage, c.Name)
		}
	}
}
