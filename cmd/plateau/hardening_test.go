package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// goodGame is a valid Ōgi record of two plies.
const goodGame = "[Game \"ogi\"]\n[Result \"*\"]\n\n1. Pe3-e4 Pe6-e5 *\n\n"

// badFiles makes a directory holding two readable files (a.pdn first, z.pdn
// last) around every kind of file that cannot be read: a truncated .gz and
// .zst, a link loop, a *.pdn link to a directory, a FIFO.
func badFiles(t *testing.T) (dir string, unreadable int) {
	t.Helper()
	dir = t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.pdn", []byte(goodGame))
	write("z.pdn", []byte(goodGame))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat(goodGame, 200)))
	zw.Close()
	write("b.pdn.gz", gz.Bytes()[:gz.Len()/2])
	// A zstd frame header and a truncated block.
	write("c.pdn.zst", []byte{0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58, 0x45, 0x00, 0x00})
	os.Symlink("loop.pdn", filepath.Join(dir, "loop.pdn"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink("sub", filepath.Join(dir, "dir.pdn"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.pdn"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, 4
}

func TestUnreadableFilesValidate(t *testing.T) {
	dir, _ := badFiles(t)
	out, errOut, status := plateau(t, "validate", dir)
	if status != exitUsage {
		t.Errorf("status %d, want %d", status, exitUsage)
	}
	// Both readable files were read, and the summary printed.
	if !strings.Contains(out, "2 games, 2 valid, 0 invalid") {
		t.Errorf("summary: %q", out)
	}
	for _, want := range []string{
		"b.pdn.gz: cannot read: unexpected EOF",
		"c.pdn.zst: cannot read: ",
		"dir.pdn: cannot read: ",
		"loop.pdn: cannot read: ",
		"fifo.pdn: not a regular file: skipped (a FIFO)",
		"4 files could not be read",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestUnreadableFilesExportAndImport(t *testing.T) {
	dir, _ := badFiles(t)
	out, errOut, status := plateau(t, "export", dir)
	if status != exitUsage || strings.Count(out, "[Game \"ogi\"]") != 2 || !strings.Contains(errOut, "4 files could not be read") {
		t.Errorf("export: status %d\n%s\n%s", status, out, errOut)
	}
	db := t.TempDir()
	out, errOut, status = plateau(t, "import", "--db", db, "-q", dir)
	if status != exitUsage || !strings.Contains(out, "2 records") || !strings.Contains(errOut, "b.pdn.gz: cannot read") ||
		!strings.Contains(errOut, "fifo.pdn: not a regular file") || !strings.Contains(errOut, "4 files could not be read") {
		t.Errorf("import: status %d\n%s\n%s", status, out, errOut)
	}
	// A file named on its own that is missing is an error before reading.
	_, _, status = plateau(t, "validate", filepath.Join(dir, "missing.pdn"))
	if status != exitUsage {
		t.Errorf("missing file: status %d", status)
	}
}

func TestRecordLimitCLI(t *testing.T) {
	dir := t.TempDir()
	big := "[Game \"ogi\"]\n[Event \"big\"]\n\n1. Pe3-e4 " + strings.Repeat("{a long comment to make the game large} ", 200) + "*\n\n"
	src := goodGame + big + goodGame
	if err := os.WriteFile(filepath.Join(dir, "big.pdn"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, status := plateau(t, "validate", "--max-record", "4KiB", dir)
	if status != exitInvalid || !strings.Contains(out, "3 games, 2 valid, 1 invalid") {
		t.Fatalf("status %d\n%s", status, out)
	}
	if !regexp.MustCompile(`big\.pdn:6: game 2: record larger than 4 KiB`).MatchString(out) {
		t.Errorf("no report of the large record:\n%s", out)
	}
	// Under the default limit the game reads whole.
	out, _, _ = plateau(t, "validate", dir)
	if !strings.Contains(out, "3 games, 3 valid") {
		t.Errorf("default limit: %s", out)
	}
	db := t.TempDir()
	out, errOut, status := plateau(t, "import", "--db", db, "-q", "--max-record", "4KiB", dir)
	if status != exitOK || !strings.Contains(out, "3 records: 2 stored (1 valid, 1 invalid), 1 duplicates") {
		t.Fatalf("import: status %d\n%s%s", status, out, errOut)
	}
	out, _, _ = plateau(t, "errors", "--db", db)
	if !strings.Contains(out, "record larger than 4 KiB") {
		t.Errorf("errors: %s", out)
	}
	if _, errOut, status := plateau(t, "validate", "--max-record", "lots", dir); status != exitUsage || !strings.Contains(errOut, "not a size") {
		t.Errorf("bad --max-record: %d %s", status, errOut)
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"4MiB", 4 << 20}, {"4m", 4 << 20}, {"512KiB", 512 << 10}, {"1000", 1000}, {"2GB", 2 << 30}, {"x", 0}, {"0", 0}, {"-1", 0}, {"5TB", 0},
	} {
		got, err := parseSize(tc.in)
		if got != tc.want || (err == nil) != (tc.want > 0) {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestLongMoveQuoted(t *testing.T) {
	// A 1 MiB move: the message quotes at most a short piece of it, and the
	// line numbers after it stay right.
	dir := t.TempDir()
	src := "[Game \"ogi\"]\n\n1. " + strings.Repeat("x", 3<<20) + " *\n\n" + "[Game \"ogi\"]\n\n1. Pe3-e4 Pe3-e4 *\n"
	if err := os.WriteFile(filepath.Join(dir, "long.pdn"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := plateau(t, "validate", "--max-record", "16MiB", dir)
	for _, l := range strings.Split(out, "\n") {
		if len(l) > 400 {
			t.Errorf("a line of %d bytes: %.200s…", len(l), l)
		}
	}
	if !strings.Contains(out, "long.pdn:7: game 2: ply 2") {
		t.Errorf("second game's error not on line 7:\n%.2000s", out)
	}
}
