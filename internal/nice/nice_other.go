//go:build !linux

package nice

import "time"

// Elsewhere the priority is left as it is.
func lower(n int) error { return nil }

func restore(n int) error { return nil }

func current() int { return 0 }

func lowerThread(n int) error { return nil }

func idle() error { return nil }

func currentIdle() bool { return false }

func sched() (run, wait time.Duration, ok bool) { return 0, 0, false }
