// Command killtest kills imports and checks what they leave: it imports a
// record file into a database while killing the import with SIGKILL at
// random moments, checks the database after every kill (SQLite's
// integrity_check; every stored game has its positions and opening-tree
// rows; the text index holds only stored games), runs the import again to
// its end, and compares the database with one made by an uninterrupted
// import: game count, the hash of every record as dbexport writes them,
// and a text query. Then it kills reindexes of that database: after each
// kill a reader must say how much of the store the text index holds, and
// the next import must say that it completes it, and complete it. Then it
// kills streams of saves (index.DB.SaveRecord: edit, tag, the web page's
// saves) on a copy of it: after each kill every game must be whole at one
// revision, its first or one the stream made (saves.go).
//
//	go run ./internal/killtest -plateau BIN -file g.pdn [-kills 20] [-reindex-kills 5] [-save-kills 5] [-tx 200] [-seed 1]
//
// scripts/killtest.sh builds plateau, generates the file and runs it.
//
// Decisions: a kill falls uniformly between 0 and 1.2 times the
// uninterrupted import's time, so that kills fall in every phase of an
// import (opening, replaying games already stored, commits, the text index,
// the last commit and merges); when an import ends before its kill, the
// database is compared and a new cycle starts from an empty database,
// until the kills are done.
package main

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/mattn/go-sqlite3" // the tables are checked directly
	"github.com/plateau/plateau/index"
	_ "github.com/plateau/plateau/rules/all"
)

func main() {
	var cfg config
	bin := flag.String("plateau", "plateau", "the plateau binary")
	flag.StringVar(&cfg.file, "file", "", "record file to import (plateau generate makes one)")
	flag.StringVar(&cfg.work, "work", "", "folder for the databases (default: a temporary one, removed)")
	flag.IntVar(&cfg.kills, "kills", 20, "number of kills")
	flag.IntVar(&cfg.tx, "tx", 200, "games per transaction of the import")
	flag.IntVar(&cfg.reindexKills, "reindex-kills", 5, "reindexes killed after the imports' kills")
	flag.IntVar(&cfg.saveKills, "save-kills", 5, "save streams killed after the reindexes' kills")
	seed := flag.Uint64("seed", 1, "random seed of the kill moments")
	saveChild := flag.String("save-child", "", "(the save stream killed: database, first save, saves)")
	flag.Parse()
	if *saveChild != "" {
		os.Exit(saveChildMain(*saveChild))
	}
	if cfg.file == "" {
		fmt.Fprintln(os.Stderr, "killtest: -file is required")
		os.Exit(2)
	}
	cfg.rand = rand.New(rand.NewPCG(*seed, 7))
	cfg.importCmd = func(db, file string, tx int) *exec.Cmd {
		return exec.Command(*bin, "import", "--quiet", "--tx", fmt.Sprint(tx), "--db", db, file)
	}
	cfg.reindexCmd = func(db string) *exec.Cmd { return exec.Command(*bin, "reindex", "--db", db) }
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "killtest:", err)
		os.Exit(2)
	}
	cfg.saveCmd = func(db string, from, steps int) *exec.Cmd {
		return exec.Command(self, "-save-child", saveChildArg(db, from, steps))
	}
	if cfg.work == "" {
		d, err := os.MkdirTemp("", "killtest")
		if err != nil {
			fmt.Fprintln(os.Stderr, "killtest:", err)
			os.Exit(2)
		}
		defer os.RemoveAll(d)
		cfg.work = d
	}
	rep, err := run(context.Background(), cfg, os.Stdout)
	fmt.Println(rep)
	if err != nil {
		fmt.Fprintln(os.Stderr, "killtest:", err)
		os.Exit(1)
	}
}

type config struct {
	file, work string
	kills, tx  int
	rand       *rand.Rand
	// importCmd is the command importing file into the database db.
	importCmd func(db, file string, tx int) *exec.Cmd
	// reindexKills reindexes of the last database are killed (after the
	// import kills), each by reindexCmd.
	reindexKills int
	reindexCmd   func(db string) *exec.Cmd
	// saveKills save streams are killed (after the reindexes), each
	// saveCmd: the saves from, …, from+steps-1 on the database db
	// (saveStream).
	saveKills int
	saveCmd   func(db string, from, steps int) *exec.Cmd
}

