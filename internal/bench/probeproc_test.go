package bench_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/internal/bench"
)

// TestMain runs the probe's side when the test binary is started as the
// bench's probe process.
func TestMain(m *testing.M) {
	switch os.Getenv("BENCH_PROBE_CHILD") {
	case "fail":
		os.Stderr.WriteString("probe child: failing as told\n")
		os.Exit(3)
	case "1":
		if err := bench.ServeProbe(context.Background(), os.Stdin, os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func probeChild() func(context.Context) *exec.Cmd { return probeChildEnv("BENCH_PROBE_CHILD=1") }

func probeChildEnv(env string) func(context.Context) *exec.Cmd {
	return func(ctx context.Context) *exec.Cmd {
		cmd := exec.CommandContext(ctx, os.Args[0])
		cmd.Env = append(os.Environ(), env)
		cmd.Stderr = os.Stderr
		return cmd
	}
}

// TestRunProbeProcess runs the queries during and after the import in a
// process of their own: the same rows as in one process, with their
// latencies and slowdowns, and the report says where they ran.
func TestRunProbeProcess(t *testing.T) {
	const n, base = 300, 200
	rep, err := bench.Run(context.Background(), bench.Config{Game: ogi(t), Games: n, Base: base, Seed: 3, Workers: 1, Queries: 20,
		Curve: []int{}, QueryEvery: time.Millisecond, DBDir: t.TempDir() + "/db", ProbeCommand: probeChild()})
	if err != nil {
		t.Fatal(err)
	}
	want := append([]string{"generate", "parse", "parse + replay-validate", "generate (base)", "import (base)", "import"}, latencyStages...)
	checkStages(t, rep, want)
	checkLatencies(t, rep)
	for _, s := range rep.Stages {
		if strings.HasSuffix(s.Name, "import") && strings.Contains(s.Name, " ") && !strings.Contains(s.Note, "in a process of its own") {
			t.Errorf("%s: note %q does not say where the queries ran", s.Name, s.Note)
		}
		if strings.HasSuffix(s.Name, "after import") && (s.CPU <= 0 || s.PeakRSS <= 0) {
			t.Errorf("%s: CPU %v, peak RSS %d: the probe process's figures are lost", s.Name, s.CPU, s.PeakRSS)
		}
	}
	if len(rep.Slowdowns) != 2 {
		t.Fatalf("slowdowns %+v, want position lookup and opening tree", rep.Slowdowns)
	}
	md := rep.Markdown()
	if !strings.Contains(md, "The queries ran in a process of their own") {
		t.Errorf("the report does not say where the queries ran:\n%s", md)
	}
	checkRuns(t, md)
}

// TestRunProbeProcessFails: a probe process that exits before its first
// query fails the run, before the import, with an error that says so.
func TestRunProbeProcessFails(t *testing.T) {
	_, err := bench.Run(context.Background(), bench.Config{Game: ogi(t), Games: 20, Seed: 3, Workers: 1, Queries: 5,
		QueryEvery: time.Millisecond, DBDir: t.TempDir() + "/db", ProbeCommand: probeChildEnv("BENCH_PROBE_CHILD=fail")})
	if err == nil || !strings.Contains(err.Error(), "probe process") || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("err = %v, want the probe process's failure", err)
	}
}
