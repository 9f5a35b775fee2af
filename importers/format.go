package importers

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// ErrFormat is matched (errors.Is) by a *FormatError.
var ErrFormat = errors.New("not in its compression format")

// FormatError is the error of a file whose data is not in the compression
// format that its name (.gz, .zst, .bz2, .zip) or its magic number says: a
// file named .gz without a gzip header, a zstd magic number before a frame
// that does not decode. What a decompressor finds wrong after the start of
// its output is its own error (a truncated stream: io.ErrUnexpectedEOF).
type FormatError struct {
	Format string // gzip, zstd, bzip2 or zip
	Msg    string // what is wrong
	Err    error  // the decompressor's error, or nil
}

func (e *FormatError) Error() string {
	s := "not " + e.Format + ": " + e.Msg
	if e.Err != nil {
		s += " (" + e.Err.Error() + ")"
	}
	return s
}

// Is reports ErrFormat.
func (e *FormatError) Is(target error) bool { return target == ErrFormat }

// Unwrap returns the decompressor's error.
func (e *FormatError) Unwrap() error { return e.Err }

// formatOf names the compression format whose magic number starts magic,
// or "".
func formatOf(magic []byte) string {
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		return "gzip"
	case len(magic) >= 4 && string(magic[:4]) == "\x28\xb5\x2f\xfd":
		return "zstd"
	case len(magic) >= 4 && string(magic[:3]) == "BZh" && magic[3] >= '1' && magic[3] <= '9':
		return "bzip2"
	case len(magic) >= 4 && string(magic[:4]) == "PK\x03\x04":
		return "zip"
	}
	return ""
}

// nameFormat names the compression format that a file name's extension
// says (.gz, .zst, .bz2, any case), or "".
func nameFormat(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".gz"):
		return "gzip"
	case strings.HasSuffix(n, ".zst"):
		return "zstd"
	case strings.HasSuffix(n, ".bz2"):
		return "bzip2"
	}
	return ""
}

// notFormat is the error of data that lacks the magic number of the format
// want its name says: it names what the data starts with instead.
func notFormat(want, got string, magic []byte) *FormatError {
	e := &FormatError{Format: want, Msg: "no " + want + " header"}
	switch {
	case len(magic) == 0:
		e.Msg = "the file is empty"
	case got != "":
		e.Msg += " (the data is " + got + ": rename the file)"
	default:
		e.Msg += fmt.Sprintf(" (it starts with %q)", magic)
	}
	return e
}

// firstRead reads a decompressor, and makes an error before its first byte
// of output a *FormatError: the data has the format's magic number, but
// what follows it is not in that format.
type firstRead struct {
	r      io.Reader
	format string
	n      int64
}

func (f *firstRead) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.n += int64(n)
	if err != nil && err != io.EOF && f.n == 0 {
		msg := "its data after the magic number does not decode"
		if errors.Is(err, zstd.ErrWindowSizeExceeded) {
			msg = fmt.Sprintf("its first frame asks for a window over %d MiB: corrupt data, or written with zstd --long above 27", maxWindow>>20)
		}
		err = &FormatError{Format: f.format, Msg: msg, Err: err}
	}
	return n, err
}
