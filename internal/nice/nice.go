// Package nice lowers the scheduling priority of the running process, so
// that batch work (an import, a benchmark's import) leaves the processors to
// interactive work on the same machine (a server answering a browser, a
// search in another terminal) whenever both want them, and takes them all
// when nothing else runs.
//
// Decision: Lower only ever raises the niceness (lowers the priority); a
// process already running at a greater niceness (started by `nice -n 19`)
// keeps it. Only Restore undoes it, where the process is allowed to.
//
// Decision: an import's default is Idle, Linux's SCHED_IDLE policy, not a
// niceness. At niceness 10 an import's threads still took a processor from
// a query about once in a hundred lookups, for up to a scheduler tick (4
// ms at 250 Hz): seen in the scheduler's switches of the query's thread
// during an import of 1,000,000 Ōgi games (a thread at niceness 10 picked
// at a timer interrupt, the query's thread back 3–4.4 ms later), and a
// lookup's p99 during the import was 1.2–1.7 ms against 0.7–1.3 after it.
// With the import at SCHED_IDLE it was 0.95–0.98 ms, 1.17–1.33× the p99
// after it, the import as fast. The price: a thread at SCHED_IDLE runs only
// when no other thread of its group (its session's, with autogroups, or
// its cgroup's) wants the processor, so an import beside a program that
// keeps every processor busy waits for it; and an unprivileged process
// cannot leave SCHED_IDLE (RLIMIT_NICE), so the choice lasts the process's
// life. `plateau import --nice 10` keeps the former behaviour.
package nice

import (
	"fmt"
	"runtime"
	"strconv"
)

// Setting is a priority a process takes for batch work: Idle, or a
// niceness (0: the priority it has).
type Setting struct {
	Idle bool
	Nice int
}

// Parse reads a Setting: "idle", or a niceness from 0 to 19.
func Parse(s string) (Setting, error) {
	if s == "idle" {
		return Setting{Idle: true}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 19 {
		return Setting{}, fmt.Errorf("priority %q: idle, or a niceness from 0 to 19", s)
	}
	return Setting{Nice: n}, nil
}

func (s Setting) String() string {
	if s.Idle {
		return "idle priority (SCHED_IDLE)"
	}
	return fmt.Sprintf("niceness %d", s.Nice)
}

// Changes reports that Apply changes the priority.
func (s Setting) Changes() bool { return s.Idle || s.Nice > 0 }

// Apply takes the setting: Idle, or Lower.
func (s Setting) Apply() error {
	if s.Idle {
		return Idle()
	}
	return Lower(s.Nice)
}

// Idle sets the scheduling policy of every thread of the process to
// SCHED_IDLE, under which a thread runs only when no thread of another
// policy wants its processor; threads started later inherit it. Only
// Restore undoes it, where the process is allowed to. Elsewhere than Linux
// it does nothing.
func Idle() error { return idle() }

// IsIdle reports that the calling thread runs at SCHED_IDLE.
func IsIdle() bool { return currentIdle() }

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

// Restore sets every thread back to niceness n (lower than now), and from
// SCHED_IDLE back to the normal policy: only a privileged process may
// (CAP_SYS_NICE, or RLIMIT_NICE), and an error says when it may not. For a
// benchmark that measures queries after a niced import.
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
