package importers

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"sync/atomic"

	"github.com/plateau/plateau/importers/jsonl"
	"github.com/plateau/plateau/importers/sgf"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/record/pieces"
)

// IsSGF reports whether a path names an SGF file (.sgf, possibly
// compressed).
func IsSGF(path string) bool {
	return strings.HasSuffix(trimCompression(strings.ToLower(path)), ".sgf")
}

// File is one file a Source reads: a file named or found in a directory
// walk, standard input, or a member of a zip archive.
type File struct {
	Path   string // as given; "-" is standard input; a member's archive
	Member string // the member's name in its archive; "" for a file
	// Name is the file as positions, errors and a database name it:
	// Path, "<stdin>" for standard input, "archive.zip:member.pdn" for a
	// member.
	Name    string
	Size    int64 // bytes as stored (compressed); 0 for standard input
	ModTime int64 // modification time, Unix nanoseconds; 0 for standard input
	err     error // why the file cannot be read, found before its turn
}

// Stdin reports whether f is standard input.
func (f *File) Stdin() bool { return f.Path == "-" }

// Item is what a Source yields: a game of a file, the error that kept it
// from being read, or the end of a file read completely.
type Item struct {
	File *File
	N    int          // 1-based number of the game in its file; 0 with End
	Game *record.Game // as far as read when Err is set; nil with End
	Err  error        // a *record.Error (syntax, size limit), or nil
	// Read is how far into File the Source is after this item, in bytes
	// as the file is stored (compressed), so that progress reaches the
	// files' size when they end; for standard input, the decoded bytes.
	Read int64
	// End marks no game: File was read to its end, every game of it
	// returned. A file that fails has no End.
	End bool
}

// SourceOptions tune a Source.
type SourceOptions struct {
	// MaxRecord is the size limit of a record (record.Reader.SetMaxRecord;
	// 0: record.DefaultMaxRecord). A larger record is an Item whose Err
	// matches record.ErrTooLarge.
	MaxRecord int64
	// Skip, if set, is asked once for each file (but standard input)
	// before reading begins: true leaves it out (an import's files
	// imported before). It is counted in Stats.Skipped.
	Skip func(f *File) bool
	// Readers, above 1, is how many goroutines read the games of a PDN
	// file (package record/pieces): the same games, errors and positions
	// as one record.Reader's, read on several cores. 0 or 1: one reader.
	Readers int
	// Walk, if set, is told of each file that a directory walk leaves out
	// (an error wrapping ErrNotRegular) and each directory it cannot read
	// (see ExpandWith).
	Walk func(path string, err error)
}

// SourceStats count the files of a Source.
type SourceStats struct {
	Files      int   // files to read
	Skipped    int   // files left out by SourceOptions.Skip
	Unreadable int   // files and directories that could not be read, so far
	Bytes      int64 // size of the files to read, as stored
}

// Source yields the games of a list of paths in order, one at a time:
// files, directories (walked as Expand does), glob patterns, "-" for
// standard input, gzip, zstd and bzip2 streams and zip archives (each
// member with a record extension is a File). SGF files (see IsSGF) are
// read with package sgf, every other file with record.Reader.
type Source struct {
	opts  SourceOptions
	files []File
	stats SourceStats
	i     int // the next file to open
	cur   *openFile
	pdn   *record.Reader // reused from file to file
	arch  *zip.ReadCloser
	aPath string // arch's path
}

// openFile is the file being read.
type openFile struct {
	file  *File
	rc    io.ReadCloser
	games gameReader
	count *countingReader // bytes as stored, read so far
	scale [2]int64        // count's bytes × scale[0] / scale[1] (a member's)
	n     int
	last  int64  // Read of the last item
	stop  func() // stops games' goroutines, before rc is closed
}

// gameReader reads the games of one file: record.Reader and sgf.Reader.
type gameReader interface {
	// Next returns the next game, a *record.Error for a game that could
	// not be read (the reader goes on with the next one), or io.EOF.
	Next() (*record.Game, error)
	SetMaxRecord(n int64)
}

// ErrNoFiles is returned by NewSource when its paths hold no record file.
var ErrNoFiles = errors.New("no record files")

