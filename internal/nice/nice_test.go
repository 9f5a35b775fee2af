package nice

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The test lowers the priority of a child process (the test binary run
// again), never its own: the other tests of the package run at theirs.
func TestLowerEveryThread(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread niceness is read from /proc (Linux)")
	}
	if os.Getenv("NICE_CHILD") == "1" {
		child(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestLowerEveryThread$", "-test.v")
	cmd.Env = append(os.Environ(), "NICE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "--- SKIP") {
		t.Skipf("child skipped:\n%s", out)
	}
	if !strings.Contains(string(out), "threads at the target:") {
		t.Fatalf("child did not report:\n%s", out)
	}
}

func child(t *testing.T) {
	// The test may run at a niceness already (nice go test): the target is
	// above it.
	target := 7
	start := Current()
	if start >= target {
		if start >= 19 {
			t.Skip("already at niceness 19: nothing to lower")
		}
		target = start + 1
	}
	// Threads busy before, and threads started after.
	var wg sync.WaitGroup
	busy := func() {
		defer wg.Done()
		runtime.LockOSThread()
		x := 0
		for i := range 1_000_000 {
			x += i
		}
		_ = x
	}
	wg.Add(4)
	go busy()
	go busy()
	if err := Lower(target); err != nil {
		t.Fatal(err)
	}
	go busy()
	go busy()
	wg.Wait()
	// Lowering again to less does not raise the priority back.
	if err := Lower(target - 1); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		tid, _ := strconv.Atoi(e.Name())
		if n := threadNice(tid); n != target {
			t.Errorf("thread %d at niceness %d, want %d", tid, n, target)
		}
	}
	if Current() != target {
		t.Errorf("Current() = %d, want %d", Current(), target)
	}
	t.Logf("threads at the target: %d", len(ents))
	// Back to where it started, where allowed (a privileged process).
	if err := Restore(start); err != nil {
		t.Logf("restore not allowed: %v", err)
	} else if Current() != start {
		t.Errorf("after Restore(%d): niceness %d", start, Current())
	}
}

func TestLowerBounds(t *testing.T) {
	if err := Lower(20); err == nil {
		t.Error("Lower(20) succeeded")
	}
	if err := Lower(0); err != nil {
		t.Errorf("Lower(0): %v", err)
	}
}
