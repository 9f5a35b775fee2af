package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/importers"
	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// brazilianUntagged is an untagged file whose first three games Russian,
// Brazilian, Czech, pool and checkers rules all read, and whose last two
// only some of them: a man that passes the far row in a capture and stops
// there (Brazilian and Czech; under Russian rules it is crowned and must
// take on as a king), and a man that captures backward (Brazilian and
// Russian, not Czech). Brazilian rules read all five: the file's majority.
const brazilianUntagged = `[Event "ambiguous 1"]
[Result "*"]

1. c3-d4 f6-e5 2. d4xf6 g7xe5 *

[Event "ambiguous 2"]
[Result "*"]

1. e3-f4 d6-c5 2. g3-h4 c7-d6 *

[Event "ambiguous 3"]
[Result "*"]

1. c3-b4 f6-g5 2. b4-a5 g7-f6 *

[Event "brazilian and czech"]
[FEN "W:Wb6,a1:Bc7,g5,h8"]
[Result "*"]

1. b6xd8 *

[Event "brazilian and russian"]
[FEN "W:Wd4,a1:Be3,h8"]
[Result "*"]

1. d4xf2 *
`

var detect = replay.Options{DefaultGame: "draughts", Detect: true}

// items reads every item of paths through a Lookahead with opts.
func items(t *testing.T, paths []string, opts replay.Options) []importers.Item {
	t.Helper()
	src, err := importers.NewSource(paths, importers.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	l := ingest.NewLookahead(src, opts)
	var out []importers.Item
	for {
		it, err := l.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, it)
	}
}

// The first games of an untagged file are read with the evidence of the
// whole file: the Brazilian file's ambiguous first games are brazilian,
// and the warning names the other rulesets that read them and the count
// that decided. Without the look-ahead they went to russian, first in
// the order tried. A tagged file's records carry an empty count; every
// item comes through in order, the files' ends included.
func TestLookaheadEvidence(t *testing.T) {
	dir := t.TempDir()
	a := write(t, filepath.Join(dir, "a.pdn"), []byte(brazilianUntagged))
	b := write(t, filepath.Join(dir, "b.pdn"), games(t, 3, 1))
	its := items(t, []string{a, b}, detect)
	var got []string
	for _, it := range its {
		if it.End {
			got = append(got, "end "+filepath.Base(it.File.Name))
			continue
		}
		ev := it.Game.Evidence
		if ev == nil {
			t.Fatalf("%s game %d: no evidence", it.File.Name, it.N)
		}
		g := replay.Replay(it.Game, detect)
		if g.Err != nil {
			t.Fatalf("%s game %d: %v", it.File.Name, it.N, g.Err)
		}
		got = append(got, fmt.Sprintf("%s %d %s %d/%d", filepath.Base(it.File.Name), it.N, g.Rules.ID(), ev.Read["brazilian"], ev.Games))
		if it.File.Name == a {
			if !ev.Whole || ev.Read["russian"] != 4 || ev.Read["czech"] != 4 {
				t.Errorf("a.pdn evidence %+v", ev)
			}
			if w := g.Warnings[0].Text; it.N == 1 && !strings.Contains(w, "read as brazilian") ||
				it.N == 1 && !strings.Contains(w, "russian, czech, pool, checkers read it as valid too: the file's majority, brazilian read 5 of its 5 untagged games") {
				t.Errorf("game 1 warning: %s", w)
			}
		}
	}
	want := "a.pdn 1 brazilian 5/5, a.pdn 2 brazilian 5/5, a.pdn 3 brazilian 5/5, a.pdn 4 brazilian 5/5, a.pdn 5 brazilian 5/5, end a.pdn, " +
		"b.pdn 1 draughts 0/0, b.pdn 2 draughts 0/0, b.pdn 3 draughts 0/0, end b.pdn"
	if strings.Join(got, ", ") != want {
		t.Errorf("read\n%s\nwant\n%s", strings.Join(got, ", "), want)
	}
	// Read in order without the look-ahead, game 1 has no evidence yet.
	rec := its[0].Game
	rec.Evidence = nil
	if g := replay.Replay(rec, detect); g.Rules.ID() != "russian" {
		t.Errorf("without evidence: %s", g.Rules.ID())
	}
	// With a ruleset given, nothing is read ahead or counted.
	for _, it := range items(t, []string{a}, replay.Options{DefaultGame: "brazilian"}) {
		if it.Game != nil && it.Game.Evidence != nil {
			t.Errorf("game %d has evidence without detection", it.N)
		}
	}
}

