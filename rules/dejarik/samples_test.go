package dejarik_test

// The sample records in samples/dejarik and samples/broken/dejarik-* are
// made here: `go test -run TestSamples -update ./rules/dejarik` plays games
// through the package with a small seeded policy, keeps the first game found
// for each ending, and writes them. Without -update the test replays the
// files through the record reader and replay, and checks that they cover
// every move type and every ending.

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/record/recordtest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/dejarik"
)

var update = flag.Bool("update", false, "rewrite samples/dejarik and samples/broken/dejarik-*")

const (
	samplesDir = "../../samples/dejarik"
	brokenDir  = "../../samples/broken"
)

// played is a game played by the generator.
type played struct {
	fen   string
	moves []rules.Move
	texts []string
	infos []rules.MoveInfo
	alts  []string // a second choice at each ply ("" if none)
	end   rules.Outcome
	feats map[string]bool
}

// moveType classifies a move of p.
func moveType(p *dejarik.Position, m rules.Move) string {
	info := p.Describe(m)
	land := strings.SplitN(p.FormatMove(m), "-", 2)[1]
	switch {
	case info.To == "c":
		return "dejarik"
	case info.From == "c":
		return "dejarik inverse"
	case info.From[0] == 'i':
		return "re-entry"
	case info.From[1:] == land[1:]:
		return "straight exit"
	case info.To != land:
		return "augmented exit"
	}
	a, b := num(info.From), num(land)
	if d := (a - b + 12) % 12; d == 1 || d == 11 {
		return "diagonal exit"
	}
	return "double diagonal exit"
}

func num(cell string) int {
	n := 0
	fmt.Sscanf(cell[1:], "%d", &n)
	return n
}

// policy picks a move: win now, take, avoid giving the opponent a win or a
// capture, gather pawns on the inner ring, with seeded noise.
func choose(p *dejarik.Position, rng *rand.Rand, noise float64, shuffle bool) (best, second rules.Move, ok bool) {
	moves := p.Legal(nil)
	if len(moves) == 0 {
		return 0, 0, false
	}
	me := p.ToMove()
	bestS, secondS := -1e9, -1e9
	for _, m := range moves {
		c := p.Clone().(*dejarik.Position)
		info := c.Describe(m)
		c.Play(m)
		s := rng.Float64() * noise
		if o := c.Outcome(); o.Over {
			w, b, _ := dejarik.Points(o.Result)
			mine, theirs := w, b
			if me == dejarik.Black {
				mine, theirs = b, w
			}
			s += float64(1000 * (mine - theirs))
			if mine == theirs {
				s -= 60
			}
		}
		s += 60 * float64(info.Captures)
		if info.To[0] == 'i' {
			s += 8
		}
		if shuffle {
			if info.From[0] == 'i' || info.From[1:] == info.To[1:] {
				s += 500
			}
		} else if !c.Outcome().Over {
			for _, r := range c.Legal(nil) {
				ri := c.Describe(r)
				if ri.Captures > 0 {
					s -= 45
				}
				cc := c.Clone()
				cc.Play(r)
				if o := cc.Outcome(); o.Over && o.Result != "0-0" && o.Result != "1-1" {
					s -= 400
					break
				}
			}
		}
		switch {
		case s > bestS:
			second, secondS = best, bestS
			best, bestS = m, s
		case s > secondS:
			second, secondS = m, s
		}
	}
	return best, second, true
}

