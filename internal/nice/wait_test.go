package nice

import (
	"runtime"
	"testing"
	"time"
)

// TestWaits: a process is said to wait for processors when, over a
// sample's span, its threads waited on the run queue for more than half
// of it and more than twice as long as they ran; not at the first sample,
// nor when it runs, nor when it sleeps (waits for a disk or for input).
func TestWaits(t *testing.T) {
	s := time.Second
	t0 := time.Unix(0, 0)
	for _, c := range []struct {
		name      string
		run, wait time.Duration // since the previous sample
		span      time.Duration
		waits     bool
	}{
		{"starved at idle priority", 10 * time.Millisecond, 3 * s, s, true},
		{"starved, two threads", 0, 1500 * time.Millisecond, s, true},
		{"running alone", 2 * s, 5 * time.Millisecond, s, false},
		{"sharing the processors", 900 * time.Millisecond, 1200 * time.Millisecond, s, false},
		{"sleeping (disk, input)", 0, 0, s, false},
		{"little wait", 0, 400 * time.Millisecond, s, false},
		{"a thread gone: times go back", -s, -s, s, false},
	} {
		var w Waits
		if w.Sample(5*s, 7*s, t0) {
			t.Errorf("%s: waits at the first sample", c.name)
		}
		if got := w.Sample(5*s+c.run, 7*s+c.wait, t0.Add(c.span)); got != c.waits {
			t.Errorf("%s: waits %v, want %v", c.name, got, c.waits)
		}
	}
	if _, _, ok := Sched(); !ok && runtime.GOOS == "linux" {
		t.Error("no scheduling times on Linux")
	}
}