// report is what a run found.
type report struct {
	Kills       int           // imports killed
	Checks      int           // databases checked after a kill
	Failures    int           // checks or comparisons that failed
	Cycles      int           // imports run to their end and compared
	Games       int           // of the uninterrupted import
	Uninterrupt time.Duration // its time
	Hash        string        // of its records
	// ReindexKills are the reindexes killed, each database checked and
	// completed by an import.
	ReindexKills int
	// SaveKills are the save streams killed, each database checked game
	// by game (killSaves).
	SaveKills int
}

func (r report) String() string {
	return fmt.Sprintf("kills %d, checks %d, cycles compared %d, reindex kills %d, save kills %d, failures %d; reference: %d games in %.1fs, records sha256 %.16s…",
		r.Kills, r.Checks, r.Cycles, r.ReindexKills, r.SaveKills, r.Failures, r.Games, r.Uninterrupt.Seconds(), r.Hash)
}

// fingerprint is what two databases of the same file must share.
type fingerprint struct {
	games int
	hash  string
	text  []int64 // ids of a text query
}

// run kills imports as cfg says and checks them; log gets one line per
// kill. The error is the first failure.
func run(ctx context.Context, cfg config, log io.Writer) (report, error) {
	var rep report
	var first error
	fail := func(err error) {
		rep.Failures++
		fmt.Fprintln(log, "FAIL:", err)
		if first == nil {
			first = err
		}
	}
	// The uninterrupted import.
	ref := filepath.Join(cfg.work, "ref")
	start := time.Now()
	if out, err := cfg.importCmd(ref, cfg.file, cfg.tx).CombinedOutput(); err != nil {
		return rep, fmt.Errorf("uninterrupted import: %v: %s", err, out)
	}
	rep.Uninterrupt = time.Since(start)
	want, query, err := fingerprintOf(ctx, ref, "")
	if err != nil {
		return rep, fmt.Errorf("uninterrupted import: %w", err)
	}
	rep.Games, rep.Hash = want.games, want.hash
	fmt.Fprintf(log, "uninterrupted import: %d games in %.1fs; text query %q: %d games\n", want.games, rep.Uninterrupt.Seconds(), query, len(want.text))
	span := rep.Uninterrupt * 6 / 5

	var db string
	for rep.Kills < cfg.kills {
		rep.Cycles++
		db = filepath.Join(cfg.work, fmt.Sprintf("db%d", rep.Cycles))
		for rep.Kills < cfg.kills {
			wait := time.Duration(cfg.rand.Int64N(int64(span) + 1))
			killed, out, err := killAt(cfg.importCmd(db, cfg.file, cfg.tx), wait)
			if err != nil {
				fail(fmt.Errorf("import ended with %v: %s", err, out))
			}
			if !killed {
				break // the import ended before its kill
			}
			rep.Kills++
			stored, err := check(ctx, db)
			rep.Checks++
			if err != nil {
				fail(fmt.Errorf("after kill %d (%v into the import): %w", rep.Kills, wait.Round(time.Millisecond), err))
			}
			fmt.Fprintf(log, "kill %d at %v: %d games stored, consistent: %v\n", rep.Kills, wait.Round(time.Millisecond), stored, err == nil)
		}
		// Import to the end, then compare.
		if out, err := cfg.importCmd(db, cfg.file, cfg.tx).CombinedOutput(); err != nil {
			fail(fmt.Errorf("import after the kills: %v: %s", err, out))
			continue
		}
		got, _, err := fingerprintOf(ctx, db, query)
		switch {
		case err != nil:
			fail(err)
		case got.games != want.games || got.hash != want.hash || !slices.Equal(got.text, want.text):
			fail(fmt.Errorf("cycle %d: %d games, hash %.16s, text query %d games; uninterrupted: %d, %.16s, %d",
				rep.Cycles, got.games, got.hash, len(got.text), want.games, want.hash, len(want.text)))
		default:
			fmt.Fprintf(log, "cycle %d: the same %d games, records and text query as the uninterrupted import\n", rep.Cycles, got.games)
		}
	}
	if cfg.reindexKills > 0 && db != "" {
		killReindexes(ctx, cfg, db, want, query, &rep, log, fail)
	}
	if cfg.saveKills > 0 && db != "" {
		killSaves(ctx, cfg, db, want.games, query, &rep, log, fail)
	}
	return rep, first
}

// saveChildArg and saveChildMain pass a save stream to the process that
// makes it: "db|from|steps".
func saveChildArg(db string, from, steps int) string { return fmt.Sprintf("%s|%d|%d", db, from, steps) }

