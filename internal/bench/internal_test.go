package bench

import (
	"testing"
	"time"

	"github.com/plateau/plateau/index"
)

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 10_240: "10,240", 1_000_000: "1,000,000", -12_345: "-12,345"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestProfileName(t *testing.T) {
	for name, want := range map[string]string{"": "", "cpu.pprof": "cpu-base.pprof", "/tmp/x/cpu": "/tmp/x/cpu-base", "a.b/c.out": "a.b/c-base.out"} {
		if got := profileName(name, "-base"); got != want {
			t.Errorf("profileName(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestCurve feeds progress reports and checks the segments.
func TestCurve(t *testing.T) {
	c := newCurve("import", []int{100, 200, 300})
	for _, st := range []struct{ stored, ms int }{{50, 10}, {120, 20}, {150, 30}, {320, 60}, {400, 80}} {
		c.progress(statsOf(st.stored, st.ms))
	}
	c.end(statsOf(500, 100))
	want := []struct {
		name  string
		count int
		ms    int
	}{{"import, games 0–120", 120, 20}, {"import, games 120–320", 200, 40}, {"import, games 320–500", 180, 40}}
	if len(c.rows) != len(want) {
		t.Fatalf("%d segments, want %d: %+v", len(c.rows), len(want), c.rows)
	}
	for i, w := range want {
		r := c.rows[i]
		if r.Name != w.name || r.Count != w.count || r.Wall.Milliseconds() != int64(w.ms) {
			t.Errorf("segment %d: %q, %d games in %v; want %q, %d in %d ms", i, r.Name, r.Count, r.Wall, w.name, w.count, w.ms)
		}
	}
	if c.rows[2].Note != "cumulative: 5000 games/s" {
		t.Errorf("last note %q", c.rows[2].Note)
	}
	// No cut, or one at the last report: no curve.
	for _, cuts := range [][]int{{1000}, {100, 200}} {
		c = newCurve("import", cuts)
		c.progress(statsOf(50, 10))
		c.progress(statsOf(500, 100))
		c.end(statsOf(500, 100))
		if len(c.rows) != 0 {
			t.Errorf("cuts %v: a curve of one segment: %+v", cuts, c.rows)
		}
	}
}

func statsOf(stored, ms int) index.ImportStats {
	return index.ImportStats{Stored: stored, Elapsed: time.Duration(ms) * time.Millisecond}
}
