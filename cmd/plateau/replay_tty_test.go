package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestReplayHelperProcess is the plateau command when the tests below start
// the test binary again with PLATEAU_HELPER set: the arguments follow "--".
func TestReplayHelperProcess(t *testing.T) {
	if os.Getenv("PLATEAU_HELPER") != "1" {
		t.Skip("runs only as the command of the pseudo-terminal tests")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(run(append([]string{"plateau"}, args...), os.Stdout, os.Stderr))
}

// session is the plateau command running in a pseudo-terminal.
type session struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File // the terminal's master side: keys in, screen out
	mu   sync.Mutex
	out  bytes.Buffer
	seen int // output already looked at by expect
	done chan struct{}
}

// startSession runs plateau with args on a 120×40 pseudo-terminal; with
// stdin non-nil, standard input is that file and the terminal is only the
// output and the controlling terminal (/dev/tty).
func startSession(t *testing.T, stdin *os.File, args ...string) *session {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestReplayHelperProcess$", "--"}, args...)...)
	var env []string
	for _, e := range os.Environ() {
		// Colours on, whatever the environment (termenv turns them off
		// under CI): the highlighted move is checked by its reverse video.
		if !strings.HasPrefix(e, "TERM=") && !strings.HasPrefix(e, "NO_COLOR=") && !strings.HasPrefix(e, "COLORTERM=") && !strings.HasPrefix(e, "CI=") && !strings.HasPrefix(e, "CLICOLOR") {
			env = append(env, e)
		}
	}
	cmd.Env = append(env, "PLATEAU_HELPER=1", "TERM=xterm-256color")
	attrs := &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if stdin != nil {
		cmd.Stdin = stdin
		attrs.Ctty = 1 // the terminal is the child's standard output
	}
	tty, err := pty.StartWithAttrs(cmd, &pty.Winsize{Rows: 40, Cols: 120}, attrs)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, cmd: cmd, tty: tty, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			s.mu.Unlock()
			// Answer as a terminal does when asked its background colour
			// (OSC 11) and the cursor position (DSR): bubbletea asks once
			// at start and waits for the answer.
			if bytes.Contains(buf[:n], []byte("\x1b]11;?")) {
				tty.Write([]byte("\x1b]11;rgb:0000/0000/0000\x1b\\\x1b[1;1R"))
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
		tty.Close()
	})
	return s
}

var ansiSeq = regexp.MustCompile(`\x1b\[[0-9;?<=>]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-B]|\x1b[=>]`)

// screenText is terminal output without its escape sequences.
func screenText(raw string) string { return ansiSeq.ReplaceAllString(raw, "") }

// expect waits until the output written since the last expect contains
// every pattern (regular expressions over the raw output, escapes included;
// plain strings match the text without escapes), then moves past it.
func (s *session) expect(what string, plain []string, raw ...*regexp.Regexp) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mu.Lock()
		fresh := s.out.String()[s.seen:]
		s.mu.Unlock()
		text := screenText(fresh)
		missing := ""
		for _, p := range plain {
			if !strings.Contains(text, p) {
				missing = fmt.Sprintf("%q", p)
				break
			}
		}
		for _, r := range raw {
			if missing == "" && !r.MatchString(fresh) {
				missing = r.String()
			}
		}
		if missing == "" {
			s.mu.Lock()
			s.seen += len(fresh)
			s.mu.Unlock()
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: the screen never showed %s; it showed:\n%s\nraw: %q", what, missing, text, fresh)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// send types keys.
func (s *session) send(keys string) {
	s.t.Helper()
	if _, err := s.tty.Write([]byte(keys)); err != nil {
		s.t.Fatal(err)
	}
}

// wait waits for the command to end and returns its exit status.
func (s *session) wait() int {
	s.t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			s.t.Fatal(err)
		}
		return 0
	case <-time.After(10 * time.Second):
		s.t.Fatal("the replayer did not quit")
	}
	return -1
}

// highlighted matches a move drawn in reverse video after the ▶ marker.
func highlighted(move string) *regexp.Regexp {
	return regexp.MustCompile(`▶\x1b\[(?:[0-9]+;)*7(?:;[0-9]+)*m` + regexp.QuoteMeta(move))
}

