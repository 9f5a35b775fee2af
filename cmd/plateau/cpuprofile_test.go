package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// TestImportCPUProfile: plateau import --cpuprofile writes a CPU profile
// of the import; a file that cannot be created is an error before the
// database is touched.
func TestImportCPUProfile(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "import.pprof")
	db := filepath.Join(dir, "db")
	if out, errs, status := plateau(t, "import", "-q", "--db", db, "--cpuprofile", prof, "../../samples"); status != 0 {
		t.Fatalf("import: status %d\n%s%s", status, out, errs)
	}
	f, err := os.Open(prof)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatalf("the profile: %v", err)
	}
	if !slices.ContainsFunc(p.SampleType, func(st *profile.ValueType) bool { return st.Type == "cpu" }) {
		t.Errorf("sample types %v, want a CPU profile", p.SampleType)
	}

	_, errs, status := plateau(t, "import", "-q", "--db", filepath.Join(dir, "db2"), "--cpuprofile", filepath.Join(dir, "no", "such", "dir", "p"), "../../samples")
	if status == 0 || !strings.Contains(errs, "--cpuprofile") {
		t.Errorf("an uncreatable profile: status %d, %q", status, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "db2", "plateau.sqlite")); err == nil {
		t.Errorf("an uncreatable profile: the import ran")
	}
}
