package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
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
