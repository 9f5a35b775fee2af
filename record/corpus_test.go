package record_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/plateau/plateau/record"
)

// corpus is the shared reference corpus, read in place.
const corpus = "../../shared/corpus"

func corpusFiles(t *testing.T, dir string) []string {
	t.Helper()
	d := filepath.Join(corpus, dir)
	if _, err := os.Stat(d); err != nil {
		t.Skipf("corpus directory %s is missing (%v): corpus tests skipped", d, err)
	}
	files, err := filepath.Glob(filepath.Join(d, "*.pdn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .pdn files in %s: %v", d, err)
	}
	return files
}

// readFile reads every game of a file, failing on any non-syntax error or a
// reader that does not end.
func readFile(t *testing.T, path string) (games []*record.Game, errs []*record.Error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := record.NewReader(f, path)
	for i := 0; i < 1e6; i++ {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return games, errs
		}
		if err != nil {
			var se *record.Error
			if !errors.As(err, &se) {
				t.Fatalf("%s: %v", path, err)
			}
			errs = append(errs, se)
			continue
		}
		games = append(games, g)
	}
	t.Fatalf("%s: reader does not end", path)
	return
}

// Every file of succeed/ reads without error, every game round-trips, and
// the game counts of some files are known.
func TestCorpusSucceed(t *testing.T) {
	want := map[string]int{ // games per file, counted by hand ([Event …] tags or results)
		"Cat.B1.pdn": 37, "DUTCH96H.pdn": 13, "OCA_2.0.pdn": 43, "bridges.pdn": 267,
		"goulds.pdn": 262, "ussr1947.pdn": 153, "fen.pdn": 3, "variation.pdn": 1,
		"windragon.pdn": 1, "nk ronde 01.pdn": 7,
	}
	total := 0
	for _, path := range corpusFiles(t, "pdn/succeed") {
		games, errs := readFile(t, path)
		for _, e := range errs {
			t.Errorf("%v", e)
		}
		if len(games) == 0 {
			t.Errorf("%s: no game", path)
		}
		if n, ok := want[filepath.Base(path)]; ok && n != len(games) {
			t.Errorf("%s: %d games, want %d", path, len(games), n)
		}
		for i, g := range games {
			roundTrip(t, path+" game "+strconv.Itoa(i+1), g)
		}
		total += len(games)
	}
	t.Logf("%d games", total)
}

// Files of fail/ are rejected by a strict PDN reader mostly for reasons of
// content (impossible results, bad moves) that only replay can see; the
// Reader must read them without panicking and keep going, and the nested
// comment must be a positioned syntax error.
func TestCorpusFail(t *testing.T) {
	for _, path := range corpusFiles(t, "pdn/fail") {
		games, errs := readFile(t, path)
		for _, g := range games {
			roundTrip(t, path, g)
		}
		if filepath.Base(path) == "nested_comment.pdn" {
			if len(errs) != 1 || errs[0].Pos.Line != 1 || errs[0].Pos.Col != 34 {
				t.Errorf("%s: errors %v, want one at 1:34", path, errs)
			}
		}
	}
}
