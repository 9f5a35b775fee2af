package main

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/tui"
	"github.com/plateau/plateau/rules"
)

// replayFile runs the full-screen replayer on game n (1-based) of a file,
// with the file's other games a key away. The file is indexed up to game n
// before the screen opens, and on in the background while the replayer
// runs (a file of a million games opens as fast as its first games read);
// each game is read from its offset when shown (gameIndex).
// Keys are read from in; name is the file's in messages.
func replayFile(c *cli.Context, arg, name string, n int, opts replay.Options, in io.Reader) error {
	o, err := readOptsOf(c)
	if err != nil {
		return err
	}
	// Files that cannot be read are reported after the replayer has left
	// the screen, not written over it.
	var reports bytes.Buffer
	o.errw = &reports
	o.ahead = opts
	defer func() { io.Copy(c.App.ErrWriter, &reports) }()
	ix, err := newGameIndex(arg, o)
	if err != nil {
		return cli.Exit(err, exitUsage)
	}
	fg := &fileGames{ix: ix, opts: opts, stop: make(chan struct{}), done: make(chan struct{})}
	defer fg.close()
	if err := ix.extend(n); err != nil {
		return cli.Exit(err, exitUsage)
	}
	if n > ix.Len() {
		return cli.Exit(fmt.Sprintf("replay: %s has %d games, no game %d", name, ix.Len(), n), exitUsage)
	}
	if _, err := fg.Game(n - 1); err != nil {
		return cli.Exit(err, exitInvalid)
	}
	fg.start()
	if err := tui.RunGames(fg, n-1, in, c.App.Writer); err != nil {
		return cli.Exit(fmt.Sprintf("replay: %v", err), exitUsage)
	}
	return nil
}

// fileGames are the games of an indexed file, as the replayer asks for
// them, while index reads the rest of the file (mu guards the index).
type fileGames struct {
	mu   sync.Mutex
	ix   *gameIndex
	opts replay.Options
	stop chan struct{} // closed to stop index
	done chan struct{} // closed when index has returned
	// running says index was started (set and read by the command's
	// goroutine only).
	running bool
}

// indexStep is how many games index reads at a time, between which the
// replayer may read a game.
const indexStep = 50

// index reads the file on to its end (or until stopped).
func (f *fileGames) index() {
	defer close(f.done)
	for {
		select {
		case <-f.stop:
			return
		default:
		}
		f.mu.Lock()
		err := f.ix.extend(f.ix.Len() + indexStep)
		complete := f.ix.complete()
		f.mu.Unlock()
		if err != nil || complete {
			return
		}
	}
}

// start starts index.
func (f *fileGames) start() {
	f.running = true
	go f.index()
}

// close stops index, waits for it, and releases the file.
func (f *fileGames) close() {
	close(f.stop)
	if f.running {
		<-f.done
	}
	f.ix.close()
}

func (f *fileGames) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ix.Len()
}

// Complete reports whether the whole file is indexed.
func (f *fileGames) Complete() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ix.complete()
}

// Title is a game's players, result, event, date and round, from the
// index's tags (the game is not read).
func (f *fileGames) Title(i int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := func(name string) string { return orDash(f.ix.tag(i, name)) }
	sides := sidesOfTags(f.ix.tag(i, "Game"), f.ix.tag(i, "GameType"))
	s := fmt.Sprintf("%s – %s  %s  %s", t(sides[0]), t(sides[1]), t("Result"), t("Event"))
	if d := f.ix.tag(i, "Date"); orDash(d) != "—" {
		s += "  " + d
	}
	if r := f.ix.tag(i, "Round"); orDash(r) != "—" {
		s += "  round " + r
	}
	if f.ix.games[i].err != nil {
		s += "  (does not read)"
	}
	return s
}

func (f *fileGames) Game(i int) (*replay.Game, error) {
	f.mu.Lock()
	rec, rerr, err := f.ix.game(i)
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if rerr != nil {
		return nil, rerr
	}
	g := replay.Replay(rec, f.opts)
	if g.Start == nil {
		return nil, g.Err
	}
	return g, nil
}

// sidesOfTags are the side tags of the ruleset a record's Game or
// GameType tag names; White and Black when it names none known.
func sidesOfTags(game, gameType string) [2]string {
	for _, id := range []string{game, gameType} {
		if id == "" {
			continue
		}
		if rg, err := rules.Lookup(id); err == nil {
			return rg.Sides()
		}
	}
	return [2]string{"White", "Black"}
}
