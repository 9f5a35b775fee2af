package criteria

import (
	"errors"
	"testing"
)

// TestCounts: a count is made once while the state stays, again when it
// changes; a failed count is not kept.
func TestCounts(t *testing.T) {
	var c Counts
	made := 0
	count := func(n int) func() (int, error) {
		return func() (int, error) { made++; return n, nil }
	}
	for _, step := range []struct {
		state State
		key   string
		n     int // the count made if it is made
		want  int
		made  int
	}{
		{State{10, 0}, "a", 1, 1, 1},
		{State{10, 0}, "a", 2, 1, 1}, // kept
		{State{10, 0}, "b", 3, 3, 2},
		{State{11, 0}, "a", 4, 4, 3}, // a game added
		{State{11, 1}, "a", 5, 5, 4}, // an edit
		{State{11, 1}, "a", 6, 5, 4},
	} {
		got, err := c.Get(step.state, step.key, count(step.n))
		if err != nil || got != step.want || made != step.made {
			t.Fatalf("%+v: %d (%v), %d counts made", step, got, err, made)
		}
	}
	bad := errors.New("bad")
	if _, err := c.Get(State{11, 1}, "c", func() (int, error) { return 0, bad }); !errors.Is(err, bad) {
		t.Fatalf("error %v", err)
	}
	if n, _ := c.Get(State{11, 1}, "c", count(7)); n != 7 {
		t.Errorf("after an error: %d", n)
	}
}

// TestCountsBounded: past maxCounts queries the counts start again.
func TestCountsBounded(t *testing.T) {
	var c Counts
	s := State{1, 0}
	for i := range maxCounts {
		c.Get(s, string(rune(i+1)), func() (int, error) { return i, nil })
	}
	if len(c.m) != maxCounts {
		t.Fatalf("%d counts kept", len(c.m))
	}
	c.Get(s, "new", func() (int, error) { return 0, nil })
	if len(c.m) != 1 {
		t.Errorf("%d counts kept past the bound, want 1", len(c.m))
	}
}
