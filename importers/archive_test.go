package importers_test

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/plateau/plateau/importers"
	"github.com/plateau/plateau/record"
)

// twoGamesBz2 is twoGames compressed by bzip2 1.0.8 (`bzip2 -9`): the
// standard library reads bzip2 but does not write it.
const twoGamesBz2 = "425a68393141592653592b666401000015df800010503366000200000a3e0105002000486d5464c86d469e86a1468c81a34c8d2be1496da2cb96b12777645d2beec62b9592661144a0e0820f8bb9229c284815b3320080"

func bz2(t *testing.T) []byte {
	b, err := hex.DecodeString(twoGamesBz2)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// makeZip writes an archive of the members, in order; a name ending in /
// is a directory.
func makeZip(t *testing.T, path string, members [][2]string) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, m := range members {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m[0], Method: zip.Deflate, Modified: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	write(t, path, b.Bytes())
}

// items reads a source to its end: "file:N:Event" per game, "file end" per
// file read completely, "file: error" per file that fails.
func items(t *testing.T, s *importers.Source) []string {
	t.Helper()
	var got []string
	for {
		it, err := s.Next()
		if errors.Is(err, io.EOF) {
			return got
		}
		var fe *importers.FileError
		switch {
		case errors.As(err, &fe):
			got = append(got, filepath.Base(fe.File)+": error")
		case err != nil:
			t.Fatal(err)
		case it.End:
			got = append(got, filepath.Base(it.File.Name)+" end")
		case it.Err != nil:
			got = append(got, fmt.Sprintf("%s:%d:!", filepath.Base(it.File.Name), it.N))
		default:
			got = append(got, fmt.Sprintf("%s:%d:%s", filepath.Base(it.File.Name), it.N, it.Game.Tag("Event")))
		}
	}
}

// TestBzip2: a .bz2 file is decompressed, opened by name or found in a
// walk, and the stream is recognised by its magic number whatever its name.
func TestBzip2(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "d", "g.pdn.bz2"), bz2(t))
	write(t, filepath.Join(dir, "noext"), bz2(t))
	if !importers.IsRecordFile("G.PDN.BZ2") || !importers.IsSGF("g.sgf.bz2") {
		t.Error("a .bz2 record file is not recognised")
	}
	s, err := importers.NewSource([]string{filepath.Join(dir, "d"), filepath.Join(dir, "noext")}, importers.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := items(t, s)
	want := []string{"g.pdn.bz2:1:a", "g.pdn.bz2:2:!", "g.pdn.bz2:3:c", "g.pdn.bz2 end", "noext:1:a", "noext:2:!", "noext:3:c", "noext end"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("items %q\nwant %q", got, want)
	}
	rc, err := importers.NewReader(bytes.NewReader(bz2(t)))
	if err != nil {
		t.Fatal(err)
	}
	if data, err := io.ReadAll(rc); err != nil || string(data) != twoGames {
		t.Errorf("NewReader of bzip2: %q %v", data, err)
	}
	// A corrupt stream is that file's error.
	write(t, filepath.Join(dir, "bad.pdn.bz2"), []byte("BZh9 not bzip2 at all"))
	s, err = importers.NewSource([]string{filepath.Join(dir, "bad.pdn.bz2")}, importers.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := items(t, s); !reflect.DeepEqual(got, []string{"bad.pdn.bz2: error"}) {
		t.Errorf("corrupt bzip2: %q", got)
	}
}

// TestZip: each member of an archive with a record extension is a file of
// its own, in the archive's order, named archive:member; directories,
// hidden members, other files and nested archives are left out; errors
// name archive:member:line.
func TestZip(t *testing.T) {
	dir := t.TempDir()
	arch := filepath.Join(dir, "walk", "coll.zip")
	makeZip(t, arch, [][2]string{
		{"2001/", ""},
		{"2001/one.pdn", twoGames},
		{"readme.md", "not a record"},
		{"__MACOSX/2001/._one.pdn", twoGames},
		{".hidden.pdn", twoGames},
		{"inner.zip", "PK"},
		{"two.PGN.gz", string(gz(t, []byte(twoGames)))},
		{"empty.pdn", ""},
	})
	if !importers.IsRecordFile("COLL.ZIP") {
		t.Error("a .zip is not a record file for a walk")
	}
	s, err := importers.NewSource([]string{filepath.Join(dir, "walk")}, importers.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got, errs []string
	var files []*importers.File
	for {
		it, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if it.End {
			got = append(got, it.File.Name+" end")
			files = append(files, it.File)
			continue
		}
		got = append(got, fmt.Sprintf("%s:%d", it.File.Name, it.N))
		if it.Err != nil {
			errs = append(errs, it.Err.Error())
		}
	}
	want := []string{arch + ":2001/one.pdn:1", arch + ":2001/one.pdn:2", arch + ":2001/one.pdn:3", arch + ":2001/one.pdn end",
		arch + ":two.PGN.gz:1", arch + ":two.PGN.gz:2", arch + ":two.PGN.gz:3", arch + ":two.PGN.gz end", arch + ":empty.pdn end"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("items\n %q\nwant %q", got, want)
	}
	// The syntax error of the second game, at line 5 of each member.
	for i, e := range errs {
		prefix := []string{arch + ":2001/one.pdn:5:", arch + ":two.PGN.gz:5:"}[i]
		if !strings.HasPrefix(e, prefix) {
			t.Errorf("error %q does not start with %q", e, prefix)
		}
	}
	if len(errs) != 2 {
		t.Errorf("%d errors: %q", len(errs), errs)
	}
	var sum int64
	for _, f := range files {
		if f.Path != arch || f.Member == "" || f.ModTime == 0 {
			t.Errorf("member %+v", *f)
		}
		sum += f.Size
	}
	if st := s.Stats(); st.Files != 3 || st.Bytes != sum {
		t.Errorf("stats %+v, want 3 files of %d bytes", st, sum)
	}
}

// TestZipStream: an archive is read from its file; as a stream it is an
// error that says so, and an archive that cannot be listed is that file's
// error.
func TestZipStream(t *testing.T) {
	dir := t.TempDir()
	makeZip(t, filepath.Join(dir, "a.zip"), [][2]string{{"one.pdn", twoGames}})
	data, err := os.ReadFile(filepath.Join(dir, "a.zip"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importers.NewReader(bytes.NewReader(data)); !errors.Is(err, importers.ErrZipStream) {
		t.Errorf("a zip stream: %v", err)
	}
	write(t, filepath.Join(dir, "archive.pdn"), data)
	write(t, filepath.Join(dir, "broken.zip"), []byte("PK\x03\x04 and then nothing"))
	s, err := importers.NewSource([]string{filepath.Join(dir, "archive.pdn"), filepath.Join(dir, "broken.zip")}, importers.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	for {
		_, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		errs = append(errs, err)
	}
	if len(errs) != 2 || !errors.Is(errs[0], importers.ErrZipStream) || !errors.Is(errs[1], zip.ErrFormat) {
		t.Errorf("errors %v, want ErrZipStream and zip.ErrFormat", errs)
	}
}

// TestSkip: Skip is asked once per file before reading, never for standard
// input; the files it leaves out are counted and not read.
func TestSkip(t *testing.T) {
	dir := tree(t)
	var asked []string
	s, err := importers.NewSource([]string{dir, "-"}, importers.SourceOptions{Skip: func(f *importers.File) bool {
		asked = append(asked, filepath.Base(f.Name))
		return strings.HasSuffix(f.Name, ".gz") || strings.HasSuffix(f.Name, ".txt")
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if want := []string{"a.pdn.zst", "y.PGN.gz", "z.pdn", "c.txt"}; !reflect.DeepEqual(asked, want) {
		t.Errorf("asked %q, want %q", asked, want)
	}
	st := s.Stats()
	if st.Files != 3 || st.Skipped != 2 {
		t.Errorf("stats %+v, want 3 files (stdin included), 2 skipped", st)
	}
	for i, want := range []string{"a.pdn.zst", "a.pdn.zst", "a.pdn.zst", "a.pdn.zst", "z.pdn"} {
		it, err := s.Next()
		if err != nil || filepath.Base(it.File.Name) != want {
			t.Fatalf("item %d: %v %v, want of %s", i, it.File, err, want)
		}
	}
}

// TestMaxRecord: the size limit is the source's option, for every file.
func TestMaxRecord(t *testing.T) {
	dir := t.TempDir()
	long := "[Event \"long\"]\n1. e4 {" + strings.Repeat("x", 300) + "} *\n\n[Event \"short\"]\n1. d4 *\n"
	write(t, filepath.Join(dir, "a.pdn"), []byte(long))
	write(t, filepath.Join(dir, "b.pdn.gz"), gz(t, []byte(long)))
	s, err := importers.NewSource([]string{dir}, importers.SourceOptions{MaxRecord: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, want := items(t, s), []string{"a.pdn:1:!", "a.pdn:2:short", "a.pdn end", "b.pdn.gz:1:!", "b.pdn.gz:2:short", "b.pdn.gz end"}; !reflect.DeepEqual(got, want) {
		t.Errorf("items %q\nwant %q", got, want)
	}
}

// TestProgressCountsStoredBytes: the items' Read counts the bytes of the
// file as stored — compressed for .zst, .gz, .bz2 and a zip member — so that
// it grows with the records read and ends at the file's size, never beyond.
func TestProgressCountsStoredBytes(t *testing.T) {
	var text bytes.Buffer
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		// Records that compress about 2:1 (a random comment each).
		var note strings.Builder
		for range 100 {
			fmt.Fprintf(&note, "%04x", rnd.IntN(1<<16))
		}
		text.WriteString(`[Game "draughts"]
[Event "Progress test"]
[White "A"]
[Black "B"]
[Round "` + strings.Repeat("9", i%7+1) + `"]
[Result "*"]

{` + note.String() + `} 1. 32-28 19-23 2. 28x19 14x23 *

`)
	}
	var zst bytes.Buffer
	zw, _ := zstd.NewWriter(&zst)
	zw.Write(text.Bytes())
	zw.Close()
	var gzb bytes.Buffer
	gw := gzip.NewWriter(&gzb)
	gw.Write(text.Bytes())
	gw.Close()
	dir := t.TempDir()
	makeZip(t, filepath.Join(dir, "g.zip"), [][2]string{{"g.pdn", text.String()}})
	for name, data := range map[string][]byte{"g.pdn.zst": zst.Bytes(), "g.pdn.gz": gzb.Bytes(), "g.pdn": text.Bytes(), "g.zip": nil} {
		path := filepath.Join(dir, name)
		if data != nil {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s, err := importers.NewSource([]string{path}, importers.SourceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		size := s.Stats().Bytes
		var last int64
		recs, half := 0, int64(-1)
		for {
			it, err := s.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if it.Read < last || it.Read > size {
				t.Fatalf("%s: item %d at %d bytes, after %d; the file has %d", name, it.N, it.Read, last, size)
			}
			last = it.Read
			if it.End {
				continue
			}
			recs++
			if half < 0 && recs >= 2500 {
				half = it.Read
			}
		}
		s.Close()
		if recs != 5000 || last != size {
			t.Fatalf("%s: %d records, progress ends at %d of %d bytes", name, recs, last, size)
		}
		// Half the records read: well short of the whole file (the
		// decoded offset would be 3 to 50 times past it when compressed).
		if half <= 0 || half > size*3/4 {
			t.Errorf("%s: half the records read at %d of %d bytes", name, half, size)
		}
		t.Logf("%s: %d bytes (%d decoded), half the records at %d", name, size, text.Len(), half)
	}
}

// TestRecordErrorNamesMember: a reading error of a member, through
// record.Error, carries archive:member as its file.
func TestRecordErrorNamesMember(t *testing.T) {
	dir := t.TempDir()
	arch := filepath.Join(dir, "c.zip")
	makeZip(t, arch, [][2]string{{"x/y.pdn", "\n\n[Event \"e\"]\n1. d4 ) *\n"}})
	s, err := importers.NewSource([]string{arch}, importers.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	it, err := s.Next()
	var se *record.Error
	if err != nil || !errors.As(it.Err, &se) {
		t.Fatalf("%+v %v", it, err)
	}
	if se.Pos.File != arch+":x/y.pdn" || se.Pos.Line != 4 || !strings.HasPrefix(se.Error(), arch+":x/y.pdn:4:") {
		t.Errorf("error %q at %+v, want %s:x/y.pdn:4", se, se.Pos, arch)
	}
}
