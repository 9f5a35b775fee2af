package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
)

// edit: a stored game's record in the user's editor, saved as a new
// revision. Decisions, as git commit does: the editor is $VISUAL, else
// $EDITOR, else vi, run through sh so that it may carry arguments; the
// file holds the record alone (instructions go to standard error, since a
// comment in the file would be part of the record); a file left unchanged
// or emptied saves nothing (exit 0). An invalid record shows its first
// error with its line and asks: edit again, save it invalid (kept with its
// error, as an import keeps one) or abort; end of input aborts. A save
// made while someone else saved the game keeps the file, names it and
// saves nothing (exit 1).

func editCommand() *cli.Command {
	return &cli.Command{
		Name:      "edit",
		Usage:     "edit a stored game's record in $VISUAL or $EDITOR and save it as a new revision",
		ArgsUsage: "ID",
		Description: `The game's canonical record opens in $VISUAL, else $EDITOR, else vi. Save and
quit to store it as the game's next revision (plateau history lists them; the
position index, opening tree and text search follow at once); leave it
unchanged, or empty, to save nothing. An invalid record shows its first error
and asks whether to edit again, save it invalid or abort.`,
		Flags:  []cli.Flag{dbFlag()},
		Action: editAction,
	}
}

// editSession is one plateau edit: the game, the revision its text was
// read at, the file the editor works on and the answers' reader.
type editSession struct {
	c      *cli.Context
	db     *index.DB
	id     int64
	rev    int
	orig   []byte
	path   string
	answer *bufio.Reader
}

func editAction(c *cli.Context) error {
	ids, err := idArgs(c)
	if err != nil {
		return err
	}
	if len(ids) != 1 {
		return cli.Exit("edit: name one game id", exitUsage)
	}
	db, err := openDB(c, false)
	if err != nil {
		return err
	}
	defer db.Close()
	s := &editSession{c: c, db: db, id: ids[0], answer: bufio.NewReader(c.App.Reader)}
	s.rev, s.orig, err = db.CurrentRevision(c.Context, s.id)
	if errors.Is(err, index.ErrNotFound) {
		return cli.Exit(fmt.Sprintf("edit: no game #%d in the database %s", s.id, db.Dir()), exitUsage)
	}
	if err != nil {
		return exitErr(err)
	}
	s.orig = record.PDN(s.orig) // as export writes it (PDN 3.0)
	f, err := os.CreateTemp("", fmt.Sprintf("plateau-%d-*.pdn", s.id))
	if err == nil {
		s.path = f.Name()
		_, err = f.Write(s.orig)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return cli.Exit(fmt.Sprintf("edit: %v", err), exitUsage)
	}
	return s.loop()
}

// loop runs the editor until the record is saved or the user gives up.
func (s *editSession) loop() error {
	keep := false // the file outlives the session (a conflict)
	defer func() {
		if !keep {
			os.Remove(s.path)
		}
	}()
	for {
		text, done, err := s.edit()
		if done || err != nil {
			return err
		}
		again, err := s.check(text)
		var ce *conflictExit
		keep = errors.As(err, &ce)
		if err != nil || !again {
			return err
		}
	}
}

// conflictExit is the exit error of a save that met another one: the
// file edited is kept.
type conflictExit struct{ cli.ExitCoder }

// edit runs the editor on the file and reads it back; done when nothing
// is to be saved (unchanged or empty), which it says.
func (s *editSession) edit() (text []byte, done bool, err error) {
	editor := editorCommand()
	fmt.Fprintf(s.c.App.ErrWriter, "plateau: editing game #%d (revision %d) with %s: save and quit to store it; leave it unchanged to cancel\n", s.id, s.rev, editor)
	if err := runEditor(editor, s.path); err != nil {
		return nil, true, cli.Exit(fmt.Sprintf("edit: the editor failed (%v): nothing saved", err), exitUsage)
	}
	text, err = os.ReadFile(s.path)
	if err != nil {
		return nil, true, cli.Exit(fmt.Sprintf("edit: %v", err), exitUsage)
	}
	switch {
	case len(bytes.TrimSpace(text)) == 0:
		fmt.Fprintf(s.c.App.Writer, "#%d: the record is empty: nothing saved\n", s.id)
		return nil, true, nil
	case bytes.Equal(bytes.TrimSpace(text), bytes.TrimSpace(s.orig)):
		fmt.Fprintf(s.c.App.Writer, "#%d: unchanged: nothing saved\n", s.id)
		return nil, true, nil
	}
	return text, false, nil
}

