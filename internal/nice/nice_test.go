package nice

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The test lowers the priority of a child process (the test binary run
// again), never its own: the other tests of the package run at theirs.
func TestLowerEveryThread(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread niceness is read from /proc (Linux)")
	}
	inChild(t, "NICE_CHILD", child, "threads at the target:")
}

// inChild runs body in the child process when env is 1; else it runs the
// calling test again in a child process (the test binary, with env set to
// 1), which must pass and log want.
func inChild(t *testing.T, env string, body func(*testing.T), want string) {
	t.Helper()
	if os.Getenv(env) == "1" {
		body(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), env+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "--- SKIP") {
		t.Skipf("child skipped:\n%s", out)
	}
	if !strings.Contains(string(out), want) {
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
	aroundBusyThreads(t, func() error { return Lower(target) })
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

// TestLowerThread: LowerThread raises the niceness of the calling
// goroutine's thread only, and the thread ends with the goroutine, so that
// no other goroutine runs at that niceness after it.
func TestLowerThread(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread niceness is read from /proc (Linux)")
	}
	base := Current()
	if base >= 19 {
		t.Skip("already at niceness 19: nothing to lower")
	}
	type seen struct{ tid, nice, other int }
	got := make(chan seen)
	go func() {
		if err := LowerThread(3); err != nil {
			t.Error(err)
		}
		s := seen{tid: syscall.Gettid(), nice: Current()}
		done := make(chan int)
		go func() { done <- Current() }() // another goroutine: another thread
		s.other = <-done
		got <- s
	}()
	s := <-got
	if want := min(base+3, 19); s.nice != want {
		t.Errorf("locked thread at niceness %d, want %d", s.nice, want)
	}
	if s.other != base {
		t.Errorf("another goroutine ran at niceness %d, want %d", s.other, base)
	}
	// The thread ends with the goroutine, unless it is the process's main
	// thread, which the runtime parks for good instead: either way no
	// goroutine runs on it again.
	task := "/proc/self/task/" + strconv.Itoa(s.tid)
	for i := 0; s.tid != os.Getpid(); i++ {
		if _, err := os.Stat(task); os.IsNotExist(err) {
			break
		}
		if i == 200 {
			t.Fatalf("thread %d still runs after its locked goroutine ended", s.tid)
		}
		time.Sleep(5 * time.Millisecond)
	}
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if n := Current(); n != base {
				t.Errorf("a goroutine ran at niceness %d after the locked one ended, want %d", n, base)
			}
		}()
	}
	wg.Wait()
}

// TestIdleEveryThread: Idle puts every thread of the process at
// SCHED_IDLE, the threads busy before it and those started after it; run
// in a child process (the test binary again), as TestLowerEveryThread.
func TestIdleEveryThread(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread policies are read with sched_getscheduler (Linux)")
	}
	inChild(t, "NICE_IDLE_CHILD", idleChild, "threads at SCHED_IDLE:")
}

func idleChild(t *testing.T) {
	if IsIdle() {
		t.Fatal("the child starts at SCHED_IDLE")
	}
	aroundBusyThreads(t, Setting{Idle: true}.Apply)
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		tid, _ := strconv.Atoi(e.Name())
		if p := threadPolicy(tid); p != schedIdle {
			t.Errorf("thread %d at policy %d, want SCHED_IDLE (%d)", tid, p, schedIdle)
		}
	}
	if !IsIdle() {
		t.Error("IsIdle() = false")
	}
	t.Logf("threads at SCHED_IDLE: %d", len(ents))
	// Back to the normal policy, where allowed (a privileged process).
	if err := Restore(0); err != nil {
		t.Logf("restore not allowed: %v", err)
	} else if IsIdle() || Current() != 0 {
		t.Errorf("after Restore(0): idle %v, niceness %d", IsIdle(), Current())
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Setting
		ok   bool
	}{
		{"idle", Setting{Idle: true}, true},
		{"0", Setting{}, true},
		{"10", Setting{Nice: 10}, true},
		{"19", Setting{Nice: 19}, true},
		{"20", Setting{}, false},
		{"-1", Setting{}, false},
		{"Idle", Setting{}, false},
		{"", Setting{}, false},
	} {
		got, err := Parse(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
	if (Setting{}).Changes() || !(Setting{Nice: 1}).Changes() || !(Setting{Idle: true}).Changes() {
		t.Error("Changes")
	}
}

// aroundBusyThreads calls change between two goroutines busy on threads of
// their own started before it and two started after it, and waits for
// them.
func aroundBusyThreads(t *testing.T, change func() error) {
	var wg sync.WaitGroup
	busy := func() {
		defer wg.Done()
		runtime.LockOSThread() // a thread of its own, ended with it
		x := 0
		for i := range 1_000_000 {
			x += i
		}
		_ = x
	}
	wg.Add(4)
	go busy()
	go busy()
	if err := change(); err != nil {
		t.Fatal(err)
	}
	go busy()
	go busy()
	wg.Wait()
}
