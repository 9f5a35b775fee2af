package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/plateau/plateau/importers"
	"github.com/plateau/plateau/record"
)

// eachGame reads every game of every path (files, directories, globs, "-")
// in order and calls fn with the file, the game's 1-based number in its file,
// and the game or the error that kept it from being read. An I/O error stops
// the walk and is returned.
func eachGame(args []string, fn func(file string, n int, g *record.Game, err error) error) error {
	paths, err := importers.Expand(args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return fmt.Errorf("no record files in %v", args)
	}
	for _, p := range paths {
		if err := eachGameOfFile(p, fn); err != nil {
			return err
		}
	}
	return nil
}

func eachGameOfFile(path string, fn func(file string, n int, g *record.Game, err error) error) error {
	rc, err := importers.Open(path)
	if err != nil {
		return err
	}
	defer rc.Close()
	name := path
	if path == "-" {
		name = "<stdin>"
	}
	r, err := importers.NewGameReader(path, rc, name)
	if err != nil {
		return err
	}
	for n := 1; ; n++ {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		var se *record.Error
		if err != nil && !errors.As(err, &se) {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := fn(name, n, g, err); err != nil {
			return err
		}
	}
}
