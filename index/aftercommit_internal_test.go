package index

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/plateau/plateau/internal/longtest"
)

// TestInterruptAfterCommit: an import cancelled between a commit and its
// merge of position runs counts that commit's games as committed (it
// reported them undone while the database held them: the interrupt
// message then told the user a wrong number).
func TestInterruptAfterCommit(t *testing.T) {
	longtest.Skip(t)
	db, _ := importedDB(t, 1, ImportOptions{})
	_, file := importedDB(t, 600, ImportOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	commits := 0
	writeTuning.AfterCommit = func() {
		if commits++; commits == 2 {
			cancel()
		}
	}
	defer func() { writeTuning.AfterCommit = nil }()
	st, err := importFiles(ctx, db, []string{file}, ImportOptions{TxGames: 100, Workers: 1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("import: %v, want it cancelled", err)
	}
	var inDB int
	if err := db.sql.QueryRow(`SELECT COUNT(*) FROM games`).Scan(&inDB); err != nil {
		t.Fatal(err)
	}
	if inDB-1 != st.Committed || st.Committed < 100 {
		t.Errorf("the import says %d games committed, the database holds %d more", st.Committed, inDB-1)
	}
}

// TestTransactionTime: an import of the default transaction size commits
// every MaxTxTime, so that an import stopped keeps what it read but its
// last seconds (600 games, under the 5,000 of a transaction, were one
// commit at the end: an interrupt kept none); cancelled after its second
// commit, it says as committed exactly what the database holds.
func TestTransactionTime(t *testing.T) {
	db, _ := importedDB(t, 1, ImportOptions{})
	_, file := importedDB(t, 600, ImportOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	commits := 0
	writeTuning.MaxTxTime = time.Millisecond
	writeTuning.AfterCommit = func() {
		if commits++; commits == 2 {
			cancel()
		}
	}
	defer func() { writeTuning.AfterCommit, writeTuning.MaxTxTime = nil, 0 }()
	st, err := importFiles(ctx, db, []string{file}, ImportOptions{Workers: 1})
	if !errors.Is(err, context.Canceled) || commits < 2 {
		t.Fatalf("import: %v after %d commits, want it cancelled after the second", err, commits)
	}
	var inDB int
	if err := db.sql.QueryRow(`SELECT COUNT(*) FROM games`).Scan(&inDB); err != nil {
		t.Fatal(err)
	}
	if inDB-1 != st.Committed || st.Committed == 0 || st.Committed >= 600 {
		t.Errorf("the import says %d games committed, the database holds %d more", st.Committed, inDB-1)
	}
}
