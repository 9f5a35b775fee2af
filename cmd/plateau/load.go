package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// The commands that show or step through games (show, replay, export) take
// record files or database game ids. Decision: an argument is a game id when
// it is a number, written "12" or "#12" (as search and errors print them),
// unless no --db was given and a file of that name exists; the id is read
// from the database of --db (given before or after the command), else the
// default database. A game from the database is its stored canonical
// record, named "#ID" in messages.

// gameID reports whether arg names a database game, and its id.
func gameID(c *cli.Context, arg string) (int64, bool) {
	s := strings.TrimPrefix(arg, "#")
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, false
	}
	if !strings.HasPrefix(arg, "#") && dbDir(c) == "" {
		if _, err := os.Stat(arg); err == nil {
			return 0, false // a file named like a number
		}
	}
	return id, true
}

// dbDir is the --db of the command or of the app (plateau --db DIR CMD),
// "" for the default database.
func dbDir(c *cli.Context) string {
	for _, x := range c.Lineage() {
		if x.IsSet("db") {
			return x.String("db")
		}
	}
	return ""
}

// gameLoader reads games from files and from the database, opening the
// database (read-only) at the first id.
type gameLoader struct {
	c  *cli.Context
	db *index.DB
}

func (l *gameLoader) close() {
	if l.db != nil {
		l.db.Close()
		l.db = nil
	}
}

// dbGame reads the stored record of a database game. The error is an I/O
// or database error (no such database, no such game); a record that does
// not read is returned as the game error rerr.
func (l *gameLoader) dbGame(id int64) (g *record.Game, rerr, err error) {
	if l.db == nil {
		db, err := openDB(l.c, true)
		if err != nil {
			return nil, nil, err
		}
		l.db = db
	}
	text, err := l.db.Text(l.c.Context, id)
	if errors.Is(err, index.ErrNotFound) {
		return nil, nil, fmt.Errorf("no game #%d in the database %s", id, l.db.Dir())
	}
	if err != nil {
		return nil, nil, err
	}
	g, rerr = record.NewReader(bytes.NewReader(text), fmt.Sprintf("#%d", id)).Next()
	if errors.Is(rerr, io.EOF) {
		rerr = fmt.Errorf("#%d: the stored record is empty", id)
	}
	if g != nil && g.Tag("Opening") == "" && g.Tag("ECO") == "" {
		// The game's opening by the database's names, as dbexport writes
		// it: a record's own Opening or ECO tag is kept as it is.
		names, err := l.db.GameOpenings(l.c.Context, []int64{id})
		if err != nil {
			return nil, nil, err
		}
		if name, ok := names[id]; ok {
			code, rest := index.SplitOpeningCode(name)
			g.SetTag("Opening", rest)
			if code != "" {
				g.SetTag("ECO", code)
			}
		}
	}
	return g, rerr, nil
}

// eachGameArg is eachGame over arguments that may also be database ids: fn
// is called for every game of every file, in order, and for every id with
// file "#ID" and n 1. opts are the replay options of the command
// (readOpts.ahead).
func eachGameArg(c *cli.Context, opts replay.Options, args []string, fn func(file string, n int, g *record.Game, err error) error) error {
	o, err := readOptsOf(c)
	if err != nil {
		return err
	}
	o.ahead = opts
	l := gameLoader{c: c}
	defer l.close()
	var files []string
	failed := 0 // files that could not be read (reported)
	flush := func() error {
		if len(files) == 0 {
			return nil
		}
		err := eachGame(o, files, fn)
		files = nil
		var fe *filesError
		if errors.As(err, &fe) {
			failed += fe.n
			return nil
		}
		return err
	}
	for _, a := range args {
		id, ok := gameID(c, a)
		if !ok {
			files = append(files, a)
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		g, rerr, err := l.dbGame(id)
		if err != nil {
			return err
		}
		if err := fn(fmt.Sprintf("#%d", id), 1, g, rerr); err != nil {
			return err
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if failed > 0 {
		return &filesError{failed}
	}
	return nil
}

// loadGame returns the game that show or replay works on: the n-th game
// (1-based; 0 means 1) of the file arg, or the database game arg (n must
// then be 0 or 1); a file's game carries its file's evidence for opts
// (readOpts.ahead). The error is a cli exit error: status 2 for usage and
// I/O, 1 for a record that does not read.
func loadGame(c *cli.Context, opts replay.Options, arg string, n int) (*record.Game, error) {
	if n == 0 {
		n = 1
	}
	if id, ok := gameID(c, arg); ok {
		if n != 1 {
			return nil, cli.Exit(fmt.Sprintf("%s: --game applies to files; #%d is one game of the database", c.Command.Name, id), exitUsage)
		}
		l := gameLoader{c: c}
		defer l.close()
		g, rerr, err := l.dbGame(id)
		if err != nil {
			return nil, cli.Exit(err, exitUsage)
		}
		if rerr != nil {
			return nil, cli.Exit(rerr, exitInvalid)
		}
		return g, nil
	}
	o, err := readOptsOf(c)
	if err != nil {
		return nil, err
	}
	o.ahead = opts
	ix, err := newGameIndex(arg, o)
	if err != nil {
		return nil, cli.Exit(err, exitUsage)
	}
	defer ix.close()
	rec, rerr, err := fileGame(c, ix, n)
	if err != nil {
		return nil, err
	}
	if rerr != nil {
		return nil, cli.Exit(rerr, exitInvalid)
	}
	return rec, nil
}

// fileGame reads game n (1-based) of an index, which reads on to it. The
// error is a cli exit error (status 2); a record that does not read is
// returned as rerr.
func fileGame(c *cli.Context, ix *gameIndex, n int) (rec *record.Game, rerr, err error) {
	if err := ix.extend(n); err != nil {
		return nil, nil, cli.Exit(err, exitUsage)
	}
	if n < 1 || n > ix.Len() {
		return nil, nil, cli.Exit(fmt.Sprintf("%s: %s has %d games, no game %d", c.Command.Name, ix.arg, ix.Len(), n), exitUsage)
	}
	rec, rerr, err = ix.game(n - 1)
	if err != nil {
		return nil, nil, cli.Exit(err, exitUsage)
	}
	return rec, rerr, nil
}