func playGame(fen string, seed uint64, noise float64, maxPlies, shuffleFrom int) played {
	rng := rand.New(rand.NewPCG(seed, 0xde7a41c))
	pos, err := dejarik.Parse(fen)
	if err != nil {
		panic(err)
	}
	g := played{fen: fen, feats: map[string]bool{}}
	for ply := 0; ply < maxPlies; ply++ {
		if o := pos.Outcome(); o.Over {
			g.end = o
			break
		}
		shuffle := shuffleFrom >= 0 && ply >= shuffleFrom
		n := noise
		if shuffle {
			n = 0
		}
		m, alt, ok := choose(pos, rng, n, shuffle)
		if !ok {
			break
		}
		info := pos.Describe(m)
		g.feats[moveType(pos, m)] = true
		if info.Captures > 0 && moveType(pos, m) == "augmented exit" {
			g.feats["augmented capture"] = true
		}
		g.moves = append(g.moves, m)
		g.texts = append(g.texts, pos.FormatMove(m))
		g.infos = append(g.infos, info)
		a := ""
		if alt != 0 {
			a = pos.FormatMove(alt)
		}
		g.alts = append(g.alts, a)
		pos.Play(m)
	}
	g.end = pos.Outcome()
	return g
}

// sample is one sample file to write.
type sample struct {
	file   string
	want   func(g played) bool
	fen    string
	noise  float64
	plies  int
	shufAt int // ply from which both sides shuffle (repetition); -1 never
	tags   [][2]string
	intro  string
}

func ends(reason, result string) func(played) bool {
	return func(g played) bool { return g.end.Reason == reason && (result == "" || g.end.Result == result) }
}

func samples() []sample {
	return []sample{
		{file: "four-aligned-white.pdn", want: ends(dejarik.ReasonFour, "3-0"), noise: 30, plies: 60, shufAt: -1,
			tags:  [][2]string{{"Event", "Kashyyyk evening games"}, {"Site", "Rwookrrorro"}, {"Date", "2026.03.02"}, {"Round", "1"}, {"White", "Groï"}, {"Black", "Tarrful"}},
			intro: "White gathers four pawns side by side on the inner ring."},
		{file: "four-aligned-black.pdn", want: ends(dejarik.ReasonFour, "0-3"), noise: 30, plies: 60, shufAt: -1,
			tags: [][2]string{{"Event", "Kashyyyk evening games"}, {"Site", "Rwookrrorro"}, {"Date", "2026.03.02"}, {"Round", "2"}, {"White", "Tarrful"}, {"Black", "Groï"}}},
		{file: "three-aligned.pdn", want: ends(dejarik.ReasonThree, ""), noise: 40, plies: 80, shufAt: -1,
			tags:  [][2]string{{"Event", "Corellian credit table"}, {"Site", "Coronet"}, {"Date", "2026.04.11"}, {"Round", "3"}, {"White", "Vanna Tello"}, {"Black", "Dorsk Ebb"}},
			intro: "A side that has lost a pawn aligns its last three: one point."},
		{file: "two-taken.pdn", want: func(g played) bool {
			return ends(dejarik.ReasonTwoTaken, "")(g) && g.feats["double diagonal exit"]
		}, noise: 30, plies: 80, shufAt: -1,
			tags: [][2]string{{"Event", "Corellian credit table"}, {"Site", "Coronet"}, {"Date", "2026.04.11"}, {"Round", "1"}, {"White", "Dorsk Ebb"}, {"Black", "Vanna Tello"}}},
		{file: "augmented-capture.pdn", want: func(g played) bool { return g.feats["augmented capture"] && g.end.Over }, noise: 60, plies: 80, shufAt: -1,
			tags:  [][2]string{{"Event", "Kashyyyk evening games"}, {"Site", "Rwookrrorro"}, {"Date", "2026.03.03"}, {"Round", "3"}, {"White", "Groï"}, {"Black", "Tarrful"}},
			intro: "An augmented exit that ends beside an enemy pawn and takes it."},
		{file: "repetition.pdn", want: ends(dejarik.ReasonRepetition, "1-1"), noise: 30, plies: 80, shufAt: 6,
			tags:  [][2]string{{"Event", "Kashyyyk evening games"}, {"Site", "Rwookrrorro"}, {"Date", "2026.03.03"}, {"Round", "4"}, {"White", "Tarrful"}, {"Black", "Groï"}},
			intro: "Neither player dares to leave: the same position comes a third time."},
		{file: "blocked.pdn", want: ends(dejarik.ReasonBlocked, "0-0"), noise: 80, plies: 120, shufAt: -1,
			tags:  [][2]string{{"Event", "Corellian credit table"}, {"Site", "Coronet"}, {"Date", "2026.04.12"}, {"Round", "4"}, {"White", "Vanna Tello"}, {"Black", "Dorsk Ebb"}},
			intro: "The side to move has no move left: nobody scores."},
		{file: "dejarik-moves.pdn", want: func(g played) bool {
			return g.end.Over && g.feats["dejarik"] && g.feats["dejarik inverse"] && g.feats["re-entry"] && g.feats["diagonal exit"]
		}, noise: 50, plies: 80, shufAt: -1,
			tags:  [][2]string{{"Event", "Corellian credit table"}, {"Site", "Coronet"}, {"Date", "2026.04.12"}, {"Round", "5"}, {"White", "Dorsk Ebb"}, {"Black", "Vanna Tello"}},
			intro: "Pawns cross the board through the Dejarik cell and go home again."},
		{file: "from-position.pdn", fen: "B:Wc,i2,o3,o5:Bi8,o9,o10,o12:FB", want: func(g played) bool { return g.end.Over && len(g.moves) >= 6 }, noise: 30, plies: 60, shufAt: -1,
			tags:  [][2]string{{"Event", "Holochess problems"}, {"Site", "Mos Eisley"}, {"Date", "2026.05.01"}, {"Round", "1"}, {"White", "Problem"}, {"Black", "Solver"}},
			intro: "From a set position: White has already played, Black's first turn is to come (no diagonal exit for it yet)."},
		{file: "unfinished.pdn", want: func(g played) bool { return !g.end.Over && g.feats["augmented exit"] }, noise: 40, plies: 24, shufAt: -1,
			tags:  [][2]string{{"Event", "Kashyyyk evening games"}, {"Site", "Rwookrrorro"}, {"Date", "2026.03.04"}, {"Round", "5"}, {"White", "Groï"}, {"Black", "Tarrful"}},
			intro: "Adjourned: the Wookiees forbid going on with the series the same day."},
	}
}

