package importers_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"

	"github.com/plateau/plateau/importers"
)

func TestWalkSkipsWhatCannotBeRead(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.pdn", "z.pdn"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("1. e4 *\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.pdn"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("fifo.pdn", filepath.Join(dir, "tofifo.pdn"))
	os.Symlink("loop.pdn", filepath.Join(dir, "loop.pdn"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink("sub", filepath.Join(dir, "dir.pdn"))
	os.Symlink("a.pdn", filepath.Join(dir, "link.pdn"))
	var skipped []string
	paths, err := importers.ExpandWith([]string{dir}, func(p string, err error) {
		if !errors.Is(err, importers.ErrNotRegular) {
			t.Errorf("%s: %v", p, err)
		}
		skipped = append(skipped, filepath.Base(p))
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range paths {
		got = append(got, filepath.Base(p))
	}
	// Links that cannot be followed, or lead to a directory, stay, to fail
	// as that file's error when read.
	if want := []string{"a.pdn", "dir.pdn", "link.pdn", "loop.pdn", "z.pdn"}; !reflect.DeepEqual(got, want) {
		t.Errorf("paths %q, want %q", got, want)
	}
	if want := []string{"fifo.pdn", "tofifo.pdn"}; !reflect.DeepEqual(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
	// A Source reports each unreadable file and goes on.
	var walked []string
	s, err := importers.NewSource([]string{dir}, importers.SourceOptions{Walk: func(p string, err error) {
		walked = append(walked, filepath.Base(p))
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !reflect.DeepEqual(walked, skipped) {
		t.Errorf("the source's walk skipped %q, want %q", walked, skipped)
	}
	var games, fileErrs []string
	for i := 0; i < 100; i++ {
		it, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var fe *importers.FileError
		if errors.As(err, &fe) {
			fileErrs = append(fileErrs, filepath.Base(fe.File))
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if !it.End {
			games = append(games, filepath.Base(it.File.Name))
		}
	}
	if want := []string{"a.pdn", "link.pdn", "z.pdn"}; !reflect.DeepEqual(games, want) {
		t.Errorf("games from %q, want %q", games, want)
	}
	if want := []string{"dir.pdn", "loop.pdn"}; !reflect.DeepEqual(fileErrs, want) {
		t.Errorf("file errors %q, want %q", fileErrs, want)
	}
	if st := s.Stats(); st.Files != 5 || st.Unreadable != 2 {
		t.Errorf("stats %+v, want 5 files, 2 unreadable", st)
	}
}
