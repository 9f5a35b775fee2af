package nice

import "time"

// Waits tells, from successive samples of a process's scheduling times
// (Sched), whether it waits for processors: an import at idle priority
// beside programs that keep every processor busy runs little or not at
// all, which looks like a hang unless it is said.
//
// Decision: over a sample's span, the process waits when its threads
// waited on the run queue (runnable, not running) for more than half the
// span in all and more than twice as long as they ran. A process waiting
// for a disk or for input is not runnable, and not said to wait.
type Waits struct {
	run, wait time.Duration
	at        time.Time
	sampled   bool
}

// Sample takes the process's times so far at at, and reports whether it
// waited for processors since the previous sample (false at the first).
func (w *Waits) Sample(run, wait time.Duration, at time.Time) bool {
	prev := *w
	w.run, w.wait, w.at, w.sampled = run, wait, at, true
	if !prev.sampled {
		return false
	}
	span, ran, waited := at.Sub(prev.at), run-prev.run, wait-prev.wait
	return span > 0 && waited > span/2 && waited > 2*ran
}

// Sched is the time the process's threads have run and waited on the run
// queue so far (Linux's /proc/self/task/*/schedstat); false where it is
// not known.
func Sched() (run, wait time.Duration, ok bool) { return sched() }
