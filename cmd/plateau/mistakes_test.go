package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCommonMistakes: a misspelt command, flag or ruleset is told in one
// line with the likely right spelling and exit 2, never the full help; an
// id of no game makes delete fail (exit 1) without deleting anything; tag
// refuses a side the game's ruleset does not have unless --force; a side
// name that is first in some rulesets and second in others names them.
func TestCommonMistakes(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, filepath.Join(samples, "ogi", "osaka-club.pdn"), filepath.Join(samples, "jetan", "club.pdn"))
	ogi := strings.TrimSpace(mustRun(t, "search", "--db", db, "--game", "ogi", "--format", "ids", "--limit", "1"))
	club := filepath.Join(samples, "jetan", "club.pdn")
	for _, tt := range []struct {
		name   string
		args   []string
		status int
		want   string // in the error output
	}{
		{"misspelt command", []string{"serach", "--player", "x"}, exitUsage, `"serach" is not a plateau command; did you mean "search"?`},
		{"misspelt help topic", []string{"--db", db, "help", "serach"}, exitUsage, `no help topic "serach": it is not a plateau command; did you mean "search"?`},
		{"unknown command", []string{"zzzzzz"}, exitUsage, `"zzzzzz" is not a plateau command (plateau help lists the commands)`},
		{"misspelt flag", []string{"show", "--gmae", "3", club}, exitUsage, "show: unknown flag --gmae; did you mean --game?"},
		{"misspelt global flag", []string{"--dbb", db, "info"}, exitUsage, "unknown flag --dbb; did you mean --db?"},
		{"misspelt subcommand flag", []string{"search", "--db", db, "--playr", "x"}, exitUsage, "search: unknown flag --playr; did you mean --player?"},
		{"bad flag value", []string{"show", "--game", "x", club}, exitUsage, `show: invalid value "x" for flag -game`},
		{"search --game ogii", []string{"search", "--db", db, "--game", "ogii"}, exitUsage, `--game "ogii": unknown game; did you mean ogi?`},
		{"dbexport --game ogii", []string{"dbexport", "--db", db, "--game", "ogii"}, exitUsage, `--game "ogii": unknown game`},
		{"crosstable --game ogii", []string{"crosstable", "--db", db, "--game", "ogii"}, exitUsage, `--game "ogii": unknown game`},
		{"delete --game ogii", []string{"delete", "--db", db, "--game", "ogii"}, exitUsage, `--game "ogii": unknown game`},
		{"tree --game ogii", []string{"tree", "--db", db, "--game", "ogii"}, exitUsage, `--game: unknown game "ogii"; did you mean ogi?`},
		{"validate --game ogii", []string{"validate", "--game", "ogii", club}, exitUsage, `--game: unknown game "ogii"; did you mean ogi?`},
		{"perft --game ogii", []string{"perft", "--game", "ogii"}, exitUsage, `--game: unknown game "ogii"`},
		{"generate --game ogii", []string{"generate", "--game", "ogii", "--games", "1"}, exitUsage, `--game: unknown game "ogii"`},
		{"show --rules ogii", []string{"show", "--rules", "ogii", club}, exitUsage, `--rules: unknown game "ogii"`},
		{"delete of no game", []string{"delete", "--db", db, "99999"}, exitInvalid, "delete: no game #99999 in the database"},
		{"delete of no game among games", []string{"delete", "--db", db, "99999", ogi, "--yes"}, exitInvalid, "no game #99999"},
		{"delete matching nothing", []string{"delete", "--db", db, "--player", "Nobody At All"}, exitInvalid, "no game matches: nothing deleted"},
		{"tag White on Ōgi", []string{"tag", "--db", db, ogi, "White="}, exitUsage, "White names a side that Ōgi does not have (its sides are Sente and Gote; --force"},
		{"tag BlackElo on Ōgi", []string{"tag", "--db", db, ogi, "BlackElo=2000"}, exitUsage, "BlackElo names a side that Ōgi does not have"},
		{"side on a mixed database", []string{"search", "--db", db, "--player", "Xodar", "--side", "black"}, exitUsage, "black is the first side in checkers, jetan, pool, thai and the second in antidraughts"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, status := plateau(t, tt.args...)
			if status != tt.status || !strings.Contains(errOut, tt.want) {
				t.Errorf("status %d, stderr %q; want %d and %q", status, errOut, tt.status, tt.want)
			}
			if strings.Contains(out+errOut, "USAGE:") || strings.Count(errOut, "\n") > 1 {
				t.Errorf("more than one line of error, or the help:\n%s%s", out, errOut)
			}
		})
	}
	// Nothing was deleted or changed by the refused commands; the right
	// spelling works.
	if n := len(strings.Fields(mustRun(t, "search", "--db", db, "--format", "ids", "--limit", "-1"))); n != 28 {
		t.Errorf("%d games after the refused commands, want 28", n)
	}
	mustRun(t, "tag", "--db", db, ogi, "Sente=Someone Else")
	mustRun(t, "tag", "--db", db, ogi, "--force", "White=Kept anyway")
	if out := mustRun(t, "dbexport", "--db", db, "--id", ogi); !strings.Contains(out, `[White "Kept anyway"]`) || !strings.Contains(out, `[Sente "Someone Else"]`) {
		t.Errorf("tags after tag and tag --force:\n%s", out)
	}
	if out := mustRun(t, "search", "--db", db, "--player", "Xodar", "--side", "black", "--game", "jetan"); !strings.Contains(out, "Xodar") {
		t.Errorf("--side black --game jetan:\n%s", out)
	}
}

// TestClosest: what counts as near enough to suggest.
func TestClosest(t *testing.T) {
	names := []string{"search", "serve", "show", "import", "info", "delete", "dbexport"}
	for _, tt := range []struct{ typed, want string }{
		{"serach", "search"}, // two letters swapped
		{"imprt", "import"},  // one dropped
		{"shoe", "show"},     // one changed
		{"SHOW", "show"},     // case
		{"dbex", "dbexport"}, // the start of one name only
		{"se", ""},           // the start of several
		{"zzzzzz", ""},       // nothing near
		{"x", ""},            // one letter: any name is 'near'
		{"inf", "info"},
	} {
		if got := closest(names, tt.typed); got != tt.want {
			t.Errorf("closest(%q) = %q, want %q", tt.typed, got, tt.want)
		}
	}
}
