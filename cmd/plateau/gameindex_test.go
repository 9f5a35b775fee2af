package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// TestGameIndex: every game read back through the index (by seeking, or by
// streaming when the file cannot be sought in or its offsets are not the
// file's) is the game a reading of the whole file gives, positions
// included.
func TestGameIndex(t *testing.T) {
	dir := t.TempDir()
	plain, err := os.ReadFile(filepath.Join(samples, "jetan", "club.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	// A Windows-1252 line early in the file: decoded offsets run ahead
	// of the file's bytes from there on.
	latin1 := append([]byte("[Event \"Caf\xe9\"]\n[Game \"jetan\"]\n\n*\n\n"), plain...)
	files := map[string][]byte{"plain.pdn": plain, "latin1.pdn": latin1}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			var want []*record.Game
			r := record.NewReader(strings.NewReader(string(data)), path)
			for {
				g, err := r.Next()
				if err != nil {
					break
				}
				want = append(want, g)
			}
			ix, err := newGameIndex(path, readOpts{maxRecord: record.DefaultMaxRecord, errw: os.Stderr})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.close()
			if err := ix.all(); err != nil {
				t.Fatal(err)
			}
			if ix.Len() != len(want) {
				t.Fatalf("%d games indexed, want %d", ix.Len(), len(want))
			}
			seeks := 0
			for i := len(want) - 2; i >= 0; i-- {
				got, rerr, err := ix.game(i)
				if err != nil || rerr != nil {
					t.Fatalf("game %d: %v %v", i+1, err, rerr)
				}
				if !reflect.DeepEqual(got, want[i]) {
					t.Fatalf("game %d read through the index differs:\n%+v\nwant\n%+v", i+1, got.Pos, want[i].Pos)
				}
				if _, _, ok := ix.seek(&ix.games[i]); ok {
					seeks++
				}
			}
			switch {
			case name == "plain.pdn" && seeks != len(want)-1:
				t.Errorf("%d of %d games read by seeking in a plain UTF-8 file", seeks, len(want)-1)
			case name == "latin1.pdn" && seeks != 1:
				// Only the first game starts where the decoded offset says.
				t.Errorf("%d games read by seeking after a Windows-1252 line, want 1", seeks)
			}
		})
	}
}

// TestFileGamesWhileIndexing: the replayer's collection reads games and
// titles while the rest of the file is indexed in the background (run
// with -race), and ends with every game.
func TestFileGamesWhileIndexing(t *testing.T) {
	one, err := os.ReadFile(filepath.Join(samples, "jetan", "club.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "many.pdn")
	if err := os.WriteFile(path, []byte(strings.Repeat(string(one)+"\n", 150)), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := newGameIndex(path, readOpts{maxRecord: record.DefaultMaxRecord, errw: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	fg := &fileGames{ix: ix, opts: replay.Options{DefaultGame: "jetan"}, stop: make(chan struct{}), done: make(chan struct{})}
	if err := ix.extend(1); err != nil {
		t.Fatal(err)
	}
	fg.start()
	reads := 0
	for !fg.Complete() {
		n := fg.Len()
		i := (reads * 7919) % n
		g, err := fg.Game(i)
		if err != nil {
			t.Fatalf("game %d of %d so far: %v", i+1, n, err)
		}
		if want := fmt.Sprintf("%s – %s", g.Record.Tag("Black"), g.Record.Tag("Orange")); !strings.HasPrefix(fg.Title(i), want) {
			t.Fatalf("game %d: title %q, record %q", i+1, fg.Title(i), want)
		}
		reads++
	}
	if fg.Len() != 3000 {
		t.Errorf("%d games indexed, want 3000", fg.Len())
	}
	if g, err := fg.Game(2999); err != nil || g.Record.Tag("Black") != "E-Med" {
		t.Errorf("last game: %v, %v", g, err)
	}
	fg.close()
	t.Logf("%d games read while indexing", reads)
}