// NewSource returns the Source of paths. The paths are expanded (Expand's
// errors are returned), each file's size and time read, the members of zip
// archives listed, and SourceOptions.Skip asked, before it returns.
func NewSource(paths []string, opts SourceOptions) (*Source, error) {
	s := &Source{opts: opts, pdn: record.NewReader(eofReader{}, "")}
	s.pdn.SetMaxRecord(opts.MaxRecord)
	found, err := ExpandWith(paths, func(p string, err error) {
		if !errors.Is(err, ErrNotRegular) {
			s.stats.Unreadable++
		}
		if opts.Walk != nil {
			opts.Walk(p, err)
		}
	})
	if err != nil {
		return nil, err
	}
	if len(found) == 0 && s.stats.Unreadable == 0 {
		return nil, fmt.Errorf("%w in %v", ErrNoFiles, paths)
	}
	for _, p := range found {
		for _, f := range filesOf(p) {
			if opts.Skip != nil && !f.Stdin() && f.err == nil && opts.Skip(&f) {
				s.stats.Skipped++
				continue
			}
			s.files = append(s.files, f)
			s.stats.Bytes += f.Size
		}
	}
	s.stats.Files = len(s.files)
	return s, nil
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// filesOf returns the File of a path, or the members of a zip archive (an
// archive that cannot be listed is one File that fails when read).
func filesOf(p string) []File {
	if p == "-" {
		return []File{{Path: p, Name: "<stdin>"}}
	}
	f := File{Path: p, Name: p}
	fi, err := os.Stat(p)
	if err == nil {
		f.Size, f.ModTime = fi.Size(), fi.ModTime().UnixNano()
	}
	if err != nil || !isZip(p) {
		return []File{f} // an error is that file's when it is read
	}
	zr, err := zip.OpenReader(p)
	if err != nil {
		if errors.Is(err, zip.ErrFormat) {
			err = &FormatError{Format: "zip", Msg: "no zip directory at its end", Err: err}
		}
		f.err = err
		return []File{f}
	}
	defer zr.Close()
	var out []File
	for _, m := range zr.File {
		base := path.Base(m.Name)
		if m.FileInfo().IsDir() || strings.HasPrefix(base, ".") || strings.HasPrefix(m.Name, "__MACOSX/") || !IsRecordFile(base) || isZip(base) {
			continue
		}
		mt := f.ModTime // the archive's, for a member without its own
		if !m.Modified.IsZero() {
			mt = m.Modified.UnixNano()
		}
		out = append(out, File{Path: p, Member: m.Name, Name: p + ":" + m.Name, Size: int64(m.CompressedSize64), ModTime: mt})
	}
	return out
}

// Stats counts the files: those to read, left out and, so far, unreadable.
func (s *Source) Stats() SourceStats { return s.stats }

// Next returns the next item of the source. At the end it returns io.EOF.
// An error opening or reading a file is returned as a *FileError (counted
// in Stats.Unreadable); that file is then left, without an End, and the
// next call goes on with the next file.
func (s *Source) Next() (Item, error) {
	for {
		if s.cur == nil {
			if s.i >= len(s.files) {
				return Item{}, io.EOF
			}
			f := &s.files[s.i]
			s.i++
			if err := s.open(f); err != nil {
				return Item{}, s.fail(f, err)
			}
		}
		c := s.cur
		g, err := c.games.Next()
		if errors.Is(err, io.EOF) {
			read := c.last
			if c.file.Size > 0 {
				read = c.file.Size
			}
			s.closeFile()
			return Item{File: c.file, Read: read, End: true}, nil
		}
		var se *record.Error
		if err != nil && !errors.As(err, &se) {
			s.closeFile()
			return Item{}, s.fail(c.file, err)
		}
		c.n++
		c.last = c.read(g, err)
		return Item{File: c.file, N: c.n, Game: g, Err: err, Read: c.last}, nil
	}
}

func (s *Source) fail(f *File, err error) error {
	s.stats.Unreadable++
	return &FileError{File: f.Name, Err: err}
}

// open opens f for reading and its games' reader.
func (s *Source) open(f *File) error {
	if f.err != nil {
		return f.err
	}
	c := &openFile{file: f, scale: [2]int64{1, 1}}
	var raw io.ReadCloser
	switch {
	case f.Stdin():
		raw = io.NopCloser(os.Stdin)
	case f.Member != "":
		m, err := s.member(f)
		if err != nil {
			return err
		}
		raw = m
	default:
		o, err := os.Open(f.Path)
		if err != nil {
			return err
		}
		raw = o
	}
	c.count = &countingReader{r: raw}
	name := f.Path
	switch {
	case f.Stdin():
		name = ""
	case f.Member != "":
		name = f.Member
	}
	rc, err := decompress(c.count, name)
	if err != nil {
		raw.Close()
		return err
	}
	if f.Stdin() {
		c.count = nil // its progress is the decoded offset
	}
	if f.Member != "" {
		// A member is counted decoded: its share of the stored bytes.
		zf := s.memberFile(f)
		c.scale = [2]int64{int64(zf.CompressedSize64), max(int64(zf.UncompressedSize64), 1)}
	}
	var jsonHead bool
	if !IsSGF(f.Name) {
		// A JSON export (plateau export --format json) is told by its
		// content, whatever the file's name.
		br := bufio.NewReaderSize(rc, 64<<10)
		head, err := br.Peek(256)
		jsonHead = jsonl.Looks(head)
		if err != nil && !errors.Is(err, io.EOF) {
			// The error (a *FormatError) reaches the reader after the
			// bytes before it, as without the peek.
			rc = readCloser{io.MultiReader(bytes.NewReader(bytes.Clone(head)), errReader{err}), rc}
		} else {
			rc = readCloser{br, rc}
		}
	}
	if IsSGF(f.Name) {
		sr, err := sgf.NewReader(rc, f.Name)
		if err != nil {
			rc.Close()
			return err
		}
		c.games = sr
	} else if jsonHead {
		c.games = jsonl.NewReader(rc, f.Name)
	} else if s.opts.Readers > 1 {
		pr := pieces.NewReader(rc, f.Name, s.opts.Readers)
		c.games, c.stop = pr, pr.Close
	} else {
		s.pdn.Reset(rc, f.Name)
		c.games = s.pdn
	}
	c.games.SetMaxRecord(s.opts.MaxRecord)
	c.rc = rc
	s.cur = c
	return nil
}

// member opens a member of a zip archive, keeping the archive open for the
// members after it.
func (s *Source) member(f *File) (io.ReadCloser, error) {
	if s.arch == nil || s.aPath != f.Path {
		s.closeArchive()
		zr, err := zip.OpenReader(f.Path)
		if err != nil {
			return nil, err
		}
		s.arch, s.aPath = zr, f.Path
	}
	zf := s.memberFile(f)
	if zf == nil {
		return nil, fmt.Errorf("%w: no member %q in %s", os.ErrNotExist, f.Member, f.Path)
	}
	return zf.Open()
}

func (s *Source) memberFile(f *File) *zip.File {
	for _, zf := range s.arch.File {
		if zf.Name == f.Member {
			return zf
		}
	}
	return nil
}

// read is how far into its file c is after game g (or its error err), as
// stored; for standard input, the decoded offset of the game.
func (c *openFile) read(g *record.Game, err error) int64 {
	if c.count != nil {
		return c.count.n.Load() * c.scale[0] / c.scale[1]
	}
	var se *record.Error
	switch {
	case g != nil:
		return g.Pos.Offset
	case errors.As(err, &se):
		return se.Pos.Offset
	}
	return c.last
}

func (s *Source) closeFile() {
	if s.cur != nil {
		s.cur.close()
		s.cur = nil
	}
}

// close stops the file's reader and closes the file.
func (c *openFile) close() error {
	if c.stop != nil {
		c.stop()
	}
	return c.rc.Close()
}

func (s *Source) closeArchive() {
	if s.arch != nil {
		s.arch.Close()
		s.arch = nil
	}
}

// Close releases the file being read.
func (s *Source) Close() error {
	var err error
	if s.cur != nil {
		err = s.cur.close()
		s.cur = nil
	}
	s.closeArchive()
	return err
}

// FileError is an I/O error reading a file.
type FileError struct {
	File string
	Err  error
}

func (e *FileError) Error() string { return e.File + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// countingReader counts the bytes read through it, for progress in bytes
// as stored. The count is atomic: with parallel reading (record/pieces)
// the file is read on another goroutine than the one asking how far it is.
type countingReader struct {
	r io.ReadCloser
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingReader) Close() error { return c.r.Close() }

// readCloser reads through a buffer and closes what is under it.
type readCloser struct {
	io.Reader
	io.Closer
}

// errReader fails every read with its error.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