// TestReplayTerminal drives the full-screen replayer as a person would, on
// the Ōsaka club sample: header, stepping, a variation in and out, a jump,
// flipping and quitting, reading what the terminal is sent.
func TestReplayTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the command in a pseudo-terminal")
	}
	s := startSession(t, nil, "replay", filepath.Join(samples, "ogi", "osaka-club.pdn"))
	s.expect("start", []string{"Ōgi · Ōsaka summer club · Ōsaka · 2026.07.11 · round 1", "Tanaka, Haruki", "Fujii, Sora", "1-0 (resignation)", "start position", "Generated by the Plateau sample policy", "Gote in hand: -", "a  b  c  d  e  f  g  h"},
		regexp.MustCompile(`\x1b\[\?1049h`)) // the alternate screen
	s.send("llllll")
	s.expect("six plies on", []string{"ply 6 · Sente to move", "move 3... Pb6-b5", "instead of Bb2-a1: 1) 4. Ke1-e2"}, highlighted("Pb6-b5"))
	s.send("v")
	s.expect("into the variation", []string{"in a variation (depth 1", "move 4. Ke1-e2", "variation"}, highlighted("Ke1-e2"))
	s.send("j")
	s.expect("along the variation", []string{"ply 8 · Sente to move", "move 4... Rb7-d7"}, highlighted("Rb7-d7"))
	s.send("x")
	s.expect("out of the variation", []string{"ply 6 · Sente to move", "main line"}, highlighted("Pb6-b5"))
	s.send("20\r")
	s.expect("jump", []string{"ply 20 · Sente to move", "move 10... Ia5-b7"}, highlighted("Ia5-b7"))
	s.send("k")
	s.expect("back", []string{"ply 19 · Gote to move"}, highlighted("Pa3-a4"))
	s.send("f")
	s.expect("flip", []string{"board flipped", "h  g  f  e  d  c  b  a", "Sente in hand: -"})
	s.send("q")
	if status := s.wait(); status != 0 {
		t.Errorf("exit status %d", status)
	}
	s.expect("quit", nil, regexp.MustCompile(`\x1b\[\?1049l`)) // back to the normal screen
}

// TestReplayTerminalRecordOnStdin: with the record on standard input, keys
// come from the terminal.
func TestReplayTerminalRecordOnStdin(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the command in a pseudo-terminal")
	}
	f, err := os.Open(filepath.Join(samples, "jetan", "club.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := startSession(t, f, "replay", "-")
	s.expect("start", []string{"Jetan · Plateau Jetan samples", "Xodar", "A-Kor", "start position"})
	s.send("\x1b[C\x1b[C") // → →
	s.expect("two plies on", []string{"ply 2 · Black to move", "move 1... e10-g8"}, highlighted("e10-g8"))
	s.send("\x1b[F") // End
	s.expect("end", []string{"end of the game: 1/2-1/2"})
	s.send("q")
	if status := s.wait(); status != 0 {
		t.Errorf("exit status %d", status)
	}
}

// TestReplayWithoutTerminal: a record on standard input with no terminal
// for keys shows the final position and every move.
func TestReplayWithoutTerminal(t *testing.T) {
	rec, err := os.ReadFile(filepath.Join(samples, "ogi", "osaka-club.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"replay", "-"}, {"replay"}} {
		app := newApp()
		var out, errw bytes.Buffer
		app.Writer, app.ErrWriter, app.Reader = &out, &errw, bytes.NewReader(rec)
		if err := app.Run(append([]string{"plateau"}, args...)); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Tanaka, Haruki vs Fujii, Sora: 1-0", "ply 51, Gote to move", "moves: 1. Rg2-f2 Id8-c7", "▶Pg3-g4"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out.String())
			}
		}
	}
}