// check validates text as the game's record and saves it, asking first
// when it is invalid; again asks for another round in the editor.
func (s *editSession) check(text []byte) (again bool, err error) {
	ctx := s.c.Context
	res, err := s.db.CheckRecord(ctx, s.id, text)
	if errors.Is(err, index.ErrNotOneRecord) {
		return s.ask(err.Error(), false)
	}
	if err != nil {
		return false, exitErr(err)
	}
	if !res.Changed {
		fmt.Fprintf(s.c.App.Writer, "#%d: the record reads as the stored one: nothing saved\n", s.id)
		return false, nil
	}
	if !res.Valid {
		if again, err := s.ask(faultText(res.Fault), true); again || err != nil {
			return again, err
		}
	}
	return false, s.save(text)
}

// ask shows what is wrong with the record and asks what to do: true to
// edit again; nil error and false to save it invalid; an exit error to
// abort.
func (s *editSession) ask(problem string, canSave bool) (again bool, err error) {
	w := s.c.App.ErrWriter
	fmt.Fprintf(w, "plateau: #%d: %s\n", s.id, problem)
	for {
		if canSave {
			fmt.Fprint(w, "(e)dit again, (s)ave it invalid, (a)bort? [e] ")
		} else {
			fmt.Fprint(w, "(e)dit again, (a)bort? [e] ")
		}
		line, rerr := s.answer.ReadString('\n')
		a := strings.ToLower(strings.TrimSpace(line))
		switch {
		case a == "" && rerr == nil, a == "e", a == "edit":
			return true, nil
		case canSave && (a == "s" || a == "save"):
			return false, nil
		case a == "a", a == "abort", rerr != nil:
			if rerr == io.EOF {
				fmt.Fprintln(w)
			}
			return false, cli.Exit(fmt.Sprintf("edit: aborted: game #%d not saved", s.id), exitInvalid)
		}
	}
}

// save stores text as the game's next revision and says what happened.
func (s *editSession) save(text []byte) error {
	res, err := s.db.SaveRecord(s.c.Context, s.id, text, s.rev)
	var ce *index.ConflictError
	if errors.As(err, &ce) {
		return &conflictExit{cli.Exit(fmt.Sprintf("edit: game #%d was saved by someone else meanwhile (revision %d; you edited revision %d): nothing saved; your text is in %s (plateau history %d, then plateau edit %d again)",
			s.id, ce.Current, ce.Base, s.path, s.id, s.id), exitInvalid)}
	}
	if err != nil {
		return exitErr(err)
	}
	if res.Valid {
		fmt.Fprintf(s.c.App.Writer, "#%d: revision %d saved (%s)\n", s.id, res.Revision, res.Note)
		return nil
	}
	fmt.Fprintf(s.c.App.Writer, "#%d: revision %d saved invalid (%s): %s\n", s.id, res.Revision, res.Note, faultText(res.Fault))
	return cli.Exit("", exitInvalid)
}

// faultText is a record's first error with its line and column.
func faultText(f *index.RecordFault) string {
	if f == nil {
		return "invalid record"
	}
	switch {
	case f.Line > 0 && f.Col > 0:
		return fmt.Sprintf("line %d, column %d: %s", f.Line, f.Col, f.Msg)
	case f.Line > 0:
		return fmt.Sprintf("line %d: %s", f.Line, f.Msg)
	}
	return f.Msg
}

// editorCommand is the user's editor: $VISUAL, else $EDITOR, else vi.
func editorCommand() string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if e := strings.TrimSpace(os.Getenv(v)); e != "" {
			return e
		}
	}
	return "vi"
}

// runEditor runs editor on path with the terminal, through sh as git
// does, so that an editor given with arguments ("code --wait") works.
func runEditor(editor, path string) error {
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		cmd = exec.Command(editor, path)
	} else {
		cmd = exec.Command("sh", "-c", editor+` "$@"`, editor, path)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}
