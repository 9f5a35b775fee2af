package index

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestOpenOptions: the connection options of Open bound the pool and
// SQLite's heap, and CloseIdle closes the idle connections.
func TestOpenOptions(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir(), Options{MaxConns: 3, ConnIdleTime: time.Minute, SoftHeapLimit: 5 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t.Cleanup(func() { db.sql.Exec("PRAGMA soft_heap_limit = 0") }) // the process's
	var limit int64
	if err := db.sql.QueryRowContext(ctx, "PRAGMA soft_heap_limit").Scan(&limit); err != nil || limit != 5<<20 {
		t.Fatalf("soft_heap_limit %d (%v), want %d", limit, err, 5<<20)
	}
	if got := db.sql.Stats().MaxOpenConnections; got != 3 {
		t.Fatalf("MaxOpenConnections %d, want 3", got)
	}
	// Three connections busy at once, then idle.
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			tx, err := db.sql.BeginTx(ctx, nil)
			if err != nil {
				t.Error(err)
				return
			}
			time.Sleep(50 * time.Millisecond)
			tx.Rollback()
		}()
	}
	close(start)
	wg.Wait()
	if idle := db.sql.Stats().Idle; idle != 3 {
		t.Fatalf("%d idle connections after three at once, want 3 (MaxConns kept)", idle)
	}
	db.CloseIdle()
	if idle := db.sql.Stats().Idle; idle != 0 {
		t.Fatalf("%d idle connections after CloseIdle", idle)
	}
	if err := db.sql.PingContext(ctx); err != nil {
		t.Fatal(err)
	}
	if idle := db.sql.Stats().Idle; idle != 1 {
		t.Fatalf("%d idle connections after a query that followed CloseIdle, want 1", idle)
	}
}
