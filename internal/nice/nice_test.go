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
	if !strings.Contains(string(out), "threads at 7:") {
		t.Fatalf("child did not report:\n%s", out)
	}
}

func child(t *testing.T) {
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
	if err := Lower(7); err != nil {
		t.Fatal(err)
	}
	go busy()
	go busy()
	wg.Wait()
	// Lowering again to less does not raise the priority back.
	if err := Lower(3); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		tid, _ := strconv.Atoi(e.Name())
		if n := threadNice(tid); n != 7 {
			t.Errorf("thread %d at niceness %d, want 7", tid, n)
		}
	}
	if Current() != 7 {
		t.Errorf("Current() = %d, want 7", Current())
	}
	t.Logf("threads at 7: %d", len(ents))
}

func TestLowerBounds(t *testing.T) {
	if err := Lower(20); err == nil {
		t.Error("Lower(20) succeeded")
	}
	if err := Lower(0); err != nil {
		t.Errorf("Lower(0): %v", err)
	}
}
