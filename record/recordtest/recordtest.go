// Package recordtest holds the helpers the games' tests share to read and
// write sample record files.
package recordtest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/record"
)

// ReadFile reads every game of a record file. A game the reader rejects is
// kept (as far as it was read) with its syntax error in errs; any other
// error fails the test.
func ReadFile(tb testing.TB, path string) (games []*record.Game, errs []error) {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	r := record.NewReader(f, path)
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return games, errs
		}
		if err != nil && !errors.Is(err, record.ErrSyntax) {
			tb.Fatalf("%s: %v", path, err)
		}
		if err != nil {
			errs = append(errs, err)
		}
		games = append(games, g)
	}
}

// MustReadFile reads a record file that must have no syntax error.
func MustReadFile(tb testing.TB, path string) []*record.Game {
	tb.Helper()
	games, errs := ReadFile(tb, path)
	if len(errs) > 0 {
		tb.Fatalf("%s: %v", path, errs[0])
	}
	return games
}

// Sample is a game to write into a named file of a samples folder.
type Sample struct {
	File string
	Game *record.Game
}

// WriteFiles writes the samples into dir, the games of each file in the
// order given, each file once.
func WriteFiles(dir string, samples []Sample) error {
	files := map[string]*bytes.Buffer{}
	var order []string
	for _, s := range samples {
		if files[s.File] == nil {
			files[s.File] = &bytes.Buffer{}
			order = append(order, s.File)
		}
		if err := record.Write(files[s.File], s.Game); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range order {
		if err := os.WriteFile(filepath.Join(dir, name), files[name].Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