// find plays seeds until one game satisfies s.want.
func find(s sample, from uint64) (played, uint64, bool) {
	fen := s.fen
	for seed := from; seed < from+3000; seed++ {
		g := playGame(fen, seed, s.noise, s.plies, s.shufAt)
		if s.want(g) && len(g.moves) <= s.plies {
			return g, seed, true
		}
	}
	return played{}, 0, false
}

// comment says what a move did, when it is worth saying.
func comment(text string, info rules.MoveInfo, kind string) string {
	land := strings.SplitN(text, "-", 2)[1]
	switch {
	case kind == "augmented exit" && info.Captures > 0:
		return fmt.Sprintf("augmented exit: lands on %s, ends on %s and takes the pawn beside it", land, info.To)
	case kind == "augmented exit":
		return fmt.Sprintf("augmented exit: in front of its own pawn on %s, it goes on to %s", "o"+land[1:], info.To)
	case info.Captures > 0:
		return fmt.Sprintf("%s takes the pawn beside %s", kind, info.To)
	}
	return ""
}

func (g played) record(s sample) *record.Game {
	rec := &record.Game{}
	rec.SetTag("Game", "dejarik")
	for _, t := range s.tags {
		rec.SetTag(t[0], t[1])
	}
	res := "*"
	if g.end.Over {
		res = g.end.Result
		rec.SetTag("Termination", g.end.Reason)
	} else {
		rec.SetTag("Termination", "unterminated")
	}
	rec.SetTag("Result", res)
	if s.fen != "" {
		rec.SetTag("FEN", s.fen)
	}
	if s.intro != "" {
		rec.Intro = []string{s.intro}
	}
	pos, _ := dejarik.Parse(s.fen)
	varDone := false
	for i, m := range g.moves {
		mv := &record.Move{Text: g.texts[i], Ply: i}
		kind := moveType(pos, m)
		if c := comment(g.texts[i], g.infos[i], kind); c != "" {
			mv.After = append(mv.After, c)
		}
		if !varDone && i >= 4 && g.alts[i] != "" && i < len(g.moves)-2 {
			alt, _ := pos.ParseMove(g.alts[i])
			c := pos.Clone()
			c.Play(alt)
			line := record.Line{{Text: g.alts[i], Ply: i, After: []string{"also possible"}}}
			if next, _, ok := choose(c.(*dejarik.Position), rand.New(rand.NewPCG(1, 2)), 0, false); ok {
				line = append(line, &record.Move{Text: c.FormatMove(next), Ply: i + 1})
			}
			mv.Variations = []record.Line{line}
			varDone = true
		}
		if i == len(g.moves)-1 && g.end.Over && g.end.Result != "1-1" && g.end.Result != "0-0" {
			mv.NAGs = []int{1}
		}
		rec.Moves = append(rec.Moves, mv)
		pos.Play(m)
	}
	rec.Result = res
	return rec
}

