package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plateau/plateau/internal/bench"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// validateWith runs a validator on workers goroutines and returns what it
// printed and counted.
func validateWith(t *testing.T, args []string, k checker, workers int) (string, [4]int) {
	t.Helper()
	var out bytes.Buffer
	v := validator{w: &out, check: k}
	o := readOpts{maxRecord: 4 << 20, errw: &bytes.Buffer{}, ahead: k.opts}
	err := v.run(context.Background(), o, args, workers)
	var fe *filesError
	if err != nil && !errors.As(err, &fe) {
		t.Fatalf("%d workers: %v", workers, err)
	}
	return out.String(), [4]int{v.games, v.valid, v.warned, v.plies}
}

// TestValidateWorkers: on any number of workers, validate prints the same
// lines in the same order and counts the same as on one, for collections
// with invalid games, unreadable records, notes, warnings and untagged
// games whose ruleset detection chose from the games before them.
func TestValidateWorkers(t *testing.T) {
	corpus := filepath.Join("..", "..", "..", "shared", "corpus", "pdn")
	if _, err := os.Stat(corpus); err != nil {
		t.Fatalf("the corpus of PDN files: %v", err)
	}
	sets := [][]string{
		{faultyOgi(t)},
		{filepath.Join(samples, "broken")},
		{filepath.Join(samples, "dames"), filepath.Join(samples, "ogi"), filepath.Join(samples, "draughts")},
		{corpus},
	}
	if testing.Short() {
		// .ci/run's race run (-short): the workers' concurrency is the same
		// on the corpus as on the samples, and the default run reads it.
		sets = sets[:3]
	}
	detect := replay.Options{DefaultGame: defaultGame, Detect: true}
	lines := 0
	for _, args := range sets {
		for _, k := range []checker{
			{opts: detect},
			{opts: detect, notes: true, warnings: true},
			{opts: detect, quiet: true},
			{opts: replay.Options{DefaultGame: "dames"}, notes: true},
		} {
			want, wantV := validateWith(t, args, k, 1)
			if wantV[0] == 0 {
				t.Fatalf("%v %+v: nothing validated", args, k)
			}
			lines += strings.Count(want, "\n")
			for _, workers := range []int{2, 3} {
				got, gotV := validateWith(t, args, k, workers)
				if got != want {
					t.Errorf("%v %+v, %d workers: the lines differ from one worker's:\n%s", args, k, workers, firstDiff(got, want))
				}
				if gotV != wantV {
					t.Errorf("%v %+v, %d workers: games, valid, warned, plies %v, want %v", args, k, workers, gotV, wantV)
				}
			}
		}
	}
	if lines < 100 {
		t.Errorf("only %d lines printed: the comparison says little", lines)
	}
}

// faultyOgi is a file of 300 generated Ōgi games (they name their
// ruleset: replayed on the workers) among which some cannot be read (a
// ')' outside a variation) and some are invalid (a Result tag that the
// final position contradicts), mixed within each chunk.
func faultyOgi(t *testing.T) string {
	t.Helper()
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, 7)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if _, err := gen.Write(context.Background(), &text, 300, generate.Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	games := strings.SplitAfter(text.String(), "\n\n[Game ")
	for i, gm := range games {
		switch {
		case i%7 == 3:
			games[i] = strings.Replace(gm, "\n\n1. ", "\n\n1. ) ", 1)
		case i%5 == 1:
			r := strings.NewReplacer(`[Result "1-0"]`, `[Result "0-1"]`, `[Result "0-1"]`, `[Result "1-0"]`)
			games[i] = r.Replace(gm)
		}
	}
	path := filepath.Join(t.TempDir(), "faulty.pdn")
	if err := os.WriteFile(path, []byte(strings.Join(games, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestValidateDetectionDeferred: the corpus has untagged games whose
// ruleset depends on the file's games before them, and a line for them, so
// that TestValidateWorkers compares the games replayed in order.
func TestValidateDetectionDeferred(t *testing.T) {
	corpus := filepath.Join("..", "..", "..", "shared", "corpus", "pdn")
	k := checker{opts: replay.Options{DefaultGame: defaultGame, Detect: true}, warnings: true}
	out, _ := validateWith(t, []string{corpus}, k, 2)
	if !strings.Contains(out, "warning: "+replay.WarnRuleset+": no Game or GameType tag") {
		t.Errorf("no detected ruleset among the warnings:\n%s", out)
	}
}

// firstDiff is the first line where two texts differ, for a test's message.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("one is longer: %d lines against %d", len(g), len(w))
}

// BenchmarkValidate checks 2,000 generated Ōgi games as plateau validate
// does, on one worker per core: run it with -cpu 1,2 to see how it scales.
// It reports plies per second and per CPU second of the process.
func BenchmarkValidate(b *testing.B) {
	g, err := rules.Lookup("ogi")
	if err != nil {
		b.Fatal(err)
	}
	gen, err := generate.New(g, 1)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "ogi.pdn")
	var text bytes.Buffer
	if _, err := gen.Write(context.Background(), &text, 2000, generate.Options{}); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, text.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	defer streamMemory(validateMemoryLimit)()
	b.ReportAllocs()
	plies := 0
	cpu := bench.CPUTime()
	for b.Loop() {
		opts := replay.Options{DefaultGame: defaultGame, Detect: true}
		v := validator{w: io.Discard, check: checker{quiet: true, opts: opts}}
		if err := v.run(context.Background(), readOpts{errw: io.Discard, ahead: opts}, []string{path}, runtime.GOMAXPROCS(0)); err != nil {
			b.Fatal(err)
		}
		if v.valid != 2000 {
			b.Fatalf("%d valid games of %d", v.valid, v.games)
		}
		plies += v.plies
	}
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
	b.ReportMetric(float64(plies)/(bench.CPUTime()-cpu).Seconds(), "plies/cpu-s")
}