func saveChildMain(arg string) int {
	f := strings.Split(arg, "|")
	if len(f) != 3 {
		fmt.Fprintln(os.Stderr, "killtest: -save-child wants db|from|steps")
		return 2
	}
	from, err1 := strconv.Atoi(f[1])
	steps, err2 := strconv.Atoi(f[2])
	if err := errors.Join(err1, err2); err != nil {
		fmt.Fprintln(os.Stderr, "killtest:", err)
		return 2
	}
	if err := saveStream(context.Background(), f[0], from, steps); err != nil {
		fmt.Fprintln(os.Stderr, "killtest:", err)
		return 1
	}
	return 0
}

// killAt runs cmd and kills it with SIGKILL after wait unless it ended
// before; killed reports the kill, err an end of its own that failed.
func killAt(cmd *exec.Cmd, wait time.Duration) (killed bool, out string, err error) {
	var b strings.Builder
	cmd.Stdout, cmd.Stderr = &b, &b
	if err := cmd.Start(); err != nil {
		return false, "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(wait):
		cmd.Process.Signal(syscall.SIGKILL)
		err = <-done
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled() {
			return true, b.String(), nil
		}
	}
	return false, b.String(), err
}

// killReindexes kills reindexes of db, a complete database of cfg.file,
// at random moments (up to 1.2 times an uninterrupted reindex). After each
// kill a reader must say how much of the store the text index holds
// (index.TextCoverage: as many documents as a text query of every game
// finds, no more than the valid games); the next import must say that it
// completes a partial text index, and complete it: the database is then
// the uninterrupted import's, text query included.
func killReindexes(ctx context.Context, cfg config, db string, want fingerprint, query string, rep *report, log io.Writer, fail func(error)) {
	start := time.Now()
	if out, err := cfg.reindexCmd(db).CombinedOutput(); err != nil {
		fail(fmt.Errorf("uninterrupted reindex: %v: %s", err, out))
		return
	}
	span := time.Since(start) * 6 / 5
	for tries := 0; rep.ReindexKills < cfg.reindexKills && tries < 4*cfg.reindexKills; tries++ {
		wait := time.Duration(cfg.rand.Int64N(int64(span) + 1))
		killed, out, err := killAt(cfg.reindexCmd(db), wait)
		if err != nil {
			fail(fmt.Errorf("reindex ended with %v: %s", err, out))
		}
		if !killed {
			continue
		}
		rep.ReindexKills++
		cov, err := coverageSaid(ctx, db)
		if err != nil {
			fail(fmt.Errorf("after reindex kill %d (%v into it): %w", rep.ReindexKills, wait.Round(time.Millisecond), err))
			continue
		}
		imp, err := cfg.importCmd(db, cfg.file, cfg.tx).CombinedOutput()
		if err != nil {
			fail(fmt.Errorf("import after reindex kill %d: %v: %s", rep.ReindexKills, err, imp))
			continue
		}
		if cov.Missing() > 0 && !strings.Contains(string(imp), cov.String()) {
			fail(fmt.Errorf("after reindex kill %d, %s; the next import did not say so: %q", rep.ReindexKills, cov, imp))
		}
		got, _, err := fingerprintOf(ctx, db, query)
		if err == nil && (got.games != want.games || got.hash != want.hash || !slices.Equal(got.text, want.text)) {
			err = fmt.Errorf("%d games, text query %d games; uninterrupted: %d, %d", got.games, len(got.text), want.games, len(want.text))
		}
		if err != nil {
			fail(fmt.Errorf("after reindex kill %d and an import: %w", rep.ReindexKills, err))
		}
		fmt.Fprintf(log, "reindex kill %d at %v: %q; completed by the next import: %v\n", rep.ReindexKills, wait.Round(time.Millisecond), cov.String(), err == nil)
	}
}

// coverageSaid reads, as a reader would, how much of the store the text
// index of a killed reindex's database holds, and checks it against what a
// text query of every game answers.
func coverageSaid(ctx context.Context, dir string) (index.TextCoverage, error) {
	db, err := index.Open(ctx, dir, index.Options{ReadOnly: true})
	if err != nil {
		return index.TextCoverage{}, err
	}
	defer db.Close()
	cov, err := db.TextCoverage(ctx)
	if err != nil {
		return cov, fmt.Errorf("text coverage: %w", err)
	}
	ids, err := db.TextSearch(ctx, "*", 10*cov.Valid+10)
	if err != nil && !(errors.Is(err, index.ErrNotFound) && cov.Indexed == 0) {
		return cov, fmt.Errorf("text index: %w", err)
	}
	if len(ids) != cov.Indexed || cov.Indexed > cov.Valid {
		return cov, fmt.Errorf("the text index is said to hold %d of %d valid games; a text query of every game finds %d", cov.Indexed, cov.Valid, len(ids))
	}
	return cov, nil
}

