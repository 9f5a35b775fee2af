package importers_test

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/importers"
)

// A file whose name says a compression format and whose data is not in it
// is an error naming the file and the format (issue 42: a .gz without a
// gzip header was read as plain text, silently; a bogus .zst said "window
// size exceeded"). Without such a name, the magic number decides.
func TestFormatErrors(t *testing.T) {
	dir := t.TempDir()
	plain := []byte(twoGames)
	zstdMagic := "\x28\xb5\x2f\xfd"
	for _, tc := range []struct {
		name string
		data []byte
		want string // in the error; "" for a file read
	}{
		{"plain.pdn.gz", plain, `not gzip: no gzip header (it starts with "[Event \"")`},
		{"plain.pdn.zst", plain, "not zstd: no zstd header"},
		{"plain.pdn.bz2", plain, "not bzip2: no bzip2 header"},
		{"empty.pdn.gz", nil, "not gzip: the file is empty"},
		{"gzip.pdn.zst", gz(t, plain), "not zstd: no zstd header (the data is gzip: rename the file)"},
		{"zstd.PDN.GZ", zst(t, plain), "not gzip: no gzip header (the data is zstd"},
		{"header.pdn.gz", []byte("\x1f\x8b\x01\x02\x03"), "not gzip: bad gzip header"},
		{"deflate.pdn.gz", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage"), "not gzip: its data after the magic number does not decode"},
		{"window.zst", []byte(zstdMagic + "\x00\xff\x00\x00\x00\x00\x00\x00"), "not zstd: its first frame asks for a window over 128 MiB"},
		{"reserved.pdn.zst", []byte(zstdMagic + "\xff\xff\xff\xff\xff\xff"), "not zstd: its data after the magic number does not decode"},
		{"block.pdn.bz2", []byte("BZh9garbage!"), "not bzip2: its data after the magic number does not decode"},
		{"notzip.zip", plain, "not zip: no zip directory at its end"},
		{"gzip.pdn", gz(t, plain), ""}, // no compression named: the magic number decides
		{"plain.pdn", plain, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			write(t, path, tc.data)
			s, err := importers.NewSource([]string{path}, importers.SourceOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var got error
			games := 0
			for {
				it, err := s.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					got = err
					continue
				}
				if !it.End {
					games++
				}
			}
			var fe *importers.FileError
			switch {
			case tc.want == "" && (got != nil || games != 3):
				t.Errorf("%d games, error %v", games, got)
			case tc.want == "":
			case !errors.As(got, &fe) || fe.File != path || !errors.Is(got, importers.ErrFormat) || !strings.Contains(got.Error(), tc.want):
				t.Errorf("error %v, want %q from %s", got, tc.want, path)
			case games != 0:
				t.Errorf("%d games read from a file that is not %s", games, tc.name)
			}
			// Open says the same.
			if tc.want == "" || strings.HasSuffix(tc.name, ".zip") {
				return
			}
			rc, err := importers.Open(path)
			if err == nil {
				_, err = io.ReadAll(rc)
				rc.Close()
			}
			if !errors.Is(err, importers.ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Open: %v", err)
			}
		})
	}
}

// A member of a zip archive named .gz is gzip too.
func TestFormatErrorInZip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.zip")
	makeZip(t, path, [][2]string{{"x.pdn.gz", twoGames}, {"y.pdn", twoGames}})
	s, err := importers.NewSource([]string{path}, importers.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := strings.Join(items(t, s), " ")
	if want := "a.zip:x.pdn.gz: error a.zip:y.pdn:1:a a.zip:y.pdn:2:! a.zip:y.pdn:3:c a.zip:y.pdn end"; got != want {
		t.Errorf("items %q, want %q", got, want)
	}
}
