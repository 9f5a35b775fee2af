package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/internal/annotated"
	"github.com/plateau/plateau/internal/pdn3check"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// annotatedFile writes the annotated game of every ruleset (comments before
// and after moves, NAGs, nested variations, tags with quotes and
// backslashes, FEN/SetUp) to one PDN file.
func annotatedFile(t *testing.T, dir string) string {
	t.Helper()
	var b bytes.Buffer
	for _, rg := range rules.Games() {
		g, err := annotated.Game(rg.ID())
		if err != nil {
			t.Fatal(err)
		}
		b.Write(record.Format(g))
	}
	p := filepath.Join(dir, "annotated.pdn")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRoundTrip (issue #43): for every ruleset, an annotated game imported,
// exported as PDN, SGF and JSON, imported from that export into a fresh
// database and exported again gives the same export; and the game (tags,
// moves, comments, NAGs, variations, result: its canonical PDN) is the
// same as the first database's. The PDN follows the PDN 3.0 grammar.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src := annotatedFile(t, dir)
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, "-q", src)
	pdn := mustRun(t, "dbexport", "--db", db)
	if n := strings.Count(pdn, "[Game "); n != len(rules.Games()) {
		t.Fatalf("dbexport: %d games, want %d", n, len(rules.Games()))
	}
	if err := pdn3check.Check([]byte(pdn)); err != nil {
		t.Fatalf("dbexport is not PDN 3.0: %v", err)
	}
	for _, format := range []string{"pdn", "sgf", "json"} {
		t.Run(format, func(t *testing.T) {
			first := mustRun(t, "dbexport", "--db", db, "--format", format)
			f := filepath.Join(dir, "first."+format)
			if format == "json" {
				f = filepath.Join(dir, "first.txt") // told by its content
			}
			if err := os.WriteFile(f, []byte(first), 0o644); err != nil {
				t.Fatal(err)
			}
			fresh := filepath.Join(dir, "fresh-"+format)
			mustRun(t, "import", "--db", fresh, "-q", f)
			if again := mustRun(t, "dbexport", "--db", fresh, "--format", format); again != first {
				t.Errorf("exported again differently:\n%s\nfirst\n%s", again, first)
			}
			if got := mustRun(t, "dbexport", "--db", fresh); got != pdn {
				t.Errorf("the games read back differ:\n%s\nwant\n%s", got, pdn)
			}
			// export of the file (no database) writes the same.
			if got := mustRun(t, "export", "--format", format, f); format != "json" && got != first {
				t.Errorf("export of the file:\n%s\nwant\n%s", got, first)
			}
		})
	}
}

// TestAddFormats: add reads PDN, SGF and a JSON export from standard input
// or a file, by their content; a game already stored is named, not added.
func TestAddFormats(t *testing.T) {
	dir := t.TempDir()
	src := annotatedFile(t, dir)
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, "-q", src)
	n := len(rules.Games())
	for _, format := range []string{"pdn", "sgf", "json"} {
		text := mustRun(t, "dbexport", "--db", db, "--format", format)
		f := filepath.Join(dir, "add-"+format)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		fresh := filepath.Join(dir, "add-db-"+format)
		out := mustRun(t, "add", "--db", fresh, f)
		if !strings.Contains(out, "games added (0 invalid), 0 already stored") || strings.Count(out, " added\n") != n {
			t.Errorf("add %s:\n%s", format, out)
		}
		if out := mustRun(t, "add", "--db", db, f); !strings.Contains(out, "0 games added (0 invalid), ") {
			t.Errorf("add %s again:\n%s", format, out)
		}
	}
}

// TestRoundTripGolden: the PDN, SGF and JSON export of the annotated
// draughts game, against golden files (go test -update to accept).
func TestRoundTripGolden(t *testing.T) {
	dir := t.TempDir()
	g, err := annotated.Game("draughts")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "draughts.pdn")
	if err := os.WriteFile(src, record.Format(g), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, "-q", src)
	for _, format := range []string{"pdn", "sgf", "json"} {
		out := mustRun(t, "dbexport", "--db", db, "--format", format)
		golden(t, "../roundtrip/annotated-draughts."+format, out)
	}
}

// TestJSONImportRefusesInvalid: the JSON export of an invalid game (moves
// only up to its error) is not imported as a shorter valid game: it is
// stored invalid, with the reason.
func TestJSONImportRefusesInvalid(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join("testdata", "json", "export.jsonl")
	db := filepath.Join(dir, "db")
	out := mustRun(t, "import", "--db", db, in)
	if !strings.Contains(out, "3 stored (2 valid, 1 invalid)") {
		t.Errorf("import of an invalid game's JSON:\n%s", out)
	}
	if errs := mustRun(t, "errors", "--db", db); !strings.Contains(errs, "holds its moves only up to its error") {
		t.Errorf("errors:\n%s", errs)
	}
	if got := mustRun(t, "dbexport", "--db", db); strings.Count(got, "[Game ") != 2 {
		t.Errorf("the two valid games are not imported:\n%s", got)
	}
}
