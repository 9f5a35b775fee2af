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
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// TestPreparedWeight: a prepared Ōgi game weighs less than half its record
// (so that the budget lets the workers run ahead of the writer), and no
// less than the bytes it surely holds.
func TestPreparedWeight(t *testing.T) {
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, 7)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(context.Background(), &b, 200, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	enc, err := zenc()
	if err != nil {
		t.Fatal(err)
	}
	p := newPreparer(replay.Options{}, enc)
	rd := record.NewReader(&b, "g.pdn")
	var recW, prepW, held int64
	n := 0
	for {
		rg, err := rd.Next()
		if rg == nil && err != nil {
			break
		}
		recW += recordWeight(rg)
		pr := p.safePrepare(Record{Game: rg, Err: err, File: "g.pdn"})
		if !pr.Valid {
			t.Fatalf("game %d invalid: %v", n+1, pr.Err)
		}
		prepW += preparedWeight(pr)
		held += int64(len(pr.Text) + len(pr.Moves) + 16*len(pr.Pos))
		n++
	}
	if n != 200 {
		t.Fatalf("read %d games", n)
	}
	if prepW >= recW/2 || prepW < held {
		t.Errorf("prepared weight %d (records %d, surely held %d)", prepW, recW, held)
	}
	t.Logf("per game: record %d, prepared %d bytes", recW/int64(n), prepW/int64(n))
}

// TestBudgetReleased: whatever the workers release early, the budget is
// back to zero at the end of an import (no chunk released twice, none
// forgotten).
func TestBudgetReleased(t *testing.T) {
	_, file := importedDB(t, 700, ImportOptions{})
	var used []int64
	testImportBudget = func(b *budget) {
		b.mu.Lock()
		used = append(used, b.used)
		b.mu.Unlock()
	}
	defer func() { testImportBudget = nil }()
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
	testAfterCommit = func() {
		if prof.Len() == 0 {
			pprof.Lookup("goroutine").WriteTo(&prof, 1)
			close(captured)
		}
	}
	defer func() { testAfterCommit = nil }()
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
