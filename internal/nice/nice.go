// Package nice lowers the scheduling priority of the running process, so
// that batch work (an import, a benchmark's import) leaves the processors to
// interactive work on the same machine (a server answering a browser, a
// search in another terminal) whenever both want them, and takes them all
// when nothing else runs.
//
// Decision: the niceness is only ever raised (the priority lowered); a
// process already running at a greater niceness (started by `nice -n 19`)
// keeps it. Lowering is never undone: an unprivileged process cannot take
// its priority back.
package nice

import "fmt"

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

// Current is the niceness of the calling thread (0 where not known).
func Current() int { return current() }
