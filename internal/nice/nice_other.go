//go:build !linux

package nice

// Elsewhere the priority is left as it is.
func lower(n int) error { return nil }

func restore(n int) error { return nil }

func current() int { return 0 }

func lowerThread(n int) error { return nil }

func idle() error { return nil }

func currentIdle() bool { return false }
