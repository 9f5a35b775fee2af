package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/plateau/plateau/internal/hostile"
)

// TestHostileInputs reads the hostile inputs (internal/hostile) with
// validate and import: each record is one record whatever its size,
// nesting or encoding (issue 42: 40,274 games, 11 of them valid, were read
// from these files, and import stored the phantoms with wrong tags), each
// file that is not in its compression format is an error naming it, and
// the bad bytes of a UTF-8 line are a warning at their file and line.
func TestHostileInputs(t *testing.T) {
	dir := t.TempDir()
	files := hostile.Files()
	if err := hostile.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	n := hostile.Count(files)
	out, errOut, status := plateau(t, "validate", "--warnings", dir)
	summary := fmt.Sprintf("%d games, %d valid, %d invalid,", n.Records, n.Valid, n.Invalid)
	if status != exitUsage || !strings.Contains(out, summary) || !strings.Contains(errOut, fmt.Sprintf("%d files could not be read", n.Unreadable)) {
		t.Fatalf("validate: status %d, want %d and %q\n%s%s", status, exitUsage, summary, out, errOut)
	}
	for _, f := range files {
		if f.Unreadable {
			format := regexp.MustCompile(`\.(gz|zst|bz2|zip)$`).FindStringSubmatch(f.Name)[1]
			format = map[string]string{"gz": "gzip", "zst": "zstd", "bz2": "bzip2", "zip": "zip"}[format]
			if want := filepath.Join(dir, f.Name) + ": cannot read: not " + format + ": "; !strings.Contains(errOut, want) {
				t.Errorf("%s (%s): no %q in\n%s", f.Name, f.Fault, want, errOut)
			}
		}
	}
	warning := filepath.Join(dir, "mojibake.pdn") + ":2: game 1: warning: syntax: invalid UTF-8: 1 byte replaced by U+FFFD"
	if !strings.Contains(out, warning) {
		t.Errorf("no %q in\n%s", warning, out)
	}

	db := t.TempDir()
	out, errOut, status = plateau(t, "import", "--db", db, "-q", dir)
	stored := fmt.Sprintf("%d records: %d stored (%d valid, %d invalid)", n.Records, n.Records, n.Valid, n.Invalid)
	if status != exitUsage || !strings.Contains(out, stored) {
		t.Fatalf("import: status %d, want %q\n%s%s", status, stored, out, errOut)
	}
	out, _, _ = plateau(t, "errors", "--db", db, "--warnings")
	if !strings.Contains(out, filepath.Join(dir, "mojibake.pdn")+":2: ") || !strings.Contains(out, "1 byte replaced by U+FFFD") {
		t.Errorf("errors --warnings:\n%s", out)
	}
	// The 1,100 KiB Site is stored whole, and no phantom game with it.
	out, _, _ = plateau(t, "dbexport", "--db", db)
	var site string
	for _, f := range files {
		if f.Name == "site-1100k.pdn" {
			_, rest, _ := strings.Cut(string(f.Data), "[Site \"")
			site, _, _ = strings.Cut(rest, "\"]\n")
		}
	}
	exported := len(regexp.MustCompile(`(?m)^\[Game "`).FindAllString(out, -1))
	if len(site) < 1100<<10 || !strings.Contains(out, "[Site \""+site+"\"]") || exported != n.Valid {
		t.Errorf("dbexport: %d games, want %d; the long Site (%d bytes) found: %v", exported, n.Valid, len(site), strings.Contains(out, site))
	}
}
