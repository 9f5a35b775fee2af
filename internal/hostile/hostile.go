// Package hostile makes record files that attack Plateau's readers, each
// with what a careful reader makes of it: the inputs that once read wrong
// (issue 42: records split into phantom games by their size, an SGF tree
// nested deep read as many games, mojibake, compressed files that are not)
// and their neighbours. The end-to-end tests of the command and the kill
// test import them, so that every tool that reads files keeps covering them.
//
// Decisions: every record is an Ōgi record (or an SGF tree) with an Event of
// its own, so that no two are duplicates and the counts of an import are
// the counts of a validation; a file's expectations are in the counts of
// `plateau validate` (records read, invalid among them, valid games with a
// warning), or Unreadable for a file that is an error of its own.
package hostile

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// File is one hostile input and what a reader must make of it.
type File struct {
	Name  string // base name: its extension says its format
	Data  []byte
	Fault string // what it attacks
	// Records are the records read from it (valid or not), Invalid those
	// of them that are invalid (a reading error, a size limit, a move
	// that does not read), Warned the valid ones with an invalid-UTF-8
	// warning. Unreadable: the file is an error of its own; nothing is
	// read from it.
	Records, Invalid, Warned int
	Unreadable               bool
}

// game is a valid Ōgi record whose Event is event, with tags before the
// movetext.
func game(event, tags string) string {
	return "[Game \"ogi\"]\n[Event \"" + event + "\"]\n" + tags + "[Result \"*\"]\n\n1. Pe3-e4 Pe6-e5 *\n\n"
}

// tricky is text of about n bytes that reads as tag pairs, games and
// comments if a reader cuts it, quotes escaped as a tag value writes them.
func tricky(n int) string {
	unit := `a [B \"x\"] 1. Pe3-e4 * ; { 1-0 `
	return strings.Repeat(unit, n/len(unit)+1)
}

// Files returns the hostile inputs (about 10 MB in all).
func Files() []File {
	var fs []File
	add := func(f File) { fs = append(fs, f) }
	add(File{Name: "site-1100k.pdn", Fault: "a tag value of 1,100 KiB, over a line piece (1 MiB): one record, read whole",
		Data: []byte(game("site 1100k", "[Site \""+tricky(1100<<10)+"\"]\n") + game("after site 1100k", "")), Records: 2})
	add(File{Name: "tags-over-limit.pdn", Fault: "a tag section over the 4 MiB limit, long lines, a result in a tag pair: one record, skipped whole",
		Data: []byte("[Game \"ogi\"]\n[Event \"tags over limit\"]\n" + strings.Repeat("[Site \""+tricky(1100<<10)+"\"] ", 4) +
			"\n[Result 1-0]\n[Round \"2\"]\n\n1. Pe3-e4 Pe6-e5 1-0\n\n" + game("after tags over limit", "")), Records: 2, Invalid: 1})
	add(File{Name: "comment-2m.pdn", Fault: "a ';' comment of 2 MiB holding tag pairs and games: one record",
		Data: []byte("[Game \"ogi\"]\n[Event \"comment 2m\"]\n[Result \"*\"]\n\n1. Pe3-e4 ;" +
			strings.Repeat(" [Event \"x\"] 1. Pe3-e4 *", 2<<20/25) + "\nPe6-e5 *\n\n" + game("after comment 2m", "")), Records: 2})
	add(File{Name: "word-1m.pdn", Fault: "a word of 1 MiB ending in a result: one move, not a game's end",
		Data: []byte(strings.Repeat("x", 1<<20) + "1-0 Pe6-e5 *\n\n" + game("after word 1m", "")), Records: 2, Invalid: 1})
	add(File{Name: "stray-bracket.pdn", Fault: "a stray ']' in a tag section: one invalid record, not its later tags as a game",
		Data: []byte("[Game \"ogi\"]\n[Event \"stray bracket\"]]\n[Site \"s\"]\n[Result \"*\"]\n\n1. Pe3-e4 *\n\n" + game("after stray bracket", "")), Records: 2, Invalid: 1})
	add(File{Name: "deep-20000.sgf", Fault: "an SGF tree nested 20,000 deep: one record (an SGF game type, invalid)",
		Data: []byte("(;GM[1]EV[deep]" + strings.Repeat("(;B[aa]", 20000) + strings.Repeat(")", 20001) + "\n(;GM[1]EV[after deep];B[cc])\n"), Records: 2, Invalid: 2})
	add(File{Name: "deep-200000.sgf", Fault: "an SGF tree nested 200,000 deep: one record over the token limit",
		Data: []byte("(;GM[1]EV[deeper]" + strings.Repeat("(;B[aa]", 200000) + strings.Repeat(")", 200001) + "\n"), Records: 1, Invalid: 1})
	add(File{Name: "mojibake.pdn", Fault: "one bad byte in a UTF-8 tag: U+FFFD, the rest kept, a warning",
		Data: []byte(game("\xc5\x8csaka \xff open", "") + game("Latin-1 M\xfcnchen", "")), Records: 2, Warned: 1})
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(game("gzip named zst", "")))
	zw.Close()
	for _, f := range []File{
		{Name: "plain.pdn.gz", Fault: "a .gz without a gzip header", Data: []byte(game("plain gz", ""))},
		{Name: "plain.pdn.bz2", Fault: "a .bz2 without a bzip2 header", Data: []byte(game("plain bz2", ""))},
		{Name: "gzip.pdn.zst", Fault: "gzip data named .zst", Data: gz.Bytes()},
		{Name: "bogus.pdn.zst", Fault: "a zstd magic number before a frame asking for a huge window", Data: []byte("\x28\xb5\x2f\xfd\x00\xff\x00\x00\x00\x00\x00\x00")},
		{Name: "plain.zip", Fault: "a .zip that is no archive", Data: []byte(game("plain zip", ""))},
	} {
		f.Unreadable = true
		add(f)
	}
	return fs
}

// Write writes files into dir.
func Write(dir string, files []File) error {
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return fmt.Errorf("hostile: %w", err)
		}
	}
	return nil
}

// Totals are the counts of files, as `plateau validate` reports them.
type Totals struct {
	Records, Valid, Invalid, Warned, Unreadable int
}

// Count sums the expectations of files.
func Count(files []File) Totals {
	var t Totals
	for _, f := range files {
		if f.Unreadable {
			t.Unreadable++
			continue
		}
		t.Records += f.Records
		t.Invalid += f.Invalid
		t.Warned += f.Warned
	}
	t.Valid = t.Records - t.Invalid
	return t
}