// broken records: one error each.
var brokenSamples = []struct{ what, text string }{
	{"first-turn-diagonal", "1. o4-i5 o7-i7 *"},
	{"occupied-cell", "1. o1-i1 o7-i7 2. o2-i2 o8-c 3. o3-c *"},
	{"lateral-move", "1. o1-i1 o7-i7 2. o4-o5 *"},
	{"reentry-only", "1. o1-i1 o7-i7 2. i1-i2 *"},
	{"path-blocked", "1. o1-c o10-i10 2. o2-i2 o9-i9 3. c-o10 *"},
	{"move-syntax", "1. o13-i1 *"},
	{"augmentation-path", "1. o1-i1 o7-i7 2. i1-o1 o8-i8 3. o2-i3-i7 *"},
}

func writeBroken(t *testing.T) {
	head := func(what, result, fen string) string {
		s := fmt.Sprintf("[Game \"dejarik\"]\n[Event \"Broken samples\"]\n[Site \"Plateau\"]\n[Date \"2026.06.01\"]\n[Round \"%s\"]\n[White \"Groï\"]\n[Black \"Tarrful\"]\n[Result \"%s\"]\n", what, result)
		if fen != "" {
			s += "[FEN \"" + fen + "\"]\n"
		}
		return s + "\n"
	}
	files := map[string]string{}
	for _, b := range brokenSamples {
		files[b.what] = head(b.what, "*", "") + b.text + "\n"
	}
	files["bad-fen"] = head("bad-fen", "*", "W:Wo1,o2,o3,o4:Bo4,o8,o9,o10") + "1. o1-i1 *\n"
	// A finished game with the wrong result, and one with a move after its end.
	g := wonGame(t)
	files["wrong-result"] = head("wrong-result", "0-3", "") + g + " 0-3\n"
	files["move-after-end"] = head("move-after-end", "3-0", "") + g + " o9-i9 3-0\n"
	files["no-resignation"] = head("no-resignation", "1-0", "") + "1. o1-i1 o7-i7 2. o2-i2 1-0\n"
	for what, text := range files {
		if err := os.WriteFile(filepath.Join(brokenDir, "dejarik-"+what+".pdn"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// wonGame is the movetext of the four-aligned White sample, without result.
func wonGame(t *testing.T) string {
	data, err := os.ReadFile(filepath.Join(samplesDir, "four-aligned-white.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.NewReader(strings.NewReader(string(data)), "x").Next()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, m := range rec.Moves {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d. ", i/2+1)
		}
		b.WriteString(m.Text + " ")
	}
	return strings.TrimSpace(b.String())
}

func generate(t *testing.T) {
	for _, d := range []string{samplesDir, brokenDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range samples() {
		g, seed, ok := find(s, 1)
		if !ok {
			t.Fatalf("%s: no game found", s.file)
		}
		t.Logf("%s: seed %d, %d plies, %s %s", s.file, seed, len(g.moves), g.end.Result, g.end.Reason)
		if err := os.WriteFile(filepath.Join(samplesDir, s.file), record.Format(g.record(s)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A series between two players who change colours, until one has 12 points.
	var out []byte
	var series dejarik.Series
	players := [2]string{"Lowbacca", "Malla"}
	seed := uint64(100)
	for round := 1; series.Winner == "" && round <= 20; round++ {
		w, b := players[(round+1)%2], players[round%2]
		s := sample{noise: float64(20 + 25*(round%3)), plies: 80, shufAt: -1, want: func(g played) bool { return g.end.Over },
			tags: [][2]string{{"Event", "Wookiee series to 12 points"}, {"Site", "Kachirho"}, {"Date", "2026.06.0" + fmt.Sprint(1+round/4)}, {"Round", fmt.Sprint(round)}, {"White", w}, {"Black", b}}}
		g, next, ok := find(s, seed)
		if !ok {
			t.Fatal("series: no game found")
		}
		seed = next + 1
		series.Add(w, b, g.end.Result)
		out = append(out, record.Format(g.record(s))...)
	}
	t.Logf("series: %v, winner %s after %d games", series.Points, series.Winner, series.WinnerGame)
	if err := os.WriteFile(filepath.Join(samplesDir, "series.pdn"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	writeBroken(t)
}

func readAll(t testing.TB, path string) []*record.Game {
	return recordtest.MustReadFile(t, path)
}

func TestSamples(t *testing.T) {
	if *update {
		generate(t)
	}
	files, _ := filepath.Glob(filepath.Join(samplesDir, "*.pdn"))
	if len(files) == 0 {
		t.Fatal("no samples in " + samplesDir + ": run with -update to make them")
	}
	types := map[string]int{}
	endings := map[string]int{}
	games := 0
	for _, f := range files {
		for _, rec := range readAll(t, f) {
			games++
			rg := replay.Replay(rec, replay.Options{})
			if rg.Err != nil {
				t.Errorf("%s: %v", f, rg.Err)
				continue
			}
			endings[rg.Outcome.Reason]++
			pos, _ := dejarik.Parse(rec.Tag("FEN"))
			for _, st := range rg.Main {
				m, err := pos.ParseMove(st.Text)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				types[moveType(pos, m)]++
				if st.Info.Captures > 0 && moveType(pos, m) == "augmented exit" {
					types["augmented capture"]++
				}
				pos.Play(m)
			}
		}
	}
	if games < 10 {
		t.Errorf("%d sample games, want at least 10", games)
	}
	for _, k := range []string{"dejarik", "dejarik inverse", "straight exit", "diagonal exit", "double diagonal exit", "augmented exit", "re-entry", "augmented capture"} {
		if types[k] == 0 {
			t.Errorf("no %s in the samples", k)
		}
	}
	for _, k := range []string{dejarik.ReasonFour, dejarik.ReasonThree, dejarik.ReasonTwoTaken, dejarik.ReasonRepetition, dejarik.ReasonBlocked} {
		if endings[k] == 0 {
			t.Errorf("no game ends by %s", k)
		}
	}
	t.Logf("%d games; moves %v; endings %v", games, types, endings)

	broken, _ := filepath.Glob(filepath.Join(brokenDir, "dejarik-*.pdn"))
	if len(broken) < 8 {
		t.Errorf("%d broken samples", len(broken))
	}
	for _, f := range broken {
		for _, rec := range readAll(t, f) {
			if rg := replay.Replay(rec, replay.Options{}); rg.Err == nil {
				t.Errorf("%s: broken sample replays without error", f)
			}
		}
	}
}
