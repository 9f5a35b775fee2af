package web

import (
	"net/url"
	"strings"
	"testing"
)

// TestListQueryOf: the list reads its own parameters and passes the others
// on as the database's criteria; a bad one of its own is an error that
// names it.
func TestListQueryOf(t *testing.T) {
	v, _ := url.ParseQuery("q=Tanaka&game=ogi&valid=both&offset=10&limit=5&sort=date&desc=1&brief=1&after=7:v2026&player=Fujii&event=Open&tag=Round%3D3&tag=Board%3D1")
	q, err := ListQueryOf(v)
	if err != nil {
		t.Fatal(err)
	}
	want := ListQuery{Text: "Tanaka", Game: "ogi", Offset: 10, Limit: 5, Sort: "date", Desc: true, Brief: true, After: "7:v2026",
		Criteria: "event=Open&player=Fujii&tag=Round%3D3&tag=Board%3D1"}
	if q != want {
		t.Errorf("got %+v\nwant %+v", q, want)
	}
	for query, param := range map[string]string{
		"offset=-1": "offset", "limit=x": "limit", "desc=yes": "desc", "brief=2": "brief",
		"valid=maybe": "valid", "q=a&q=b": "q", "game=ogi&game=jetan": "game", "after=1&before=2": "after",
	} {
		v, _ := url.ParseQuery(query)
		if _, err := ListQueryOf(v); err == nil || !strings.HasPrefix(err.Error(), param) {
			t.Errorf("%s: %v, want an error naming %s", query, err, param)
		}
	}
}