// check opens a killed import's database as the next import would and
// checks it; it returns the number of games stored.
func check(ctx context.Context, dir string) (int, error) {
	if _, err := os.Stat(filepath.Join(dir, "plateau.sqlite")); err != nil {
		return 0, nil // killed before it was created
	}
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	// The tables are read directly, on a handle of their own: the
	// database's API has no integrity check nor counts by start.
	q, err := sql.Open("sqlite3", (&url.URL{Scheme: "file", Opaque: (&url.URL{Path: filepath.Join(dir, "plateau.sqlite")}).EscapedPath(), RawQuery: "mode=ro"}).String())
	if err != nil {
		return 0, err
	}
	defer q.Close()
	var ok string
	if err := q.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		return 0, fmt.Errorf("integrity_check: %s %v", ok, err)
	}
	var games, valid, withPos, treeGames int
	q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(valid), 0) FROM games`).Scan(&games, &valid)
	seen := map[int64]bool{}
	if err := db.ScanPositions(ctx, func(key, game int64, ply, vari int) error {
		seen[game] = true
		return nil
	}); err != nil {
		return 0, fmt.Errorf("position index: %w", err)
	}
	withPos = len(seen)
	if withPos != valid {
		return games, fmt.Errorf("%d valid games, %d with positions", valid, withPos)
	}
	// Each valid game passes once through its start position.
	rows, err := q.QueryContext(ctx, `SELECT game, fen IS NULL, COUNT(*) FROM games WHERE valid = 1 GROUP BY 1, 2`)
	if err != nil {
		return games, err
	}
	type key struct {
		game  string
		start bool
	}
	counts := map[key]int{}
	for rows.Next() {
		var k key
		var n int
		if err := rows.Scan(&k.game, &k.start, &n); err != nil {
			rows.Close()
			return games, err
		}
		counts[k] = n
	}
	rows.Close()
	for k, n := range counts {
		if !k.start {
			continue
		}
		start, err := index.Position(k.game, "")
		if err != nil {
			continue
		}
		tree, err := db.Tree(ctx, k.game, start)
		if err != nil {
			return games, err
		}
		treeGames = 0
		for _, m := range tree {
			treeGames += m.Games
		}
		if treeGames != n {
			return games, fmt.Errorf("%s: the opening tree counts %d games from the start, the store %d", k.game, treeGames, n)
		}
	}
	// The text index may lag behind (the next import catches up) but holds
	// no game that SQLite lacks.
	ids, err := db.TextSearch(ctx, "*", 10*games+10)
	if err != nil && !errors.Is(err, index.ErrNotFound) {
		return games, fmt.Errorf("text index: %w", err)
	}
	if len(ids) > valid {
		return games, fmt.Errorf("the text index holds %d games, SQLite %d valid ones", len(ids), valid)
	}
	return games, nil
}

// fingerprintOf reads the game count, the hash of every record in id order
// (valid ones, then invalid ones, as dbexport writes them) and the ids of
// a text query: query, or when "" the surname of the first game's first
// player (returned).
func fingerprintOf(ctx context.Context, dir, query string) (fingerprint, string, error) {
	var f fingerprint
	db, err := index.Open(ctx, dir, index.Options{ReadOnly: true})
	if err != nil {
		return f, query, err
	}
	defer db.Close()
	h := sha256.New()
	for _, invalid := range []bool{false, true} {
		err := db.Records(ctx, index.Query{Invalid: invalid, Limit: -1}, func(_ int64, text []byte) error {
			f.games++
			h.Write(text)
			return nil
		})
		if err != nil {
			return f, query, err
		}
	}
	f.hash = hex.EncodeToString(h.Sum(nil))
	if query == "" {
		res, err := db.Search(ctx, index.Query{Limit: 1})
		if err != nil || len(res.Hits) == 0 {
			return f, query, fmt.Errorf("no game to take a name from: %v", err)
		}
		name, _, _ := strings.Cut(res.Hits[0].Players[0], ",")
		query = "players:" + strings.ToLower(strings.Fields(name + " x")[0])
	}
	f.text, err = db.TextSearch(ctx, query, 10*f.games+10)
	slices.Sort(f.text)
	return f, query, err
}
