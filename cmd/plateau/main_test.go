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

func TestPerftCommand(t *testing.T) {
	out, errOut, status := plateau(t, "perft", "--game", "draughts", "--depth", "4")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"depth  1              9", "depth  2             81", "depth  3            658", "depth  4           4265"} {
		if !strings.Contains(out, want) {
			t.Errorf("perft output lacks %q:\n%s", want, out)
		}
	}
	out, _, status = plateau(t, "perft", "--game", "ogi", "--depth", "2", "--divide")
	if status != exitOK || !strings.Contains(out, "depth  2            625") {
		t.Fatalf("ogi perft: %d\n%s", status, out)
	}
}

func TestShowCommand(t *testing.T) {
	out, errOut, status := plateau(t, "show", filepath.Join(samples, "ogi"), "--game", "1", "--ply", "2")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"ply 2, Sente to move", "position: ", "moves: "} {
		if !strings.Contains(out, want) {
			t.Errorf("show output lacks %q:\n%s", want, out)
		}
	}
	// A file of several games is summarised, with Dejarik series totals.
	out, _, status = plateau(t, "show", filepath.Join(samples, "dejarik", "series.pdn"))
	if status != exitOK || !strings.Contains(out, "series totals") || !strings.Contains(out, "has reached 12 points") {
		t.Fatalf("dejarik series summary: %d\n%s", status, out)
	}
	if _, _, status := plateau(t, "show", filepath.Join(samples, "ogi"), "--game", "1", "--ply", "9999"); status != exitUsage {
		t.Errorf("show past the end: status %d", status)
	}
}

func TestReplayCommand(t *testing.T) {
	app := newApp()
	var out bytes.Buffer
	app.Writer, app.ErrWriter = &out, &out
	app.Reader = strings.NewReader("n\nn\nb\ng 3\nq\n")
	if err := app.Run([]string{"plateau", "replay", filepath.Join(samples, "ogi", "osaka-club.pdn")}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ply 0", "ply 1, after 1.", "ply 2, after 1...", "ply 3, after 2."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("replay output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestCorpus: every international draughts game of the PDN standard's
// corpus validates; files a strict reader rejects give errors and the rest
// of the input is still read.
func TestCorpus(t *testing.T) {
	dir := "../../../shared/corpus/pdn"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus directory %s is missing (%v): corpus test skipped", dir, err)
	}
	intl := []string{"DUTCH96H.pdn", "PROF2.pdn", "nk ronde 01.pdn", "nk ronde 02.pdn", "nk2003-amsterdam.pdn", "rk ronde 12.pdn"}
	for _, f := range intl {
		out, errOut, status := plateau(t, "validate", filepath.Join(dir, "succeed", f))
		if status != exitOK {
			t.Errorf("%s: status %d\n%s%s", f, status, out, errOut)
		}
	}
	// Every game of succeed/ reads under its ruleset (8×8 families detected
	// for untagged files), an empty board recorded as a draw (bridges game
	// 14) with a warning, and so is an Italian capture that two paths of
	// equal value fit (Campionato game 46, its last move): read as the
	// first path, with a warning naming both (replay/ambiguous.go).
	out, _, status := plateau(t, "validate", "--warnings", filepath.Join(dir, "succeed"))
	if status != exitOK || !strings.Contains(out, ", 0 invalid,") ||
		!strings.Contains(out, `Campionato Assoluto 2005.pdn:753: game 46: warning: ambiguous: ply 26 "3x26" could be 3x10x17x26 or 3x10x19x26; read as 3x10x17x26`) {
		t.Errorf("succeed/: status %d\n%s", status, out)
	}
	out, _, status = plateau(t, "validate", filepath.Join(dir, "fail"))
	if status != exitInvalid {
		t.Fatalf("fail/: status %d", status)
	}
	// delfts.pdn ends its games with scores ("1-9"), read as results, not
	// as moves: both games are valid (TestValidateFailCorpus checks the
	// warnings of every file).
	if !strings.Contains(out, "nested_comment.pdn:1: game 1: '{' inside a comment") || strings.Contains(out, "delfts.pdn") {
		t.Errorf("fail/ errors not named:\n%s", out)
	}
	if m := regexp.MustCompile(`(\d+) games, (\d+) valid`).FindStringSubmatch(out); m == nil || m[2] == "0" {
		t.Errorf("the valid games of fail/ were lost: %v", m)
	}
}

func TestFlagsFirst(t *testing.T) {
	app := newApp()
	for _, tt := range []struct{ in, want string }{
		{"plateau show f.pdn --game 3 --ply=4", "plateau show --game 3 --ply=4 f.pdn"},
		{"plateau validate a.pdn -q b.pdn", "plateau validate -q a.pdn b.pdn"},
		{"plateau validate - --quiet", "plateau validate --quiet -"},
		{"plateau export a -- -b", "plateau export a -- -b"},
		{"plateau nosuch a --x 1", "plateau nosuch a --x 1"},
	} {
		if got := strings.Join(flagsFirst(app, strings.Fields(tt.in)), " "); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
	}
}
