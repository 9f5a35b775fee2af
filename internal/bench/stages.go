package bench

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// stageCPU reads a CPU profile of an import and sums its samples by the
// stage labels the index package puts on its goroutines (stage=read,
// replay, write — with write=add, flush, commit, merge —, compress, text).
// Samples without a stage are the garbage collector's own workers ("gc"),
// the bench's queries (bench=queries, when they run in this process) or
// anything else ("other").
func stageCPU(file string) (map[string]float64, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("CPU profile %s: %w", file, err)
	}
	vi := -1
	for i, st := range p.SampleType {
		if st.Type == "cpu" && st.Unit == "nanoseconds" {
			vi = i
		}
	}
	if vi < 0 {
		return nil, fmt.Errorf("CPU profile %s: no cpu/nanoseconds samples", file)
	}
	sec := map[string]float64{}
	for _, s := range p.Sample {
		name := "other"
		if st := s.Label["stage"]; len(st) > 0 {
			name = st[0]
			if w := s.Label["write"]; name == "write" && len(w) > 0 {
				name = "write/" + w[0]
			}
		} else if q := s.Label["bench"]; len(q) > 0 {
			name = "bench " + q[0]
		} else if gcWorker(s) {
			name = "gc"
		}
		sec[name] += float64(s.Value[vi]) / 1e9
	}
	return sec, nil
}

// gcWorker reports a sample of the garbage collector's background workers.
func gcWorker(s *profile.Sample) bool {
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			if l.Function != nil && (l.Function.Name == "runtime.gcBgMarkWorker" || l.Function.Name == "runtime.bgsweep" || l.Function.Name == "runtime.bgscavenge") {
				return true
			}
		}
	}
	return false
}

// stageOrder is the order of the stages in a note; others follow by name.
var stageOrder = []string{"read", "replay", "write", "write/add", "write/flush", "write/commit", "write/merge", "compress", "text", "gc", "other"}

// stageNote renders the stages' CPU per game: "read 30 µs, replay 71, …".
func stageNote(sec map[string]float64, games int) string {
	names := make([]string, 0, len(sec))
	for n := range sec {
		names = append(names, n)
	}
	rank := func(n string) int {
		if i := slices.Index(stageOrder, n); i >= 0 {
			return i
		}
		return len(stageOrder)
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := rank(a) - rank(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var total float64
	parts := make([]string, 0, len(names))
	for _, n := range names {
		total += sec[n]
		parts = append(parts, fmt.Sprintf("%s %.0f", n, sec[n]*1e6/float64(max(games, 1))))
	}
	return fmt.Sprintf("%s (µs of CPU a game; %.0f in all, %.1f s)", strings.Join(parts, ", "), total*1e6/float64(max(games, 1)), total)
}
