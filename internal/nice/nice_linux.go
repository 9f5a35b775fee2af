package nice

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// On Linux a niceness belongs to a thread (setpriority(PRIO_PROCESS, tid)
// changes one thread only), and a Go program runs on several: every thread
// listed in /proc/self/task is changed.
func lower(n int) error {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Errorf("lower priority: %w", err)
	}
	for _, e := range ents {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if threadNice(tid) >= n {
			continue
		}
		if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, n); err != nil && err != syscall.ESRCH {
			return fmt.Errorf("lower priority of thread %d to %d: %w", tid, n, err)
		}
	}
	return nil
}

// threadNice is a thread's niceness. The raw getpriority system call
// returns 20 − niceness (never negative).
func threadNice(tid int) int {
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		return 0
	}
	return 20 - p
}

func current() int { return threadNice(syscall.Gettid()) }
