package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/longtest"
)

// TestMain runs plateau itself when PLATEAU_MAIN_ARGS holds its arguments
// (one per line), for the tests that signal a real process.
// A plateau process under test that starts itself again (bench starts
// `plateau bench-probe`) starts the test binary: it runs plateau too.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "bench-probe" {
		os.Exit(run(append([]string{"plateau"}, os.Args[1:]...), os.Stdout, os.Stderr))
	}
	if a := os.Getenv("PLATEAU_MAIN_ARGS"); a != "" {
		os.Exit(run(append([]string{"plateau"}, strings.Split(a, "\n")...), os.Stdout, os.Stderr))
	}
	// The imports run in this process take niceness 10, not the default
	// idle priority, which this process could not leave, and under which
	// the other packages' tests running beside it would starve it; the
	// children started by the tests inherit it, but for TestImportIdle's.
	os.Setenv("PLATEAU_NICE", "10")
	os.Exit(m.Run())
}

// TestImportIdle: an import runs at SCHED_IDLE by default, every thread of
// it (read from /proc while it runs in a child process, which is then
// killed: at idle priority it may wait for the tests beside it).
func TestImportIdle(t *testing.T) {
	longtest.Skip(t)
	if runtime.GOOS != "linux" {
		t.Skip("thread policies are read from /proc (Linux)")
	}
	dir := t.TempDir()
	f := genFile(t, dir, "draughts", 3000)
	for _, bad := range []string{"20", "low", ""} {
		_, errOut, status := plateau(t, "import", "--nice", bad, "--db", filepath.Join(dir, "bad"), f)
		if status != exitUsage || !strings.Contains(errOut, "--nice") {
			t.Errorf("--nice %q: status %d, %q", bad, status, errOut)
		}
		if _, err := os.Stat(filepath.Join(dir, "bad")); err == nil {
			t.Errorf("--nice %q: the database was made", bad)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "PLATEAU_NICE=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(cmd.Env, "PLATEAU_MAIN_ARGS="+strings.Join([]string{"import", "-q", "--db", filepath.Join(dir, "db"), f}, "\n"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() { cmd.Process.Kill(); <-exited }()
	var policies map[string]string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("the import ended before every thread was seen at SCHED_IDLE: %v", policies)
		default:
		}
		policies = map[string]string{}
		idle := 0
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", cmd.Process.Pid))
		for _, task := range tasks {
			b, err := os.ReadFile(task)
			if err != nil {
				continue
			}
			// Fields after the command's closing parenthesis: the
			// policy is the 41st field of the line.
			fs := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
			if len(fs) < 39 {
				continue
			}
			policies[filepath.Base(filepath.Dir(task))] = fs[38]
			if fs[38] == "5" {
				idle++
			}
		}
		if len(policies) > 1 && idle == len(policies) {
			return
		}
	}
	t.Fatalf("threads of the import and their policies (5: SCHED_IDLE): %v", policies)
}

// TestImportInterrupt sends SIGINT to an import in a child process: it stops
// cleanly, says how many games were committed (exactly those the database
// holds) and how to resume, and running the same import again completes it.
func TestImportInterrupt(t *testing.T) {
	longtest.Skip(t)
	const n = 2500
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	f := genFile(t, dir, "draughts", n)
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), "PLATEAU_MAIN_ARGS="+strings.Join([]string{"import", "--db", db, "--tx", "100", "--workers", "1", f}, "\n"))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	stored := 0
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && stored < 200; {
		time.Sleep(20 * time.Millisecond)
		if d, err := index.Open(ctx, db, index.Options{ReadOnly: true}); err == nil {
			stored, _ = d.Count(ctx, index.Query{}, index.ListOptions{AnyValidity: true})
			d.Close()
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitUsage {
		t.Fatalf("interrupted import: %v\n%s%s", err, out.String(), errOut.String())
	}
	m := regexp.MustCompile(`interrupted: (\d+) games committed \((\d+) records read.*run the same import again to resume`).FindStringSubmatch(errOut.String())
	if m == nil {
		t.Fatalf("the interrupt message does not say what was committed and how to resume:\n%s", errOut.String())
	}
	// One count of the games kept: no summary of games "stored" (it
	// counted those of the transaction undone: "4157 stored", then "0
	// games committed").
	if strings.Contains(out.String(), " stored (") {
		t.Errorf("an interrupted import prints a summary of games stored:\n%s", out.String())
	}
	committed, _ := strconv.Atoi(m[1])
	d, err := index.Open(ctx, db, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	inDB, err := d.Count(ctx, index.Query{}, index.ListOptions{AnyValidity: true})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if committed != inDB || committed == 0 || committed >= n {
		t.Fatalf("the message says %d games committed, the database holds %d (of %d)", committed, inDB, n)
	}
	t.Logf("interrupted after %d games committed", committed)
	res := mustRun(t, "import", "--db", db, f)
	if !strings.Contains(res, strconv.Itoa(n-committed)+" stored") || !strings.Contains(res, strconv.Itoa(committed)+" duplicates") {
		t.Errorf("resumed import:\n%s", res)
	}
}

// TestImportIdleWaitSaid: an import at idle priority beside a program
// that keeps every processor busy (this test, spinning in the child's
// group) says that it waits for a processor (8 s of silence looked like a
// hang), and goes on once they are free.
func TestImportIdleWaitSaid(t *testing.T) {
	longtest.Skip(t)
	if runtime.GOOS != "linux" {
		t.Skip("scheduling times are read from /proc (Linux)")
	}
	dir := t.TempDir()
	f := genFile(t, dir, "draughts", 1000)
	stop := make(chan struct{})
	var spinning sync.WaitGroup
	for range runtime.NumCPU() + 1 {
		spinning.Add(1)
		go func() {
			defer spinning.Done()
			for n := 0; ; n++ {
				if n%1_000_000 == 0 {
					select {
					case <-stop:
						return
					default:
					}
				}
			}
		}()
	}
	stopSpinning := sync.OnceFunc(func() { close(stop); spinning.Wait() })
	defer stopSpinning()
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "PLATEAU_NICE=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(cmd.Env, "PLATEAU_MAIN_ARGS="+strings.Join([]string{"import", "-q", "--db", filepath.Join(dir, "db"), f}, "\n"))
	var errOut syncBuffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	const said = "plateau: waiting for a processor: the import runs at idle priority"
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(errOut.String(), said) && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	stopSpinning()
	if !strings.Contains(errOut.String(), said) {
		cmd.Process.Kill()
		<-exited
		t.Fatalf("no word of the wait after 30 s beside busy processors: %q", errOut.String())
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the import, once the processors were free: %v: %s", err, errOut.String())
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Errorf("the import did not end once the processors were free")
	}
}

// syncBuffer is a bytes.Buffer written by a child process's copier and
// read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
