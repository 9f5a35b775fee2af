package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/rules"
)

// The probe in a process of its own. A server that users query runs apart
// from the import that fills its database; measured in one process, the
// queries also waited for the import's garbage collections and for its
// goroutines on the same Go scheduler, and no priority can separate them.
// With Config.ProbeCommand the bench starts that command (the same program,
// running ServeProbe) and talks to it over its standard input and output,
// one line each way per step:
//
//	bench → probe  a probeRequest (JSON): database, game, pace, positions
//	probe → bench  "ready": the database is open and the first query begun
//	bench → probe  "stop": the import is over; the paced queries stop
//	bench → probe  "again": the database is closed by the import; the same
//	               queries run again, at the same pace, on a new handle
//	probe → bench  a probeResult (JSON)

type probeRequest struct {
	Dir       string
	Game      string
	Every     time.Duration
	Positions []string // in the game's position notation
	Trees     []string
}

type probeResult struct {
	N         int
	Wall      time.Duration
	During    [2][]time.Duration
	After     [2][]time.Duration
	AfterWall time.Duration
	AfterCPU  time.Duration
	AfterRSS  int64
	Runs      []int // position runs during the import (probe.runs)
	AfterRuns int
	Err       string
}

// ServeProbe is the probe's side (`plateau bench-probe`): it reads the
// request from in, runs the queries and writes the result to out.
func ServeProbe(ctx context.Context, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<30)
	line := func() (string, error) {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return "", err
			}
			return "", io.ErrUnexpectedEOF
		}
		return sc.Text(), nil
	}
	l, err := line()
	if err != nil {
		return fmt.Errorf("probe request: %w", err)
	}
	var req probeRequest
	if err := json.Unmarshal([]byte(l), &req); err != nil {
		return fmt.Errorf("probe request: %w", err)
	}
	g, err := rules.Lookup(req.Game)
	if err != nil {
		return err
	}
	p := &probe{game: g.ID(), every: req.Every}
	for _, list := range []struct {
		from []string
		to   *[]rules.Position
	}{{req.Positions, &p.positions}, {req.Trees, &p.trees}} {
		for _, s := range list.from {
			pos, err := g.NewPosition(s)
			if err != nil {
				return fmt.Errorf("probe position %q: %w", s, err)
			}
			*list.to = append(*list.to, pos)
		}
	}
	db, err := index.Open(ctx, req.Dir, index.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	p.db = db
	stop := p.start(ctx)
	fmt.Fprintln(out, "ready")
	var res probeResult
	if l, err = line(); err != nil || l != "stop" {
		stop()
		return fmt.Errorf("probe: %q instead of stop (%v)", l, err)
	}
	if err := stop(); err != nil {
		res.Err = err.Error()
	}
	db.Close() // the queries run again on a new handle
	res.N, res.Wall, res.During, res.Runs = p.n, p.wall, p.lat, p.runs
	if l, err = line(); err != nil || l != "again" {
		return fmt.Errorf("probe: %q instead of again (%v)", l, err)
	}
	if res.Err == "" {
		var st Stage
		res.After, st, err = p.again(ctx, req.Dir)
		if err != nil {
			res.Err = err.Error()
		}
		res.AfterWall, res.AfterCPU, res.AfterRSS, res.AfterRuns = st.Wall, st.CPU, st.PeakRSS, p.afterRuns
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", b)
	return err
}

// probeProc is the bench's side of a probe process.
type probeProc struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	res  probeResult
	done bool
}

// startProbeProc starts the probe process on dir and waits until its first
// query has begun.
func startProbeProc(ctx context.Context, cmd *exec.Cmd, dir string, p *probe) (*probeProc, error) {
	req := probeRequest{Dir: dir, Game: p.game, Every: p.every}
	for _, pos := range p.positions {
		req.Positions = append(req.Positions, pos.String())
	}
	for _, pos := range p.trees {
		req.Trees = append(req.Trees, pos.String())
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("probe process: %w", err)
	}
	pp := &probeProc{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	pp.out.Buffer(nil, 1<<30)
	if _, err := fmt.Fprintf(in, "%s\n", b); err != nil {
		return nil, pp.fail(err)
	}
	if !pp.out.Scan() || pp.out.Text() != "ready" {
		return nil, pp.fail(errors.New("no ready line"))
	}
	return pp, nil
}

// fail ends the process and says why it failed.
func (pp *probeProc) fail(err error) error {
	pp.in.Close()
	werr := pp.cmd.Wait()
	pp.done = true
	return fmt.Errorf("probe process: %v (exit: %v)", err, werr)
}

// stop ends the paced queries; again runs them once more and collects
// every figure.
func (pp *probeProc) stop() error {
	_, err := fmt.Fprintln(pp.in, "stop")
	return err
}

func (pp *probeProc) again() (probeResult, error) {
	if _, err := fmt.Fprintln(pp.in, "again"); err != nil {
		return probeResult{}, pp.fail(err)
	}
	if !pp.out.Scan() {
		return probeResult{}, pp.fail(fmt.Errorf("no result: %v", pp.out.Err()))
	}
	var res probeResult
	if err := json.Unmarshal(pp.out.Bytes(), &res); err != nil {
		return res, pp.fail(err)
	}
	pp.in.Close()
	if err := pp.cmd.Wait(); err != nil {
		return res, fmt.Errorf("probe process: %w", err)
	}
	pp.done = true
	if res.Err != "" {
		return res, errors.New(res.Err)
	}
	return res, nil
}

// close ends a process not waited for yet (an import that failed).
func (pp *probeProc) close() {
	if !pp.done {
		pp.in.Close()
		pp.cmd.Process.Kill()
		pp.cmd.Wait()
		pp.done = true
	}
}
