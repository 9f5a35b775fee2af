package importers_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/plateau/plateau/importers"
)

// TestReaders: a Source that reads each PDN file's games on several
// goroutines yields the items one reader yields: every game with its
// position, tags, moves and error, every file's end and error, in order,
// from plain, compressed and archived files.
func TestReaders(t *testing.T) {
	dir := tree(t)
	samples, err := filepath.Glob("../samples/*")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile("../samples/ogi/endings.pdn")
	if err != nil {
		t.Fatal(err)
	}
	makeZip(t, filepath.Join(dir, "games.zip"), [][2]string{{"one.pdn", string(text)}, {"two.pgn", "[Event \"z\"]\n1. e4 *\n"}})
	paths := append([]string{dir}, samples...)
	want := dumpItems(t, paths, 0)
	if len(want) < 300 {
		t.Fatalf("only %d items", len(want))
	}
	for _, readers := range []int{2, 3} {
		if got := dumpItems(t, paths, readers); !reflect.DeepEqual(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("%d readers, item %d:\n got  %s\n want %s", readers, i, got[i], want[i])
				}
			}
			t.Fatalf("%d readers: %d items, want %d", readers, len(got), len(want))
		}
	}
}

// dumpItems is every item of a Source of paths as text.
func dumpItems(t *testing.T, paths []string, readers int) []string {
	t.Helper()
	s, err := importers.NewSource(paths, importers.SourceOptions{Readers: readers})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out []string
	for {
		it, err := s.Next()
		var fe *importers.FileError
		switch {
		case errors.Is(err, io.EOF):
			return out
		case errors.As(err, &fe):
			out = append(out, "file error "+fe.Error())
			continue
		case err != nil:
			t.Fatal(err)
		}
		s := fmt.Sprintf("%s %d end %v err %v", it.File.Name, it.N, it.End, it.Err)
		if g := it.Game; g != nil {
			s += fmt.Sprintf(" tags %q result %q pos %+v moves %d warnings %v", g.Tags, g.Result, g.Pos, len(g.Moves), g.Warnings)
			for _, m := range g.Moves {
				s += fmt.Sprintf(" %q%v%q%q%d%+v/%d", m.Text, m.NAGs, m.Before, m.After, m.Ply, m.Pos, len(m.Variations))
			}
		}
		out = append(out, s)
	}
}
