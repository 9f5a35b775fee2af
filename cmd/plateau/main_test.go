package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// samples is the repository's samples folder, from this package's folder.
const samples = "../../samples"

func plateau(t *testing.T, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errw bytes.Buffer
	status = run(append([]string{"plateau"}, args...), &out, &errw)
	return out.String(), errw.String(), status
}

var summaryLine = regexp.MustCompile(`^\d+ games, \d+ valid, \d+ invalid, `)

// errorLines are validate's lines without the summary (which has timings)
// or the "exit status" line of go run, with file names from the broken/
// folder on.
func errorLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" || summaryLine.MatchString(l) || strings.HasPrefix(l, "exit status ") {
			continue
		}
		if i := strings.Index(l, "broken/"); i >= 0 {
			l = l[i:]
		}
		lines = append(lines, l)
	}
	return lines
}

// TestSamplesValidate checks that every sample collection validates.
func TestSamplesValidate(t *testing.T) {
	dirs, err := os.ReadDir(samples)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "broken" {
			continue
		}
		n++
		t.Run(d.Name(), func(t *testing.T) {
			out, errOut, status := plateau(t, "validate", filepath.Join(samples, d.Name()))
			if status != exitOK {
				t.Fatalf("validate %s: status %d\n%s%s", d.Name(), status, out, errOut)
			}
			if !strings.Contains(out, " 0 invalid") {
				t.Fatalf("summary: %s", out)
			}
		})
	}
	if n == 0 {
		t.Fatal("no sample collections")
	}
}

// TestBrokenSamples checks that every broken record gives exactly the error
// written beside it in NAME.err.
func TestBrokenSamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(samples, "broken", "*.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no broken samples")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			want, err := os.ReadFile(strings.TrimSuffix(f, ".pdn") + ".err")
			if err != nil {
				t.Fatalf("every broken sample needs its .err file: %v", err)
			}
			out, errOut, status := plateau(t, "validate", f)
			if status != exitInvalid {
				t.Fatalf("status %d, want %d\n%s%s", status, exitInvalid, out, errOut)
			}
			got, exp := errorLines(out), errorLines(string(want))
			if strings.Join(got, "\n") != strings.Join(exp, "\n") {
				t.Fatalf("validate printed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(exp, "\n"))
			}
		})
	}
}

// TestExportIsIdempotent: export → import → export gives the same text.
func TestExportIsIdempotent(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(samples, "*"))
	for _, d := range dirs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() || filepath.Base(d) == "broken" {
			continue
		}
		t.Run(filepath.Base(d), func(t *testing.T) {
			once, errOut, status := plateau(t, "export", d)
			if status != exitOK {
				t.Fatalf("export: %d %s", status, errOut)
			}
			tmp := filepath.Join(t.TempDir(), "once.pdn")
			if err := os.WriteFile(tmp, []byte(once), 0o644); err != nil {
				t.Fatal(err)
			}
			twice, errOut, status := plateau(t, "export", tmp)
			if status != exitOK {
				t.Fatalf("re-export: %d %s", status, errOut)
			}
			if once != twice {
				t.Fatalf("export is not idempotent:\n--- once\n%s\n--- twice\n%s", once, twice)
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"validate"},
		{"validate", "no/such/file.pdn"},
		{"perft", "--game", "nosuchgame", "--depth", "1"},
		{"show"},
	} {
		if _, _, status := plateau(t, args...); status != exitUsage {
			t.Errorf("%v: status %d, want %d", args, status, exitUsage)
		}
	}
}

func TestGamesListsEveryGame(t *testing.T) {
	out, _, status := plateau(t, "games")
	if status != exitOK {
		t.Fatal(status)
	}
	for _, id := range []string{"ogi", "dames", "dames-brigand", "loup-moutons", "draughts", "jetan", "dejarik", "sauts"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(id) + ` `).MatchString(out) {
			t.Errorf("games does not list %s:\n%s", id, out)
		}
	}
}
