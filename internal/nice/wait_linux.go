package nice

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// sched sums the first two fields of every thread's schedstat: the
// nanoseconds it ran and waited on a run queue. A thread that ended since
// it was listed is left out (its times with it: a sample may go back).
func sched() (run, wait time.Duration, ok bool) {
	files, err := filepath.Glob("/proc/self/task/*/schedstat")
	if err != nil || len(files) == 0 {
		return 0, 0, false
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		fs := strings.Fields(string(b))
		if len(fs) < 2 {
			continue
		}
		r, err1 := strconv.ParseInt(fs[0], 10, 64)
		w, err2 := strconv.ParseInt(fs[1], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		run += time.Duration(r)
		wait += time.Duration(w)
		ok = true
	}
	return run, wait, ok
}
