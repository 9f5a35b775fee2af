// Package nice lowers the scheduling priority of the running process, so
// that batch work (an import, a benchmark's import) leaves the processors to
// interactive work on the same machine (a server answering a browser, a
// search in another terminal) whenever both want them, and takes them all
// when nothing else runs.
//
// Decision: Lower only ever raises the niceness (lowers the priority); a
// process already running at a greater niceness (started by `nice -n 19`)
// keeps it. Only Restore undoes it, where the process is allowed to.
package nice

import (
	"fmt"
	"runtime"
)

// Lower sets the niceness of every thread of the process to n (0 to 19)
// unless it is already greater. Threads started later inherit it from the
// thread that starts them. n ≤ 0 does nothing.
func Lower(n int) error {
	if n <= 0 {
		return nil
	}
	if n > 19 {
		return fmt.Errorf("niceness %d: at most 19", n)
	}
	return lower(n)
}

// Restore sets every thread back to niceness n (lower than now): only a
// privileged process may (CAP_SYS_NICE, or RLIMIT_NICE), and an error says
// when it may not. For a benchmark that measures queries after a niced
// import.
func Restore(n int) error {
	if n < 0 || n > 19 {
		return fmt.Errorf("niceness %d: 0 to 19", n)
	}
	return restore(n)
}

// Current is the niceness of the calling thread (0 where not known).
func Current() int { return current() }

// LowerThread locks the calling goroutine to its thread and raises that
// thread's niceness by n (to 19 at most), so that the goroutine yields the
// processors to the process's other goroutines when both want them. The
// goroutine must not unlock the thread: the runtime ends a locked thread
// with its goroutine, so that no other goroutine inherits the niceness.
// Elsewhere than Linux it only locks the thread.
func LowerThread(n int) error {
	runtime.LockOSThread()
	if n <= 0 {
		return nil
	}
	return lowerThread(n)
}
