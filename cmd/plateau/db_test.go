package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/dames"
	_ "github.com/plateau/plateau/rules/dejarik"
	_ "github.com/plateau/plateau/rules/jetan"
)

func genFile(t *testing.T, dir, game string, n int) string {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, 7)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(context.Background(), &b, n, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, game+".pdn")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, status := plateau(t, args...)
	if status != exitOK {
		t.Fatalf("plateau %s: status %d\n%s%s", strings.Join(args, " "), status, out, errOut)
	}
	return out
}

// TestDatabaseCommands runs import, info, search, tree, errors, dbexport,
// crosstable and reindex on generated collections and a broken record.
func TestDatabaseCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	d := genFile(t, dir, "draughts", 200)
	dj := genFile(t, dir, "dejarik", 100)
	broken := filepath.Join(dir, "broken.pdn")
	os.WriteFile(broken, []byte("[Game \"draughts\"]\n[White \"Élodie Brûlé\"]\n[Black \"X\"]\n[Result \"*\"]\n\n1. 32-28 19-23 2. 28x19 99-12 *\n"), 0o644)

	out := mustRun(t, "import", "--db", db, d, dj, broken)
	if !strings.Contains(out, "301 records: 301 stored (300 valid, 1 invalid), 0 duplicates") {
		t.Fatalf("import: %s", out)
	}
	out = mustRun(t, "import", "--db", db, d, dj, broken)
	if !strings.Contains(out, "3 already imported") {
		t.Fatalf("re-import: %s", out)
	}
	out = mustRun(t, "import", "--db", db, "--force", d)
	if !strings.Contains(out, "200 duplicates") {
		t.Fatalf("forced re-import: %s", out)
	}
	out = mustRun(t, "info", "--db", db)
	if !regexp.MustCompile(`draughts\s+200 valid\s+1 invalid`).MatchString(out) || !strings.Contains(out, "dejarik") {
		t.Fatalf("info: %s", out)
	}
	out = mustRun(t, "errors", "--db", db)
	if !strings.Contains(out, "broken.pdn:6:") || !strings.Contains(out, "1 invalid games") || !strings.Contains(out, `"99-12"`) {
		t.Fatalf("errors: %s", out)
	}
	// The start position of draughts: every game, at ply 0.
	out = mustRun(t, "search", "--db", db, "--game", "draughts", "--position", "", "--moves", "32-28", "--count")
	if !regexp.MustCompile(`(?m)^\d+ matches$`).MatchString(out) {
		t.Fatalf("search --moves: %s", out)
	}
	out = mustRun(t, "tree", "--db", db, "--game", "draughts")
	if !strings.Contains(out, "200 games") {
		t.Fatalf("tree: %s", out)
	}
	// A player search, accent-insensitive and by prefix, and pdn export.
	out = mustRun(t, "search", "--db", db, "--invalid", "--player", "elodie brul")
	if !strings.Contains(out, "Élodie Brûlé – X") || !strings.Contains(out, "1 shown") {
		t.Fatalf("player search: %s", out)
	}
	out = mustRun(t, "search", "--db", db, "--game", "dejarik", "--limit", "2", "--format", "pdn")
	if strings.Count(out, `[Game "dejarik"]`) != 2 {
		t.Fatalf("search --format pdn: %s", out)
	}
	out = mustRun(t, "dbexport", "--db", db, "--game", "dejarik")
	if strings.Count(out, `[Game "dejarik"]`) != 100 {
		t.Fatalf("dbexport: %d games", strings.Count(out, `[Game "dejarik"]`))
	}
	out = mustRun(t, "crosstable", "--db", db, "--game", "dejarik")
	if !strings.Contains(out, "score") {
		t.Fatalf("crosstable: %s", out)
	}
	out = mustRun(t, "reindex", "--db", db)
	if !strings.Contains(out, "300 games indexed") {
		t.Fatalf("reindex: %s", out)
	}
	out = mustRun(t, "search", "--db", db, "--text", "players:elodie", "--invalid")
	_ = out
	out = mustRun(t, "search", "--db", db, "--game", "draughts", "--pattern", "White:M@46,47,48,49,50 Black:*<=19", "--limit", "3")
	if n := len(regexp.MustCompile(`(?m)^\d+ +draughts `).FindAllString(out, -1)); n != 3 {
		t.Fatalf("pattern: %d rows: %s", n, out)
	}
}

// TestDatabaseSamples imports the sample collections: every broken sample
// is listed by `errors`, every other game is valid, and a tree and a search
// answer on them.
func TestDatabaseSamples(t *testing.T) {
	broken, err := filepath.Glob(filepath.Join(samples, "broken", "*.pdn"))
	if err != nil || len(broken) == 0 {
		t.Fatal("no broken samples")
	}
	db := filepath.Join(t.TempDir(), "db")
	mustRun(t, "import", "--db", db, samples)
	out := mustRun(t, "errors", "--db", db)
	for _, b := range broken {
		if !strings.Contains(out, b+":") {
			t.Errorf("errors does not list %s", b)
		}
	}
	if want := regexp.MustCompile(`(?m)^(\d+) invalid games$`).FindStringSubmatch(out); want == nil || want[1] != strconv.Itoa(len(broken)) {
		t.Fatalf("errors: want %d invalid games:\n%s", len(broken), out)
	}
	out = mustRun(t, "tree", "--db", db, "--game", "ogi")
	if !regexp.MustCompile(`(?m)^\d+ moves, [1-9]\d* games$`).MatchString(out) {
		t.Fatalf("tree: %s", out)
	}
	out = mustRun(t, "search", "--db", db, "--game", "ogi", "--position", "", "--count")
	if !regexp.MustCompile(`(?m)^[1-9]\d* matches$`).MatchString(out) {
		t.Fatalf("search: %s", out)
	}
}
