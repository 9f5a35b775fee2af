package jetan

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/record/recordtest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

func readGames(t *testing.T, path string) []*record.Game {
	return recordtest.MustReadFile(t, path)
}

// TestSampleRecordsReplay replays every sample through the record reader and
// the replay package: the good ones are valid and canonical, the broken ones
// fail with their one error.
func TestSampleRecordsReplay(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(samplesDir, "jetan", "*.pdn"))
	if len(files) < 10 {
		t.Fatalf("%d sample files", len(files))
	}
	reasons := map[string]bool{}
	for _, path := range files {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var canon bytes.Buffer
		for i, g := range readGames(t, path) {
			rg := replay.Replay(g, replay.Options{})
			if rg.Err != nil {
				t.Errorf("%s game %d: %v", path, i+1, rg.Err)
				continue
			}
			if rg.Termination() != g.Tag("Termination") {
				t.Errorf("%s game %d: termination %q, tag %q", path, i+1, rg.Termination(), g.Tag("Termination"))
			}
			reasons[rg.Termination()] = true
			canon.Write(record.Format(rg.Canonical()))
		}
		if !bytes.Equal(canon.Bytes(), raw) {
			t.Errorf("%s: not in canonical form", path)
		}
	}
	for _, r := range []string{ReasonPrincess, ReasonChiefByChief, ReasonChiefTaken, ReasonEqualForces} {
		if !reasons[r] {
			t.Errorf("no sample ends with %q", r)
		}
	}

	broken := []struct {
		what string
		ok   func(err error, e *replay.Error) bool
	}{
		{"path-blocked", func(_ error, e *replay.Error) bool { return e.Rule() == RulePathBlocked }},
		{"panthan-backward", func(_ error, e *replay.Error) bool { return e.Rule() == RuleUnreachable }},
		{"threatened-square", func(_ error, e *replay.Error) bool { return e.Rule() == RuleThreatened }},
		{"princess-captures", func(_ error, e *replay.Error) bool { return e.Rule() == RulePrincessCapture }},
		{"second-escape", func(_ error, e *replay.Error) bool { return e.Rule() == RuleEscapeUsed }},
		{"wrong-result", func(err error, _ *replay.Error) bool { return errors.Is(err, rules.ErrResult) }},
		{"equal-forces-won", func(err error, _ *replay.Error) bool { return errors.Is(err, rules.ErrResult) }},
		{"after-end", func(err error, e *replay.Error) bool {
			return errors.Is(err, replay.ErrAfterEnd) || e.Rule() == RuleGameOver
		}},
		{"bad-fen", func(err error, _ *replay.Error) bool {
			return errors.Is(err, replay.ErrBadStart) && errors.Is(err, rules.ErrPosition)
		}},
		{"syntax", func(err error, _ *replay.Error) bool {
			var me *rules.MoveError
			return errors.As(err, &me) && me.Kind == rules.Syntax
		}},
	}
	for _, b := range broken {
		path := filepath.Join(samplesDir, "broken", "jetan-"+b.what+".pdn")
		games := readGames(t, path)
		if len(games) != 1 {
			t.Errorf("%s: %d games", path, len(games))
			continue
		}
		rg := replay.Replay(games[0], replay.Options{})
		if rg.Err == nil {
			t.Errorf("%s: valid", path)
			continue
		}
		if !b.ok(rg.Err, rg.Err) {
			t.Errorf("%s: unexpected error %v", path, rg.Err)
		}
	}
}
