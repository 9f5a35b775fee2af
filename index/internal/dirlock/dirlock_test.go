package dirlock

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestTryAndWait: a lock held is not taken again, in the same process
// either; Wait waits for its release, saying so once; a Wait cancelled
// returns the context's error; a nil lock releases nothing.
func TestTryAndWait(t *testing.T) {
	dir := t.TempDir()
	a, err := Try(dir, Merge)
	if err != nil || a == nil {
		t.Fatalf("first try: %v, %v", a, err)
	}
	if b, err := Try(dir, Merge); err != nil || b != nil {
		t.Fatalf("second try while held: %v, %v", b, err)
	}
	if c, err := Try(dir, Import); err != nil || c == nil {
		t.Fatalf("another lock of the directory: %v, %v", c, err)
	} else {
		c.Release()
	}
	waits := 0
	got := make(chan *Lock)
	go func() {
		l, err := Wait(context.Background(), dir, Merge, func() { waits++ })
		if err != nil {
			t.Error(err)
		}
		got <- l
	}()
	time.Sleep(3 * Poll)
	a.Release()
	l := <-got
	if l == nil || waits != 1 {
		t.Fatalf("after the release: lock %v, told %d times", l, waits)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*Poll)
	defer cancel()
	if l2, err := Wait(ctx, dir, Merge, nil); !errors.Is(err, context.DeadlineExceeded) || l2 != nil {
		t.Fatalf("wait while held, cancelled: %v, %v", l2, err)
	}
	l.Release()
	var none *Lock
	none.Release()
}