// A file longer than the look-ahead's bound is read with the evidence of
// its first AheadGames records, which its later records share.
func TestLookaheadBound(t *testing.T) {
	var text strings.Builder
	for i := range ingest.AheadGames + 5 {
		moves := "1. c3-d4 f6-e5 *"
		if i == 1 {
			moves = "1. c3-d4 f6-e5 2. d4xf6 *" // russian, brazilian, czech, …
		}
		fmt.Fprintf(&text, "[Round \"%d\"]\n\n%s\n\n", i+1, moves)
	}
	path := write(t, filepath.Join(t.TempDir(), "long.pdn"), []byte(text.String()))
	its := items(t, []string{path}, detect)
	if len(its) != ingest.AheadGames+6 || !its[len(its)-1].End {
		t.Fatalf("%d items", len(its))
	}
	first := its[0].Game.Evidence
	if first == nil || first.Whole || first.Games != ingest.AheadGames {
		t.Fatalf("evidence %+v", first)
	}
	for _, it := range its[:len(its)-1] {
		if it.Game.Evidence != first {
			t.Fatalf("game %d: evidence %+v, not the file's", it.N, it.Game.Evidence)
		}
	}
}

// fakeItems yields its items, then io.EOF.
type fakeItems struct {
	its  []importers.Item
	errs []error
}

func (f *fakeItems) Next() (importers.Item, error) {
	if len(f.its) == 0 {
		return importers.Item{}, io.EOF
	}
	it, err := f.its[0], f.errs[0]
	f.its, f.errs = f.its[1:], f.errs[1:]
	return it, err
}

// A file that fails after some records is counted from those: they come
// through, then the error, then the next file's records with their own.
func TestLookaheadFileError(t *testing.T) {
	rec := func(file, moves string) *record.Game {
		return &record.Game{Pos: record.Pos{File: file}, Moves: record.Line{{Text: moves}}}
	}
	fa, fb := &importers.File{Name: "a.pdn"}, &importers.File{Name: "b.pdn"}
	fail := &importers.FileError{File: "a.pdn", Err: errors.New("cut short")}
	src := &fakeItems{
		its: []importers.Item{{File: fa, N: 1, Game: rec("a.pdn", "c3-d4")}, {File: fa, N: 2, Game: rec("a.pdn", "c3-b4")}, {},
			{File: fb, N: 1, Game: rec("b.pdn", "22-18")}, {File: fb, End: true}},
		errs: []error{nil, nil, fail, nil, nil},
	}
	l := ingest.NewLookahead(src, detect)
	var got []string
	for {
		it, err := l.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		switch {
		case err != nil:
			got = append(got, "error")
		case it.End:
			got = append(got, "end")
		default:
			ev := it.Game.Evidence
			got = append(got, fmt.Sprintf("%s %d games %d whole %v", it.File.Name, it.N, ev.Games, ev.Whole))
		}
	}
	if w := "a.pdn 1 games 2 whole false, a.pdn 2 games 2 whole false, error, b.pdn 1 games 1 whole true, end"; strings.Join(got, ", ") != w {
		t.Errorf("read %s\nwant %s", strings.Join(got, ", "), w)
	}
}

// An import reads the untagged file as validate does: every game
// brazilian, the first ones included.
func TestImportEvidence(t *testing.T) {
	ctx := context.Background()
	path := write(t, filepath.Join(t.TempDir(), "a.pdn"), []byte(brazilianUntagged))
	db := open(t)
	if _, err := ingest.Files(ctx, db, []string{path}, ingest.Options{ImportOptions: index.ImportOptions{DefaultGame: "draughts", Detect: true}}); err != nil {
		t.Fatal(err)
	}
	res, err := db.Search(ctx, index.Query{Game: "brazilian", Count: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 5 {
		t.Errorf("%d brazilian games, want 5", res.Total)
	}
}
