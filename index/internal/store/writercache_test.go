package store

import (
	"bufio"
	"fmt"
	"os"
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

// TestWriterCacheKiB: the writer's page cache is 256 MiB for a small
// database, grows with its games (enough for the 2.1 GB of random-key
// B-trees of 10,000,000 Ōgi games) and stops at a quarter of the memory.
func TestWriterCacheKiB(t *testing.T) {
	limit := int64(1 << 20)
	if m := physMem(); m > 0 {
		limit = m / 4 >> 10
	}
	if got := WriterCacheKiB(0); got != 256<<10 {
		t.Errorf("empty database: %d KiB, want 256 MiB", got)
	}
	if got := WriterCacheKiB(1e12); got != max(limit, 256<<10) {
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