// TestReplayByID: replay opens a database game by its id, in the line mode
// and full screen.
func TestReplayByID(t *testing.T) {
	db := importSamples(t)
	id := firstID(t, mustRun(t, "search", "--db", db, "--player", "komayo"))
	app := newApp()
	var out bytes.Buffer
	app.Writer, app.ErrWriter, app.Reader = &out, &out, strings.NewReader("n\nq\n")
	if err := app.Run([]string{"plateau", "replay", "--db", db, "#" + id}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "ply 1, after 1.") {
		t.Errorf("replay #%s in the line mode:\n%s", id, out.String())
	}
	if testing.Short() {
		return
	}
	s := startSession(t, nil, "--db", db, "replay", id)
	s.expect("start", []string{"Ōgi · ", "Komay", "start position"})
	s.send("l")
	s.expect("one ply on", []string{"ply 1 · "})
	s.send("q")
	if status := s.wait(); status != 0 {
		t.Errorf("exit status %d", status)
	}
}

// TestReplayTerminalCollection: on a file of several games the replayer
// shows the game's number and the piece legend, moves to the next and previous game with ] and
// [, and opens the game list (o), where a number then Enter opens a game.
func TestReplayTerminalCollection(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the command in a pseudo-terminal")
	}
	s := startSession(t, nil, "replay", filepath.Join(samples, "jetan", "club.pdn"), "--game", "3")
	s.expect("game 3", []string{"game 3 of 20 · Jetan", "Dejah Thoris", "Carthoris", "[/] game · o list", "pieces (Black upper case, Orange lower case):", "A Padwar"})
	s.send("]")
	s.expect("next game", []string{"game 4 of 20 · Jetan", "Sola", "Xodar"})
	s.send("[[")
	s.expect("two games back", []string{"game 2 of 20 · Jetan", "E-Med", "Tara of Helium"})
	s.send("[")
	s.expect("first game", []string{"game 1 of 20"})
	s.send("[")
	s.expect("no game before the first", []string{"no game 0: the file has games 1 to 20"})
	s.send("o")
	s.expect("game list", []string{"games of the file (20)", " 1  Xodar – A-Kor  1/2-1/2  Plateau Jetan samples", "20  E-Med – Tara of Helium  0-1"})
	s.send("17\r")
	s.expect("game 17 from the list", []string{"game 17 of 20 · Jetan", "Tara of Helium", "Tars Tarkas"})
	s.send("q")
	if status := s.wait(); status != 0 {
		t.Errorf("exit status %d", status)
	}
}

// TestReplayTerminalCollectionOnStdin: a collection on standard input is
// replayed as a file's (its game's number, the next game, the game list),
// with keys from the terminal; the temporary copy of standard input is
// removed at the end.
func TestReplayTerminalCollectionOnStdin(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the command in a pseudo-terminal")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	f, err := os.Open(filepath.Join(samples, "jetan", "club.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := startSession(t, f, "replay", "-", "--game", "3")
	s.expect("game 3", []string{"game 3 of 20 · Jetan", "Dejah Thoris", "Carthoris", "[/] game · o list"})
	s.send("]")
	s.expect("next game", []string{"game 4 of 20 · Jetan", "Sola", "Xodar"})
	s.send("o")
	s.expect("game list", []string{"games of the file (20)", " 1  Xodar – A-Kor  1/2-1/2  Plateau Jetan samples", "20  E-Med – Tara of Helium  0-1"})
	s.send("17\r")
	s.expect("game 17 from the list", []string{"game 17 of 20 · Jetan", "Tara of Helium", "Tars Tarkas"})
	s.send("q")
	if status := s.wait(); status != 0 {
		t.Errorf("exit status %d", status)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}

// TestSpoolBound: standard input is copied for the replayer up to its
// bound, and more is an error that says what to do.
func TestSpoolBound(t *testing.T) {
	dir := t.TempDir()
	if err := spool(filepath.Join(dir, "a"), strings.NewReader("0123456789"), 10); err != nil {
		t.Errorf("10 bytes of 10: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a")); string(b) != "0123456789" {
		t.Errorf("copied %q", b)
	}
	if err := spool(filepath.Join(dir, "b"), strings.NewReader("0123456789x"), 10); !errors.Is(err, errSpoolFull) {
		t.Errorf("11 bytes of 10: %v, want errSpoolFull", err)
	}
}
