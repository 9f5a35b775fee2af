package gamerows

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/all"
)

// TestPrepareReusesMemory checks that a worker's preparer, which replays
// each game in the memory of the one before, prepares every record as a new
// preparer does: the samples of every game (variations, errors, detection)
// and generated games of every ruleset, one after another.
func TestPrepareReusesMemory(t *testing.T) {
	var srcs []readRecords
	files, _ := filepath.Glob("../../../samples/*/*.pdn")
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, readAll(t, f, text))
	}
	for _, id := range []string{"ogi", "dames", "jetan", "sauts", "dejarik", "draughts"} {
		rg, err := rules.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		gen, err := generate.New(rg, 3)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := gen.Write(context.Background(), &buf, 60, generate.Options{}); err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, readAll(t, id+".pdn", buf.Bytes()))
	}
	for _, detect := range []bool{false, true} {
		opts := replay.Options{DefaultGame: "draughts", Detect: detect}
		reused := NewPreparer(Options{Replay: opts})
		n, branching := 0, 0
		for _, s := range srcs {
			for i, g := range s.recs {
				r := Record{Game: g, Err: s.errs[i], File: s.file}
				fresh := NewPreparer(Options{Replay: opts})
				fresh.prefFile, fresh.prefer = reused.prefFile, reused.prefer
				want := fresh.Prepare(r)
				got := reused.Prepare(r)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s record %d (detect %v): prepared after other games\n%+v\nalone\n%+v", s.file, i, detect, got, want)
				}
				n++
				if len(want.Pos) > want.Plies+1 {
					branching++
				}
			}
		}
		if n < 500 || branching == 0 {
			t.Fatalf("%d records, %d with variations: want many, some with variations", n, branching)
		}
	}
}

// readRecords are the records of a file and their read errors.
type readRecords struct {
	file string
	recs []*record.Game
	errs []error
}

func readAll(t *testing.T, file string, text []byte) readRecords {
	s := readRecords{file: file}
	r := record.NewReader(bytes.NewReader(text), file)
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return s
		}
		if g == nil && err == nil {
			t.Fatalf("%s: no game and no error", file)
		}
		s.recs = append(s.recs, g)
		s.errs = append(s.errs, err)
	}
}
