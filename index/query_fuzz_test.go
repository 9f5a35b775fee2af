package index_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/all"
)

// FuzzPattern: a pattern either parses or fails with ErrQuery, never
// panics, and one that parses compiles for every ruleset (or fails with
// ErrQuery).
func FuzzPattern(f *testing.F) {
	for _, s := range []string{
		"empty@ȺȺȺȺȺȺȺ", "EMPTY@e4", "Sente:R@e1,e2,e3 empty@e4 Gote:P@hand>=2 Gote:*<=10",
		"+P@hand", "-K>=1", "*@a1", "x:y:z", "@", ":", "+", "-", "P", "P@", "P@hand", "P@HAND==3",
		"P>=-1", "P<99999999999999999999", "ȺȺȺ:Ⱥ@Ⱥ", "0:K@e1", "1:*=0", "S:P@hand!=2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := index.ParsePattern(text)
		if err != nil {
			if !errors.Is(err, index.ErrQuery) {
				t.Fatalf("%q: error %v does not wrap ErrQuery", text, err)
			}
			return
		}
		if len(p.Terms) == 0 {
			t.Fatalf("%q: no terms and no error", text)
		}
	})
}

// FuzzPosition: a position query (--fen, a position's notation or moves
// from the start) either reads or fails with ErrQuery, for every ruleset.
func FuzzPosition(f *testing.F) {
	for _, s := range []string{
		"", "xx", "1. P-e4 P-d5", "32-28 19-23", "B:W31-50:B1-20", "e2-e3", "o1-i1", "G2-E2",
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1", "1. 2. 3.", "W:W:B", "ȺȺȺ",
	} {
		f.Add(0, s)
		f.Add(3, s)
	}
	var ids []string
	seen := map[string]bool{}
	for _, g := range rules.Games() {
		if !seen[g.ID()] {
			seen[g.ID()] = true
			ids = append(ids, g.ID())
		}
	}
	ids = append(ids, "", "chess", "OGI", "20")
	f.Fuzz(func(t *testing.T, which int, text string) {
		id := ids[uint(which)%uint(len(ids))]
		p, err := index.Position(id, text)
		if err != nil {
			if !errors.Is(err, index.ErrQuery) {
				t.Fatalf("%s %q: error %v does not wrap ErrQuery", id, text, err)
			}
			if len(err.Error()) > 2000 {
				t.Fatalf("%s: a message of %d bytes", id, len(err.Error()))
			}
			return
		}
		if p == nil {
			t.Fatalf("%s %q: no position and no error", id, text)
		}
	})
}

// FuzzSearch: search criteria from the command line or the web (players,
// event, dates, result, tags, pattern, text) never panic; a search either
// answers or fails with ErrQuery, within seconds; an unknown game fails.
func FuzzSearch(f *testing.F) {
	dir := f.TempDir()
	db, err := index.Open(context.Background(), filepath.Join(dir, "db"), index.Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	samples, _ := filepath.Glob("../samples/ogi/*.pdn")
	if len(samples) == 0 {
		f.Fatal("no Ōgi samples in ../samples/ogi")
	}
	if _, err := importFiles(context.Background(), db, samples[:1], index.ImportOptions{DefaultGame: "draughts"}); err != nil {
		f.Fatal(err)
	}
	for _, s := range [][7]string{
		{"ogi", "Komayō", "", "2026", "2026.07.14", "1-0", "Event=x"},
		{"", "a*", "%", "", "", "*", ""},
		{"dames", "' OR 1=1 --", "_", "9999", "0000", "1/2-1/2", "=\x00"},
		{"ogi", "", "", "", "", "", "P@hand"},
		{"ogi", "", "", "", "", "", "empty@ȺȺȺȺȺȺȺ"},
		{"ogii", "", "", "", "", "", ""}, // an unknown game alone: an error, not an empty answer
		{"OGI", "", "", "", "", "", ""},
		{"0", "", "", "", "", "", "K@1"},
	} {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5], s[6], "players:x*", 0)
	}
	for _, text := range []string{strings.Repeat("a*", 300), "/.{0,200}x.{0,200}/", "*", "* -*", "/(.*a){4}.{0,50}/", "x~2 y~2"} {
		f.Add("", "", "", "", "", "", "", text, 10)
	}
	f.Fuzz(func(t *testing.T, game, player, event, from, to, result, extra, text string, limit int) {
		q := index.Query{Game: game, Player: player, Event: event, DateFrom: from, DateTo: to, Result: result,
			Limit: limit % 100, Offset: limit % 7}
		if name, value, ok := strings.Cut(extra, "="); ok {
			q.Tags = []record.Tag{{Name: name, Value: value}}
		} else if extra != "" {
			if p, err := index.ParsePattern(extra); err == nil {
				q.Pattern = p
			}
		}
		if len(text) <= index.MaxTextQuery {
			q.Text = text
		}
		start := time.Now()
		_, err := db.Search(context.Background(), q)
		if err != nil && !errors.Is(err, index.ErrQuery) {
			t.Fatalf("%+v: error %v does not wrap ErrQuery", q, err)
		}
		// The database holds Ōgi games only: a game no ruleset has is
		// no stored game's either.
		if _, lerr := rules.Lookup(game); game != "" && lerr != nil && !errors.Is(err, index.ErrQuery) {
			t.Fatalf("%+v: game %q is unknown, error %v", q, game, err)
		}
		if d := time.Since(start); d > 10*time.Second { // a word of 300 wildcards took minutes
			t.Fatalf("%+v: answered after %v", q, d)
		}
	})
}
