package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of cmd/plateau/testdata")

// golden compares got with testdata/json/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", "json", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -run %s -update to accept):\n%s", p, t.Name(), got)
	}
}

// TestJSONExport: export --format json of record files, and dbexport and
// search --format json of the same games imported, against golden files;
// each line is one JSON object.
func TestJSONExport(t *testing.T) {
	in := filepath.Join("testdata", "json", "games.pdn")
	out, errOut, status := plateau(t, "export", "--format", "json", in)
	if status != exitInvalid { // the third game is invalid
		t.Fatalf("export: status %d\n%s", status, errOut)
	}
	golden(t, "export.jsonl", out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines", len(lines))
	}
	for i, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}

	db := t.TempDir()
	if _, errOut, status := plateau(t, "import", "--db", db, "-q", in); status != exitOK {
		t.Fatalf("import: %d %s", status, errOut)
	}
	out, errOut, status = plateau(t, "dbexport", "--db", db, "--format", "json")
	if status != exitOK {
		t.Fatalf("dbexport: %d %s", status, errOut)
	}
	golden(t, "dbexport.jsonl", out)
	search, _, status := plateau(t, "search", "--db", db, "--format", "json", "--player", "Dyke")
	if status != exitOK || strings.Count(search, "\n") != 1 || !bytes.Contains([]byte(out), []byte(search)) {
		t.Errorf("search --format json: status %d\n%s", status, search)
	}
	if _, errOut, status := plateau(t, "dbexport", "--db", db, "--format", "xml"); status != exitUsage || !strings.Contains(errOut, `--format "xml": want pdn, sgf or json`) {
		t.Errorf("bad format: %d %s", status, errOut)
	}
}
