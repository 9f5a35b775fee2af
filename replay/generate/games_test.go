package generate_test

import (
	"bytes"
	"context"
	"io"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

const perGame = 30

// write returns n games of g written with seed and the given workers.
func write(t *testing.T, g rules.Game, seed uint64, n, workers int) []byte {
	t.Helper()
	gen, err := generate.New(g, seed)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	st, err := gen.Write(context.Background(), &b, n, generate.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != n || st.Bytes != int64(b.Len()) {
		t.Fatalf("stats %+v for %d games, %d bytes", st, n, b.Len())
	}
	return b.Bytes()
}

// TestEveryGame writes games of every registered game, reads them back with
// the record reader and replays each: every one must be valid, the output
// deterministic, openings must repeat and outcomes must vary.
func TestEveryGame(t *testing.T) {
	games := rules.Games()
	if len(games) == 0 {
		t.Fatal("no game registered")
	}
	if testing.Short() {
		// .ci/run's race run (-short): the workers are the same for every
		// ruleset, so one of each package of rules; the default run
		// writes them all.
		games = slices.DeleteFunc(games, func(g rules.Game) bool {
			return !slices.Contains([]string{"ogi", "dames", "draughts", "jetan", "dejarik", "sauts"}, g.ID())
		})
	}
	for _, g := range games {
		t.Run(g.ID(), func(t *testing.T) {
			out := write(t, g, 7, perGame, 1)
			if again := write(t, g, 7, perGame, 2); !bytes.Equal(out, again) {
				t.Fatal("same seed, different output")
			}
			if other := write(t, g, 8, perGame, 1); bytes.Equal(out, other) {
				t.Fatal("different seeds, same output")
			}
			rd := record.NewReader(bytes.NewReader(out), g.ID()+".pdn")
			openings := map[string]int{}
			results := map[string]int{}
			terms := map[string]int{}
			n, plies := 0, 0
			for {
				rec, err := rd.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("game %d: %v", n, err)
				}
				n++
				rg := replay.Replay(rec, replay.Options{})
				if rg.Err != nil {
					t.Fatalf("game %d (%s line %d) invalid: %v", n, rec.Pos.File, rec.Pos.Line, rg.Err)
				}
				if rg.Rules.ID() != g.ID() {
					t.Fatalf("game %d is %s", n, rg.Rules.ID())
				}
				plies += rg.Plies()
				if len(rec.Moves) >= 2 {
					openings[rec.Moves[0].Text+" "+rec.Moves[1].Text]++
				}
				results[rg.Result]++
				terms[rec.Tag("Termination")]++
			}
			if n != perGame {
				t.Fatalf("read %d games, want %d", n, perGame)
			}
			top := 0
			for _, c := range openings {
				top = max(top, c)
			}
			if top < perGame/6 {
				t.Errorf("the most common opening is played in %d of %d games: %v", top, n, openings)
			}
			if len(results) < 2 {
				t.Errorf("every game has the same result: %v", results)
			}
			t.Logf("%d games, %.1f plies/game, results %v, terminations %v, top opening %d", n, float64(plies)/float64(n), sorted(results), sorted(terms), top)
		})
	}
}

func sorted(m map[string]int) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var b strings.Builder
	for _, k := range ks {
		b.WriteString(k)
		b.WriteString(":")
		b.WriteString(strings.Repeat("", 0))
		b.WriteString(itoa(m[k]))
		b.WriteString(" ")
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}
