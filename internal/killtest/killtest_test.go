package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/hostile"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/internal/longtest"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// TestMain is also the import, the reindex and the saves that the test
// kills: with KILLTEST_CHILD set to "db|file|tx" it imports (telling its
// notices on stderr, as plateau import does), with "reindex|db" it
// reindexes, with "save|db|from|steps" it saves (saveStream), and exits.
func TestMain(m *testing.M) {
	if arg := os.Getenv("KILLTEST_CHILD"); arg != "" {
		f := strings.Split(arg, "|")
		notice := func(msg string) { fmt.Fprintln(os.Stderr, "plateau:", msg) }
		var err error
		if f[0] == "save" {
			os.Exit(saveChildMain(strings.Join(f[1:], "|")))
		}
		if f[0] == "reindex" {
			var db *index.DB
			if db, err = index.Open(context.Background(), f[1], index.Options{Notice: notice}); err == nil {
				_, err = db.Reindex(context.Background())
				err = errorsJoin(err, db.Close())
			}
		} else {
			tx, _ := strconv.Atoi(f[2])
			var db *index.DB
			if db, err = index.Open(context.Background(), f[0], index.Options{Notice: notice}); err == nil {
				_, err = ingest.Files(context.Background(), db, []string{f[1]}, ingest.Options{ImportOptions: index.ImportOptions{TxGames: tx}})
				err = errorsJoin(err, db.Close())
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// TestKills is the CI-sized run of the kill test: a few kills of an import
// of generated games and hostile inputs, each database checked, then
// compared with an uninterrupted import (scripts/killtest.sh runs more).
func TestKills(t *testing.T) {
	longtest.Skip(t)
	g, err := rules.Lookup("draughts")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, 4)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(context.Background(), &b, 1000, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	// The generated games and the hostile inputs (internal/hostile),
	// whose records must count the same after every kill.
	work := t.TempDir()
	file := filepath.Join(work, "in")
	hostiles := hostile.Files()
	if err := os.Mkdir(file, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(file, "0-generated.pdn"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := hostile.Write(file, hostiles); err != nil {
		t.Fatal(err)
	}
	cfg := config{file: file, work: work, kills: 3, tx: 100, rand: rand.New(rand.NewPCG(1, 2)),
		importCmd: func(db, file string, tx int) *exec.Cmd {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "KILLTEST_CHILD="+db+"|"+file+"|"+strconv.Itoa(tx))
			return cmd
		},
		reindexKills: 3,
		reindexCmd: func(db string) *exec.Cmd {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "KILLTEST_CHILD=reindex|"+db)
			return cmd
		},
		saveKills: 3,
		saveCmd: func(db string, from, steps int) *exec.Cmd {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "KILLTEST_CHILD=save|"+saveChildArg(db, from, steps))
			return cmd
		}}
	var log strings.Builder
	rep, err := run(context.Background(), cfg, &log)
	t.Logf("%s\n%s", log.String(), rep)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kills != cfg.kills || rep.Checks != rep.Kills || rep.Cycles == 0 || rep.Games != 1000+hostile.Count(hostiles).Records || rep.ReindexKills == 0 || rep.SaveKills == 0 {
		t.Fatalf("report %+v", rep)
	}
}
