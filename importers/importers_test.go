package importers_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/plateau/plateau/importers"
	"github.com/plateau/plateau/record"
)

const twoGames = "[Event \"a\"]\n1. e4 e5 1-0\n\n[Event \"b\"]\n1. d4 ) *\n[Event \"c\"]\n1. c4 *\n"

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func gz(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zst(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func tree(t *testing.T) string {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "b", "z.pdn"), []byte(twoGames))
	write(t, filepath.Join(dir, "b", "y.PGN.gz"), gz(t, []byte(twoGames)))
	write(t, filepath.Join(dir, "a.pdn.zst"), zst(t, []byte(twoGames)))
	write(t, filepath.Join(dir, "notes.md"), []byte("not a record"))
	write(t, filepath.Join(dir, ".hidden", "h.pdn"), []byte(twoGames))
	write(t, filepath.Join(dir, "c.txt"), []byte(twoGames))
	return dir
}

func TestExpand(t *testing.T) {
	dir := tree(t)
	got, err := importers.Expand([]string{dir, filepath.Join(dir, "notes.md"), "-", filepath.Join(dir, "b", "*.pdn")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(dir, "a.pdn.zst"),
		filepath.Join(dir, "b", "y.PGN.gz"),
		filepath.Join(dir, "b", "z.pdn"),
		filepath.Join(dir, "c.txt"),
		filepath.Join(dir, "notes.md"),
		"-",
		filepath.Join(dir, "b", "z.pdn"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Expand:\n got %q\nwant %q", got, want)
	}
	if _, err := importers.Expand([]string{filepath.Join(dir, "missing.pdn")}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := importers.Expand([]string{filepath.Join(dir, "*.nothing")}); !errors.Is(err, importers.ErrNoMatch) {
		t.Errorf("empty glob: %v", err)
	}
}

func TestOpenDecompresses(t *testing.T) {
	dir := tree(t)
	for _, name := range []string{"a.pdn.zst", "b/y.PGN.gz", "b/z.pdn"} {
		rc, err := importers.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		if err != nil || string(data) != twoGames {
			t.Errorf("%s: %q %v", name, data, err)
		}
		if err := rc.Close(); err != nil {
			t.Errorf("%s: close: %v", name, err)
		}
	}
	if _, err := importers.Open(filepath.Join(dir, "nope")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("open missing: %v", err)
	}
	// A corrupt gzip stream is an error, when opening or reading.
	write(t, filepath.Join(dir, "bad.pdn.gz"), []byte{0x1f, 0x8b, 1, 2, 3})
	if rc, err := importers.Open(filepath.Join(dir, "bad.pdn.gz")); err == nil {
		if _, err := io.ReadAll(rc); err == nil {
			t.Error("corrupt gzip read without error")
		}
	}
}

func TestSource(t *testing.T) {
	dir := tree(t)
	s, err := importers.NewSource([]string{dir}, importers.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	for {
		it, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if it.End {
			got = append(got, filepath.Base(it.File.Name)+" end")
			continue
		}
		tag := ""
		if it.Game != nil {
			tag = it.Game.Tag("Event")
		}
		if it.Err != nil {
			var se *record.Error
			if !errors.As(it.Err, &se) || se.Pos.File != it.File.Name || se.Pos.Line != 5 {
				t.Errorf("%s game %d: error %v", it.File.Name, it.N, it.Err)
			}
			tag += "!"
		}
		got = append(got, filepath.Base(it.File.Name)+":"+tag)
		if it.Game != nil && it.Game.Pos.File != it.File.Name {
			t.Errorf("game file %q, want %q", it.Game.Pos.File, it.File.Name)
		}
	}
	want := []string{"a.pdn.zst:a", "a.pdn.zst:b!", "a.pdn.zst:c", "a.pdn.zst end", "y.PGN.gz:a", "y.PGN.gz:b!", "y.PGN.gz:c", "y.PGN.gz end",
		"z.pdn:a", "z.pdn:b!", "z.pdn:c", "z.pdn end", "c.txt:a", "c.txt:b!", "c.txt:c", "c.txt end"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("games %q\nwant %q", got, want)
	}
}

func TestSourceOpenError(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone.pdn")
	if _, err := importers.NewSource([]string{gone}, importers.SourceOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing path: %v", err)
	}
	// A file gone between the listing and its reading.
	write(t, gone, []byte(twoGames))
	s, err := importers.NewSource([]string{gone}, importers.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(gone)
	var fe *importers.FileError
	if _, err := s.Next(); !errors.Is(err, os.ErrNotExist) || !errors.As(err, &fe) || fe.File != gone {
		t.Fatalf("got %v", err)
	}
	if _, err := s.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after an error: %v", err)
	}
	if st := s.Stats(); st.Unreadable != 1 {
		t.Errorf("stats %+v, want 1 unreadable", st)
	}
}

func TestNewReaderSniffs(t *testing.T) {
	rc, err := importers.NewReader(bytes.NewReader(gz(t, []byte("1. e4 *"))))
	if err != nil {
		t.Fatal(err)
	}
	g, err := record.NewReader(rc, "x").Next()
	if err != nil || g.Moves[0].Text != "e4" {
		t.Fatalf("%v %v", g, err)
	}
}
