package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// TestStageCPU sums a made profile's samples by stage: labelled ones by
// their stage (write by its step), the collector's workers as gc, the
// rest as other.
func TestStageCPU(t *testing.T) {
	fn := func(id uint64, name string) *profile.Function { return &profile.Function{ID: id, Name: name} }
	work, gc := fn(1, "github.com/plateau/plateau/replay.Replay"), fn(2, "runtime.gcBgMarkWorker")
	loc := func(id uint64, f *profile.Function) *profile.Location {
		return &profile.Location{ID: id, Line: []profile.Line{{Function: f}}}
	}
	lw, lg := loc(1, work), loc(2, gc)
	sample := func(ns int64, l *profile.Location, labels map[string][]string) *profile.Sample {
		return &profile.Sample{Value: []int64{1, ns}, Location: []*profile.Location{l}, Label: labels}
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
		Function:   []*profile.Function{work, gc},
		Location:   []*profile.Location{lw, lg},
		Sample: []*profile.Sample{
			sample(3e9, lw, map[string][]string{"stage": {"replay"}}),
			sample(1e9, lw, map[string][]string{"stage": {"replay"}}),
			sample(2e9, lw, map[string][]string{"stage": {"write"}, "write": {"flush"}}),
			sample(5e8, lw, map[string][]string{"stage": {"write"}}),
			sample(7e8, lg, nil),
			sample(2e8, lw, nil),
			sample(1e8, lw, map[string][]string{"bench": {"queries"}}),
		},
	}
	file := filepath.Join(t.TempDir(), "cpu.pprof")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	sec, err := stageCPU(file)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"replay": 4, "write/flush": 2, "write": 0.5, "gc": 0.7, "other": 0.2, "bench queries": 0.1}
	for k, v := range want {
		if d := sec[k] - v; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: %.3f s, want %.3f", k, sec[k], v)
		}
	}
	if len(sec) != len(want) {
		t.Errorf("stages %v, want %v", sec, want)
	}
	note := stageNote(sec, 1000)
	if !strings.HasPrefix(note, "replay 4000, write 500, write/flush 2000, gc 700, other 200, bench queries 100 (µs of CPU a game; 7500 in all, 7.5 s)") {
		t.Errorf("note %q", note)
	}
	if _, err := stageCPU(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("no error for a missing profile")
	}
}
