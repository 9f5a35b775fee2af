// Package importers turns sources into streams of record games: it expands
// command-line arguments (files, directories walked recursively in sorted
// order, glob patterns, "-" for standard input) into record files, opens them
// with transparent gzip, zstd and bzip2 decompression, lists the members of
// zip archives, and reads their games with provenance (file, line, byte
// offset) through record.Reader. Source is the one iterator over them all:
// games in order, the bytes read for progress, an error per file that
// cannot be read, the end of each file read completely. Everything is
// streamed: no file is held in memory, except SGF files (read whole by
// package importers/sgf, which converts SGF game trees to record games).
// A file that starts as a JSON export does (plateau export --format json,
// whatever its name) is read by package importers/jsonl.
//
// Decisions: a directory contributes only files with a record extension
// (.pdn .pgn .txt .ogi .dames .jetan .dejarik .sauts .sgf, case-insensitive),
// optionally followed by .gz, .zst or .bz2, and zip archives (.zip); a file
// named explicitly is read whatever its extension. Hidden files and
// directories (name starting with '.') are skipped in directory walks, and so
// are files that are neither regular files nor links to one (FIFOs, sockets,
// devices: reading one could block), which ExpandWith reports. Compression
// is recognised by its magic number; a file (or zip member) named .gz, .zst
// or .bz2 must be in that format, as gzip -d and zstd -d require: one that
// is not ("not gzip: no gzip header"), or whose data after the magic number
// does not decode ("not zstd: its first frame …"), is that file's error, a
// *FormatError, never read as text. A zip archive is recognised by its
// extension and read from its file (its directory is at its end): on
// standard input, or under another name, it is an error (ErrZipStream); a
// .zip file that is no archive is a *FormatError.
// Each member with a record extension (not hidden, not a nested archive) is
// a File of its own, named "archive.zip:member.pdn", so that positions and
// errors read "archive.zip:member.pdn:12:3"; a member's progress is its
// decoded bytes scaled to its compressed size.
package importers

import (
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// ErrNoMatch is returned by Expand for a glob that matches nothing.
var ErrNoMatch = errors.New("importers: no file matches")

// ErrNotRegular is reported (see ExpandWith) for a file found in a directory
// walk that is not a regular file nor a link to one (a FIFO, a socket, a
// device): it is skipped, since reading it could block forever.
var ErrNotRegular = errors.New("not a regular file: skipped")

// Extensions are the record file extensions a directory walk picks up.
var Extensions = []string{".pdn", ".pgn", ".txt", ".ogi", ".dames", ".jetan", ".dejarik", ".sauts", ".sgf"}

// ErrZipStream is the error of a zip archive read as a stream (standard
// input, or a file without the .zip extension): an archive is read from a
// file named .zip.
var ErrZipStream = errors.New("a zip archive is read from a file named .zip, not a stream")

// IsRecordFile reports whether name has a record extension, possibly
// followed by .gz, .zst or .bz2, or is a zip archive.
func IsRecordFile(name string) bool {
	n := strings.ToLower(name)
	if isZip(n) {
		return true
	}
	n = trimCompression(n)
	for _, e := range Extensions {
		if strings.HasSuffix(n, e) {
			return true
		}
	}
	return false
}

// Expand turns arguments into a list of paths to read: "-" stays "-"
// (standard input), a directory becomes its record files (recursive, sorted
// by path), a glob pattern its matches (directories among them expanded the
// same way), any other argument itself. A path that does not exist is an
// error, as is a glob with no match.
func Expand(args []string) ([]string, error) {
	return ExpandWith(args, nil)
}

// ExpandWith is Expand, going on past what a directory walk cannot use:
// report (if not nil) is called with the path and an error for a file
// skipped (wrapping ErrNotRegular) and for a directory that cannot be read
// (then left out). A link with a record extension that cannot be followed
// (a loop, a dangling link) or leads to a directory is kept, so that reading
// it fails as that file's error.
func ExpandWith(args []string, report func(path string, err error)) ([]string, error) {
	if report == nil {
		report = func(string, error) {}
	}
	var out []string
	for _, a := range args {
		if a == "-" {
			out = append(out, a)
			continue
		}
		if _, err := os.Stat(a); err != nil {
			if !hasMeta(a) {
				return nil, err
			}
			m, gerr := filepath.Glob(a)
			if gerr != nil {
				return nil, fmt.Errorf("importers: %q: %w", a, gerr)
			}
			if len(m) == 0 {
				return nil, fmt.Errorf("%w %q", ErrNoMatch, a)
			}
			sort.Strings(m)
			for _, p := range m {
				ps, err := expandPath(p, report)
				if err != nil {
					return nil, err
				}
				out = append(out, ps...)
			}
			continue
		}
		ps, err := expandPath(a, report)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}

// trimCompression removes a compression extension from a lower-case name.
func trimCompression(n string) string {
	for _, e := range []string{".gz", ".zst", ".bz2"} {
		if t, ok := strings.CutSuffix(n, e); ok {
			return t
		}
	}
	return n
}

// isZip reports whether name has the zip extension.
func isZip(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".zip") }

func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

func expandPath(p string, report func(string, error)) ([]string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{p}, nil
	}
	var out []string
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == p {
				return err
			}
			// An unreadable directory below p: say so, go on.
			report(path, err)
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if path != p && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !IsRecordFile(name) {
			return nil
		}
		switch t := d.Type(); {
		case t.IsRegular():
		case t&fs.ModeSymlink != 0:
			// Followed when it leads to a regular file; kept when
			// it cannot be followed or leads to a directory, so
			// that reading fails as that file's error.
			if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
				report(path, fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode())))
				return nil
			}
		default:
			report(path, fmt.Errorf("%w (%s)", ErrNotRegular, kind(t)))
			return nil
		}
		out = append(out, path)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(out) // WalkDir is lexical already; keep it explicit.
	return out, nil
}

