package index

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// TestBudgetReleased: whatever the workers release early, the budget is
// back to zero at the end of an import (no chunk released twice, none
// forgotten).
func TestBudgetReleased(t *testing.T) {
	_, file := importedDB(t, 700, ImportOptions{})
	var used []int64
	writeTuning.BudgetAtEnd = func(inUse int64) { used = append(used, inUse) }
	defer func() { writeTuning.BudgetAtEnd = nil }()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := importFiles(context.Background(), db, []string{file}, ImportOptions{TxGames: 100}); err != nil {
		t.Fatal(err)
	}
	if len(used) != 1 || used[0] != 0 {
		t.Errorf("budget at the end of the import: %v, want [0]", used)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
}

// TestImportStageLabels: the import's goroutines carry their stage's label,
// so that a CPU profile tells the time of each stage (go tool pprof -tags).
// The records come from a function that waits, after 250 of them, until
// the first commit has taken a goroutine profile: every stage is alive
// then.
func TestImportStageLabels(t *testing.T) {
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, 9)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(context.Background(), &b, 300, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	rd := record.NewReader(&b, "g.pdn")
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var prof bytes.Buffer
	captured := make(chan struct{})
	writeTuning.AfterCommit = func() {
		if prof.Len() == 0 {
			pprof.Lookup("goroutine").WriteTo(&prof, 1)
			close(captured)
		}
	}
	defer func() { writeTuning.AfterCommit = nil }()
	n := 0
	next := func() (Record, error) {
		if n++; n == 250 {
			select {
			case <-captured:
			case <-time.After(20 * time.Second):
				t.Error("no commit while the records were read")
			}
		}
		rg, err := rd.Next()
		if rg == nil {
			return Record{}, io.EOF
		}
		return Record{Game: rg, Err: err, File: "g.pdn"}, nil
	}
	if _, err := db.ImportRecords(context.Background(), next, ImportOptions{TxGames: 100, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{`"stage":"read"`, `"stage":"replay"`, `"stage":"write"`, `"stage":"text"`} {
		if !strings.Contains(prof.String(), "# labels: {") || !strings.Contains(prof.String(), l) {
			t.Errorf("no goroutine labelled %s during the import", l)
		}
	}
}
