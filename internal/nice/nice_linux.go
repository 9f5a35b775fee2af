package nice

import (
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
// thread started after that inherits the new niceness).
func lower(n int) error {
	quiet := 0
	for range 50 {
		changed, err := lowerPass(n)
		if err != nil {
			return err
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

// restore sets every thread above n back to n, in passes as lower does.
func restore(n int) error {
	quiet := 0
	for range 50 {
		ents, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return fmt.Errorf("restore priority: %w", err)
		}
		changed := false
		for _, e := range ents {
			tid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if threadPolicy(tid) == schedIdle {
				if err := setPolicy(tid, schedOther); err != nil && err != syscall.ESRCH {
					return fmt.Errorf("restore priority of thread %d (from SCHED_IDLE): %w", tid, err)
				}
				changed = true
			}
			if threadNice(tid) <= n {
				continue
			}
			if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, n); err != nil && err != syscall.ESRCH {
				return fmt.Errorf("restore priority of thread %d to %d: %w", tid, n, err)
			}
			changed = true
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

// idle sets every thread's scheduling policy to SCHED_IDLE, in passes as
// lower does (a thread started later inherits the policy).
func idle() error {
	quiet := 0
	for range 50 {
		changed, err := idlePass()
		if err != nil {
			return err
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

func idlePass() (changed bool, err error) {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return false, fmt.Errorf("idle priority: %w", err)
	}
	for _, e := range ents {
		tid, err := strconv.Atoi(e.Name())
		if err != nil || threadPolicy(tid) == schedIdle {
			continue
		}
		if err := setPolicy(tid, schedIdle); err != nil && err != syscall.ESRCH {
			return false, fmt.Errorf("idle priority of thread %d: %w", tid, err)
		}
		changed = true
	}
	return changed, nil
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

func lowerPass(n int) (changed bool, err error) {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return false, fmt.Errorf("lower priority: %w", err)
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
			return false, fmt.Errorf("lower priority of thread %d to %d: %w", tid, n, err)
		}
		changed = true
	}
	return changed, nil
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

func lowerThread(n int) error {
	tid := syscall.Gettid()
	to := min(threadNice(tid)+n, 19)
	if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, to); err != nil {
		return fmt.Errorf("lower priority of thread %d to %d: %w", tid, to, err)
	}
	return nil
}
