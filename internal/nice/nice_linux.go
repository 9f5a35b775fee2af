package nice

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// On Linux a niceness belongs to a thread (setpriority(PRIO_PROCESS, tid)
// changes one thread only), and a Go program runs on several: every thread
// listed in /proc/self/task is changed. A thread being started by a thread
// not yet changed copies its niceness before it is listed: passes are
// repeated, a few milliseconds apart, until two in a row change nothing (a
// thread started after that inherits the new niceness). The scheduling
// policy (idle) is a thread's too, and set the same way.
func lower(n int) error {
	return everyThread("lower priority", func(tid int) (bool, error) {
		if threadNice(tid) >= n {
			return false, nil
		}
		return true, setNice(tid, n)
	})
}

// idle sets every thread's scheduling policy to SCHED_IDLE.
func idle() error {
	return everyThread("idle priority", func(tid int) (bool, error) {
		if threadPolicy(tid) == schedIdle {
			return false, nil
		}
		return true, setPolicy(tid, schedIdle)
	})
}

// restore sets every thread back from SCHED_IDLE, and above n back to n.
func restore(n int) error {
	return everyThread("restore priority", func(tid int) (changed bool, err error) {
		if threadPolicy(tid) == schedIdle {
			if err := setPolicy(tid, schedOther); err != nil {
				return true, err
			}
			changed = true
		}
		if threadNice(tid) <= n {
			return changed, nil
		}
		return true, setNice(tid, n)
	})
}

// everyThread calls change on every thread of the process, in passes until
// two in a row change nothing (at most 50). A thread gone meanwhile
// (ESRCH) is no error.
func everyThread(what string, change func(tid int) (bool, error)) error {
	quiet := 0
	for range 50 {
		ents, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		changed := false
		for _, e := range ents {
			tid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			c, err := change(tid)
			if err != nil && !errors.Is(err, syscall.ESRCH) {
				return fmt.Errorf("%s of thread %d: %w", what, tid, err)
			}
			changed = changed || c
		}
		if changed {
			quiet = 0
		} else if quiet++; quiet == 2 {
			return nil
		}
		time.Sleep(2 * time.Millisecond)
	}
	return nil
}

func setNice(tid, n int) error {
	if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, n); err != nil {
		return fmt.Errorf("to niceness %d: %w", n, err)
	}
	return nil
}

// Scheduling policies (sched(7)).
const (
	schedOther = 0
	schedIdle  = 5
)

// threadPolicy is a thread's scheduling policy (-1 when unknown).
func threadPolicy(tid int) int {
	p, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_GETSCHEDULER, uintptr(tid), 0, 0)
	if errno != 0 {
		return -1
	}
	return int(p)
}

// setPolicy sets a thread's policy, with the static priority 0 of the
// policies of normal threads.
func setPolicy(tid, policy int) error {
	var param struct{ priority int32 }
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(tid), uintptr(policy), uintptr(unsafe.Pointer(&param)))
	if errno != 0 {
		return errno
	}
	return nil
}

func currentIdle() bool { return threadPolicy(syscall.Gettid()) == schedIdle }

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

func lowerThread(n int) error {
	tid := syscall.Gettid()
	to := min(threadNice(tid)+n, 19)
	if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, to); err != nil {
		return fmt.Errorf("lower priority of thread %d to %d: %w", tid, to, err)
	}
	return nil
}
