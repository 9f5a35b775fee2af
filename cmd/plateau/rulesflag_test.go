package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// untagged writes samples/dames/dames.pdn without its Game tag: a dames game
// (black moves first) that international draughts, the default, refuses.
func untagged(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(samples, "dames", "dames.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "[Game \"dames\"]\n", "", -1)
	if strings.Contains(text, "[Game ") {
		t.Fatal("the sample still names its game")
	}
	p := filepath.Join(t.TempDir(), "untagged.pdn")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRulesFlag(t *testing.T) {
	f := untagged(t)
	tests := []struct {
		name   string
		args   []string
		status int
		out    string // substring of stdout
		errOut string // substring of stderr
	}{
		{name: "validate without the flag: read as draughts", args: []string{"validate", f}, status: exitInvalid, out: "(no Game or GameType tag: read as draughts)"},
		{name: "validate --game dames", args: []string{"validate", "--game", "dames", f}, status: exitOK, out: " 0 invalid"},
		{name: "validate --rules is an alias", args: []string{"validate", f, "--rules", "dames"}, status: exitOK, out: " 0 invalid"},
		{name: "validate --game unknown", args: []string{"validate", "--game", "chess", f}, status: exitUsage, errOut: `--game: unknown game "chess"`},
		{name: "export --game dames", args: []string{"export", "--game", "dames", f}, status: exitOK, out: `[Game "dames"]`},
		{name: "show --rules dames (--game is the number)", args: []string{"show", f, "--game", "1", "--rules", "dames"}, status: exitOK, out: "Jeu de dames"},
		{name: "show without --rules", args: []string{"show", f, "--game", "1"}, status: exitOK, out: "invalid record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, status := plateau(t, tt.args...)
			if status != tt.status {
				t.Fatalf("status %d, want %d\n%s%s", status, tt.status, out, errOut)
			}
			if !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.errOut) {
				t.Fatalf("stdout %q, stderr %q; want %q and %q", out, errOut, tt.out, tt.errOut)
			}
		})
	}
}

func TestImportRulesFlag(t *testing.T) {
	f := untagged(t)
	db := t.TempDir()
	if out, errOut, status := plateau(t, "import", "--db", db, "-q", "--game", "dames", f); status != exitOK {
		t.Fatalf("import: status %d\n%s%s", status, out, errOut)
	}
	out, _, _ := plateau(t, "errors", "--db", db)
	if !strings.Contains(out, "0 invalid games") {
		t.Fatalf("errors: %s", out)
	}
}

func TestErrorsWarnings(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "w.pdn")
	text := "[Game \"draughts\"]\n[Result \"0-1\"]\n\n1. 32-28 19-23 1/2-1/2\n"
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, status := plateau(t, "validate", "--warnings", f)
	if status != exitOK || !strings.Contains(out, `w.pdn:1: game 1: warning: result: Result tag and movetext result differ: [Result "0-1"] but the movetext ends with 1/2-1/2`) {
		t.Fatalf("validate --warnings: status %d\n%s", status, out)
	}
	db := filepath.Join(dir, "db")
	if out, errOut, status := plateau(t, "import", "--db", db, "-q", f); status != exitOK {
		t.Fatalf("import: %d %s%s", status, out, errOut)
	}
	out, _, _ = plateau(t, "errors", "--db", db, "--warnings")
	if !strings.Contains(out, `#1 `+f+`:1: draughts: warning: result: Result tag and movetext result differ: [Result "0-1"] but the movetext ends with 1/2-1/2`) || !strings.Contains(out, "1 warnings") {
		t.Fatalf("errors --warnings:\n%s", out)
	}
	if out, _, _ = plateau(t, "errors", "--db", db); !strings.Contains(out, "0 invalid games") {
		t.Fatalf("errors:\n%s", out)
	}
}

// TestSGFNotReadAsPDN: the games of an SGF file are read by package sgf and
// refused one by one with their game type, in validate and import.
func TestSGFNotReadAsPDN(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "two.sgf")
	text := "(;FF[4]GM[1]SZ[19]PB[Black]PW[White]RE[B+R];B[pd];W[dp])\n(;FF[4]SZ[9];B[ee])\n"
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, status := plateau(t, "validate", f)
	want := []string{
		f + ":1: game 1: SGF game type not played by Plateau: GM[1] (Go)",
		f + ":2: game 2: SGF game type not played by Plateau: GM[1] (Go)",
		"2 games, 0 valid, 2 invalid",
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("validate: want %q in\n%s", w, out)
		}
	}
	if status != exitInvalid {
		t.Errorf("status %d", status)
	}
	db := filepath.Join(dir, "db")
	plateau(t, "import", "--db", db, "-q", f)
	out, _, _ = plateau(t, "errors", "--db", db)
	if strings.Count(out, "SGF game type not played by Plateau: GM[1] (Go)") != 2 || !strings.Contains(out, "2 invalid games") {
		t.Errorf("errors:\n%s", out)
	}
}
