package store

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPhysMem: the machine's memory is MemTotal of /proc/meminfo (Linux).
func TestPhysMem(t *testing.T) {
	if runtime.GOOS != "linux" {
		if physMem() != 0 {
			t.Fatalf("physMem %d, want 0 (unknown) off Linux", physMem())
		}
		return
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var kb int64
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if v, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb)
		}
	}
	if got := physMem(); kb == 0 || got != kb<<10 {
		t.Fatalf("physMem %d bytes, /proc/meminfo MemTotal %d kB", got, kb)
	}
}

// TestWriterCacheKiB: the writer's page cache is a connection's (64 MiB)
// for a small database, grows with its games (enough for the 2.1 GB of random-key
// B-trees of 10,000,000 Ōgi games) and stops at a quarter of the memory.
func TestWriterCacheKiB(t *testing.T) {
	limit := int64(1 << 20)
	if m := physMem(); m > 0 {
		limit = m / 4 >> 10
	}
	if got := WriterCacheKiB(0); got != 64<<10 {
		t.Errorf("empty database: %d KiB, want 64 MiB", got)
	}
	if got := WriterCacheKiB(150_000); got != 64<<10 {
		t.Errorf("150,000 games: %d KiB, want 64 MiB", got)
	}
	if got := WriterCacheKiB(1e12); got != max(limit, 64<<10) {
		t.Errorf("10^12 games: %d KiB, want the limit %d KiB", got, limit)
	}
	if got := WriterCacheKiB(10_000_000); limit >= 4<<20 && got < 2_100_000_000>>10 {
		t.Errorf("10,000,000 games: %d KiB, less than their B-trees (2.1 GB)", got)
	}
	prev := int64(0)
	for games := int64(0); games <= 1e9; games += 1e7 {
		got := WriterCacheKiB(games)
		if got < prev {
			t.Fatalf("%d games: %d KiB, less than %d for fewer", games, got, prev)
		}
		prev = got
	}
}

// TestWriterHeapLimit: the writer bounds SQLite's heap to HeapLimit when
// the process bounds it not, grows the bound with the database and sets
// it back to none when released; a bound the process set stays.
func TestWriterHeapLimit(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	limit := func() int64 {
		var n int64
		if err := db.QueryRowContext(ctx, `PRAGMA soft_heap_limit`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, c := range []struct {
		name        string
		set         int64 // the process's bound before
		games, more int64
		want, grown int64
	}{
		{"no bound before", 0, 0, 10_000_000, HeapLimit(0), HeapLimit(10_000_000)},
		{"the process's bound", 100 << 20, 0, 10_000_000, 100 << 20, 100 << 20},
	} {
		if _, err := db.ExecContext(ctx, fmt.Sprintf(`PRAGMA soft_heap_limit = %d`, c.set)); err != nil {
			t.Fatal(err)
		}
		w, release, err := WriterConn(ctx, db, c.games)
		if err != nil {
			t.Fatal(err)
		}
		if got := limit(); got != c.want {
			t.Errorf("%s: heap limit %d, want %d", c.name, got, c.want)
		}
		if err := w.Grow(ctx, c.more); err != nil {
			t.Fatal(err)
		}
		if got := limit(); got != c.grown {
			t.Errorf("%s: heap limit %d after growing, want %d", c.name, got, c.grown)
		}
		release()
		if got := limit(); got != c.set {
			t.Errorf("%s: heap limit %d after release, want %d", c.name, got, c.set)
		}
	}
	if HeapLimit(0) != 96<<20 {
		t.Errorf("HeapLimit(0) = %d", HeapLimit(0))
	}
}