// kind names the type of a file that is not regular.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "type " + m.Type().String()
}

// Open opens path for reading ("-" is standard input, which Close leaves
// open) and decompresses gzip, zstd and bzip2 streams, recognised by their
// magic numbers; a file named .gz, .zst or .bz2 must be in that format (a
// *FormatError otherwise). The caller closes the result.
func Open(path string) (io.ReadCloser, error) {
	var f io.ReadCloser
	name := ""
	if path == "-" {
		f = io.NopCloser(os.Stdin)
	} else {
		o, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		f, name = o, path
	}
	rc, err := decompress(f, name)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("importers: %s: %w", path, err)
	}
	return rc, nil
}

// NewReader wraps r, decompressing it when it starts with a gzip, zstd or
// bzip2 magic number. Closing the result releases the decompressor and closes r
// when r is an io.Closer.
func NewReader(r io.Reader) (io.ReadCloser, error) {
	rc, ok := r.(io.ReadCloser)
	if !ok {
		rc = io.NopCloser(r)
	}
	return decompress(rc, "")
}

type multiCloser struct {
	io.Reader
	close []func() error
}

func (m *multiCloser) Close() error {
	var first error
	for _, c := range m.close {
		if err := c(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// decompress reads f, decompressed when it starts with the magic number of
// a compression format; name (a file's or a zip member's, or "" for a
// stream) is checked against it: a name that says a format is that format's.
func decompress(f io.ReadCloser, name string) (io.ReadCloser, error) {
	br := bufio.NewReaderSize(f, 64<<10)
	magic, _ := br.Peek(8)
	format := formatOf(magic)
	if want := nameFormat(name); want != "" && want != format {
		return nil, notFormat(want, format, magic)
	}
	switch format {
	case "gzip":
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &FormatError{Format: format, Msg: "bad gzip header", Err: err}
		}
		return &multiCloser{Reader: &firstRead{r: zr, format: format}, close: []func() error{zr.Close, f.Close}}, nil
	case "zstd":
		// A window of at most 128 MiB, as the zstd command decodes by
		// default: a stream that asks for more (up to 512 MiB by the
		// library's default) would take that much memory.
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxWindow))
		if err != nil {
			return nil, &FormatError{Format: format, Msg: "its first frame does not decode", Err: err}
		}
		return &multiCloser{Reader: &firstRead{r: zr, format: format}, close: []func() error{func() error { zr.Close(); return nil }, f.Close}}, nil
	case "bzip2":
		return &multiCloser{Reader: &firstRead{r: bzip2.NewReader(br), format: format}, close: []func() error{f.Close}}, nil
	case "zip":
		return nil, ErrZipStream
	}
	return &multiCloser{Reader: br, close: []func() error{f.Close}}, nil
}

// maxWindow is the largest zstd window decoded.
const maxWindow = 128 << 20
