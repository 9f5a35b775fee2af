package importers

import (
	"errors"
	"io"
	"strings"

	"github.com/plateau/plateau/importers/sgf"
	"github.com/plateau/plateau/record"
)

// IsSGF reports whether a path names an SGF file (.sgf, possibly
// compressed).
func IsSGF(path string) bool {
	n := strings.ToLower(path)
	n = strings.TrimSuffix(n, ".gz")
	n = strings.TrimSuffix(n, ".zst")
	return strings.HasSuffix(n, ".sgf")
}

// gameReader is what Source reads games from.
type gameReader interface {
	Next() (*record.Game, error)
}

// Item is one game read from a source, or the error that kept it from being
// read. Game is set with Err for a syntax error (as far as it was read).
type Item struct {
	File string // the path read ("-" is shown as "<stdin>")
	N    int    // 1-based number of the game in its file
	Game *record.Game
	Err  error // a *record.Error (syntax), or nil
}

// Source yields the games of a list of paths in order, one at a time. SGF
// files (see IsSGF) are read with package sgf, every other file with
// record.Reader.
type Source struct {
	paths []string
	i     int
	cur   io.ReadCloser
	r     *record.Reader
	games gameReader
	name  string
	n     int
}

// NewSource returns a Source over paths (as returned by Expand).
func NewSource(paths []string) *Source {
	return &Source{paths: paths, r: record.NewReader(eofReader{}, "")}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// SetMaxRecord sets the size limit of a record (record.Reader.SetMaxRecord)
// for the files read after it.
func (s *Source) SetMaxRecord(n int64) { s.r.SetMaxRecord(n) }

// Next returns the next game (or syntax error) of the source. At the end it
// returns io.EOF. An error opening or reading a file is returned as a
// *FileError; that file is then left, and the next call goes on with the
// next file.
func (s *Source) Next() (Item, error) {
	for {
		if s.cur == nil {
			if s.i >= len(s.paths) {
				return Item{}, io.EOF
			}
			p := s.paths[s.i]
			s.i++
			rc, err := Open(p)
			if err != nil {
				return Item{}, &FileError{File: p, Err: err}
			}
			s.cur = rc
			s.name = p
			if p == "-" {
				s.name = "<stdin>"
			}
			s.n = 0
			if IsSGF(p) {
				sr, err := sgf.NewReader(rc, s.name)
				if err != nil {
					s.Close()
					return Item{}, &FileError{File: s.name, Err: err}
				}
				s.games = sr
			} else {
				s.r.Reset(rc, s.name)
				s.games = s.r
			}
		}
		g, err := s.games.Next()
		if errors.Is(err, io.EOF) {
			s.cur.Close()
			s.cur = nil
			continue
		}
		var se *record.Error
		if err != nil && !errors.As(err, &se) {
			s.cur.Close()
			s.cur = nil
			return Item{}, &FileError{File: s.name, Err: err}
		}
		s.n++
		return Item{File: s.name, N: s.n, Game: g, Err: err}, nil
	}
}

// Close releases the file being read.
func (s *Source) Close() error {
	if s.cur != nil {
		err := s.cur.Close()
		s.cur = nil
		return err
	}
	return nil
}

// FileError is an I/O error reading a file.
type FileError struct {
	File string
	Err  error
}

func (e *FileError) Error() string { return e.File + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }
