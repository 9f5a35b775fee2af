package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/plateau/plateau/importers"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/record"
)

// A gameIndex is where each game of a record file (or of the files of a
// directory) starts and what its tags are, found by one streaming pass of
// importers.Source, the reader of every command: show and replay reach game
// N without holding or replaying the games before, and the replayer moves
// between a file's games and lists them without reading the file again.
//
// Decisions: the index lives in memory for one run. Building it is one pass
// of the file, which show --game N needs anyway to count to N, and an index
// kept beside the database would have to follow the file's changes (a
// record file is not the database's). A game is read back by seeking to its
// offset when its file is plain text on disk (not compressed, not UTF-16,
// not SGF, not a zip member) and the game starts a line; the game read is
// checked against the index (same position, same tags) and, when anything
// differs (a Windows-1252 line makes the decoded offsets the Reader reports
// run ahead of the file's bytes), read by streaming the file to it instead.
type gameIndex struct {
	arg   string
	opts  readOpts
	games []indexEntry
	src   *importers.Source // the pass, until it has read every game
	items ingest.Items      // src's items, with their files' evidence (readOpts.ahead)
	// last is the game the pass read last (the one show asks for), so
	// that it is not read twice.
	last *record.Game
}

// indexEntry is one game of the index.
type indexEntry struct {
	file *importers.File
	n    int        // number in its file (1-based)
	pos  record.Pos // the game's first token
	tags []record.Tag
	err  error // the game's *record.Error, if it did not read
	// ev is the game's file's evidence for detection, counted ahead by
	// the pass (ingest.Lookahead): a game read again gets it.
	ev *record.Evidence
}

// newGameIndex starts the index of the games of arg (a file or a
// directory; not standard input).
func newGameIndex(arg string, o readOpts) (*gameIndex, error) {
	src, err := importers.NewSource([]string{arg}, importers.SourceOptions{MaxRecord: o.maxRecord, Walk: o.report})
	if err != nil {
		return nil, err
	}
	return &gameIndex{arg: arg, opts: o, src: src, items: ingest.NewLookahead(src, o.ahead)}, nil
}

// close releases the file the pass reads, if it has not ended.
func (ix *gameIndex) close() {
	if ix.src != nil {
		ix.src.Close()
		ix.src = nil
	}
}

// extend reads on until the index holds n games or the pass ends. A file
// that cannot be read is reported (readOpts.report) and the pass goes on;
// the error returned says how many could not be read, at the end.
func (ix *gameIndex) extend(n int) error {
	for ix.src != nil && len(ix.games) < n {
		it, err := ix.items.Next()
		var fe *importers.FileError
		switch {
		case errors.Is(err, io.EOF):
			unreadable := ix.src.Stats().Unreadable
			ix.close()
			if unreadable > 0 {
				return &filesError{unreadable}
			}
			return nil
		case errors.As(err, &fe):
			ix.opts.report(fe.File, fe.Err)
			continue
		case err != nil:
			ix.close()
			return err
		case it.End:
			continue
		}
		ix.games = append(ix.games, indexEntry{file: it.File, n: it.N, pos: it.Game.Pos, tags: it.Game.Tags, err: it.Err, ev: it.Game.Evidence})
		ix.last = it.Game
	}
	return nil
}

// all completes the index.
func (ix *gameIndex) all() error { return ix.extend(int(^uint(0) >> 1)) }

// complete reports whether the pass has read every game.
func (ix *gameIndex) complete() bool { return ix.src == nil }

// Len is the number of games indexed so far (all of them once complete).
func (ix *gameIndex) Len() int { return len(ix.games) }

// game reads game i (0-based) of the index, which must hold it: the record,
// with its file's evidence, and, when it did not read, its error (a
// *record.Error); err is an I/O error.
func (ix *gameIndex) game(i int) (g *record.Game, rerr, err error) {
	e := &ix.games[i]
	if i == len(ix.games)-1 && ix.last != nil {
		return ix.last, e.err, nil
	}
	g, rerr, ok := ix.seek(e)
	if !ok {
		if g, rerr, err = ix.stream(e); err != nil {
			return nil, nil, err
		}
	}
	if g != nil {
		g.Evidence = e.ev
	}
	return g, rerr, nil
}

// seek reads the game of e from its offset; ok is false when the file is
// not one to seek in or the game read is not the one indexed.
func (ix *gameIndex) seek(e *indexEntry) (g *record.Game, rerr error, ok bool) {
	f := e.file
	if f.Stdin() || f.Member != "" || importers.IsSGF(f.Name) || e.pos.Col != 1 {
		return nil, nil, false
	}
	fd, err := os.Open(f.Path)
	if err != nil {
		return nil, nil, false
	}
	defer fd.Close()
	if !plainText(fd) {
		return nil, nil, false
	}
	if _, err := fd.Seek(e.pos.Offset, io.SeekStart); err != nil {
		return nil, nil, false
	}
	r := record.NewReader(nil, f.Name)
	r.SetMaxRecord(ix.opts.maxRecord)
	r.ResetAt(bufio.NewReader(fd), e.pos)
	g, rerr = r.Next()
	if g == nil || g.Pos != e.pos || !slices.Equal(g.Tags, e.tags) || (rerr == nil) != (e.err == nil) {
		return nil, nil, false
	}
	return g, rerr, true
}

// plainText reports whether a file's first bytes are neither a compressed
// stream's nor a zip archive's nor UTF-16's (the Reader's offsets are then
// the file's, up to Windows-1252 lines, which seek's check catches).
func plainText(f *os.File) bool {
	var b [4]byte
	n, _ := io.ReadFull(f, b[:])
	h := b[:n]
	for _, magic := range []string{"\x1f\x8b", "\x28\xb5\x2f\xfd", "BZh", "PK\x03\x04", "\xff\xfe", "\xfe\xff"} {
		if len(h) >= len(magic) && string(h[:len(magic)]) == magic {
			return false
		}
	}
	return n < 4 || (b[0] != 0 && b[1] != 0 && b[2] != 0 && b[3] != 0)
}

// stream reads the game of e by reading its file from the start.
func (ix *gameIndex) stream(e *indexEntry) (g *record.Game, rerr, err error) {
	src, err := importers.NewSource([]string{e.file.Path}, importers.SourceOptions{MaxRecord: ix.opts.maxRecord})
	if err != nil {
		return nil, nil, err
	}
	defer src.Close()
	for {
		it, err := src.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("%s: game %d is no longer in the file", e.file.Name, e.n)
			}
			return nil, nil, err
		}
		if !it.End && it.File.Name == e.file.Name && it.N == e.n {
			return it.Game, it.Err, nil
		}
	}
}

// tag is the value of a tag of game i, "" when absent.
func (ix *gameIndex) tag(i int, name string) string {
	for _, t := range ix.games[i].tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}
