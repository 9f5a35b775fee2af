package sauts_test

// The sample records in samples/sauts and samples/broken/sauts-* are made
// here: `go test -run TestSamples -update ./rules/sauts` plays games through
// the package with a small seeded policy (win at once, do not let the
// opponent win at once, advance, noise), adds scripted games (the text's
// figure 3, a blocked loss from a FEN, a resignation, an agreed draw, an
// unfinished game) and one broken record per error, and writes them. Without
// -update the test reads the files back, replays them and checks that they
// cover what they should.

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/record/recordtest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/sauts"
)

var update = flag.Bool("update", false, "rewrite samples/sauts and samples/broken/sauts-*")

const (
	samplesDir = "../../samples/sauts"
	brokenDir  = "../../samples/broken"
)

// progress is how far a move takes its pawn towards the opponent's side.
func progress(p *sauts.Position, m rules.Move) int {
	d := p.Describe(m)
	adv := int(d.From[0]) - int(d.To[0]) // White goes towards row A
	if p.ToMove() == 1 {
		adv = -adv
	}
	return adv
}

func isWin(p *sauts.Position, m rules.Move) bool {
	c := p.Clone()
	c.Play(m)
	o := c.Outcome()
	return o.Over && o.Result == []string{"1-0", "0-1"}[p.ToMove()]
}

type policy struct {
	r     *rand.Rand
	noise int
}

// choose returns the policy's best and second-best moves.
func (pl *policy) choose(p *sauts.Position) (best, second rules.Move, ok bool) {
	bs, ss := -1<<30, -1<<30
	for _, m := range p.Legal(nil) {
		s := 10 * progress(p, m)
		if isWin(p, m) {
			s += 100000
		} else {
			c := p.Clone().(*sauts.Position)
			c.Play(m)
			for _, r := range c.Legal(nil) {
				if isWin(c, r) {
					s -= 10000
					break
				}
			}
		}
		s += pl.r.IntN(pl.noise + 1)
		switch {
		case s > bs:
			second, ss = best, bs
			best, bs = m, s
			ok = true
		case s > ss:
			second, ss = m, s
		}
	}
	return best, second, ok
}

type sgame struct {
	fen    string
	pos    *sauts.Position
	texts  []string
	alts   map[int][]string
	notes  map[int]string
	nags   map[int][]int
	intro  string
	result string
	term   string
}

func newGame(t testing.TB, fen string) *sgame {
	return &sgame{fen: fen, pos: mustPos(t, fen), alts: map[int][]string{}, notes: map[int]string{}, nags: map[int][]int{}}
}

func jumps(text string) int { return strings.Count(text, "-") }

func (g *sgame) play(m rules.Move) {
	text := g.pos.FormatMove(m)
	if n := jumps(text); n >= 3 {
		g.notes[len(g.texts)] = fmt.Sprintf("A chain of %d jumps.", n)
		g.nags[len(g.texts)] = []int{1}
	}
	g.texts = append(g.texts, text)
	g.pos.Play(m)
}

func (g *sgame) playText(t testing.TB, s string) {
	t.Helper()
	m, err := g.pos.ParseMove(s)
	if err != nil {
		t.Fatalf("%s in %s: %v", s, g.pos, err)
	}
	g.play(m)
}

// run plays the policy for at most max plies or until the game ends.
func (g *sgame) run(pl *policy, max int) {
	for i := 0; i < max && !g.pos.Outcome().Over; i++ {
		best, second, ok := pl.choose(g.pos)
		if !ok {
			return
		}
		ply := len(g.texts)
		if second != 0 && ply >= 4 && ply%13 == 4 {
			c := g.pos.Clone().(*sauts.Position)
			line := []string{c.FormatMove(second)}
			c.Play(second)
			if r, _, ok := pl.choose(c); ok && !c.Outcome().Over {
				line = append(line, c.FormatMove(r))
			}
			g.alts[ply] = line
		}
		g.play(best)
	}
}

func (g *sgame) finish() {
	o := g.pos.Outcome()
	if o.Over {
		g.result, g.term = o.Result, o.Reason
	} else {
		g.result, g.term = "*", "unterminated"
	}
}

func (g *sgame) record(tags [][2]string) *record.Game {
	rg := &record.Game{}
	rg.Tags = append(rg.Tags, record.Tag{Name: "Game", Value: "sauts"})
	for _, t := range tags {
		rg.Tags = append(rg.Tags, record.Tag{Name: t[0], Value: t[1]})
	}
	rg.Tags = append(rg.Tags, record.Tag{Name: "Result", Value: g.result})
	if g.fen != "" {
		rg.Tags = append(rg.Tags, record.Tag{Name: "FEN", Value: g.fen})
	}
	if g.term != "" {
		rg.Tags = append(rg.Tags, record.Tag{Name: "Termination", Value: g.term})
	}
	if g.intro != "" {
		rg.Intro = []string{g.intro}
	}
	for i, s := range g.texts {
		mv := &record.Move{Text: s, Ply: i, NAGs: g.nags[i]}
		if n := g.notes[i]; n != "" {
			mv.After = []string{n}
		}
		if alt := g.alts[i]; len(alt) > 0 {
			var line record.Line
			for j, a := range alt {
				line = append(line, &record.Move{Text: a, Ply: i + j})
			}
			mv.Variations = []record.Line{line}
		}
		rg.Moves = append(rg.Moves, mv)
	}
	rg.Result = g.result
	return rg
}

var (
	whiteNames = []string{"Fournier, Anaïs", "Lefèvre, Théo", "Roux, Camille", "Bonnet, Élodie", "Mercier, Hugo", "Faure, Jules"}
	blackNames = []string{"Girard, Noé", "André, Léonie", "Garnier, Maël", "Chevalier, Inès", "Lambert, Zoé", "Blanc, Yanis"}
)

func tagsFor(event string, round int) [][2]string {
	return [][2]string{
		{"Event", event}, {"Site", "Grenoble"}, {"Date", fmt.Sprintf("2026.03.%02d", 1+round)},
		{"Round", fmt.Sprint(round)}, {"White", whiteNames[round%len(whiteNames)]}, {"Black", blackNames[(round+2)%len(blackNames)]},
	}
}

type sample struct {
	file string
	g    *sgame
	tags [][2]string
}

func newPolicy(seed uint64) *policy { return &policy{r: rand.New(rand.NewPCG(seed, 0x5a)), noise: 25} }

// sampleSet collects generated games: the samples in the order they are
// written, and the broken records by name.
type sampleSet struct {
	t      *testing.T
	out    []sample
	broken map[string]*sgame
	round  int // rounds are numbered across all the samples
}

// add appends g to file as the next round of event.
func (s *sampleSet) add(file string, g *sgame, event string) {
	s.round++
	s.out = append(s.out, sample{file, g, tagsFor(event, s.round)})
}

// figure3 is the start of figure 3 of the rule text.
const figure3 = "2w5/2w4b/8/3w4/8/4w3/5w2/8 w"

// makeSamples builds every sample game and every broken record. The stages
// run in a fixed order: the order fixes the round numbers and the files.
func makeSamples(t *testing.T) ([]sample, map[string]*sgame) {
	s := &sampleSet{t: t, broken: map[string]*sgame{}}
	s.clubGames()
	s.textbookGames()
	s.endingGames()
	s.brokenRecords()
	return s.out, s.broken
}

// clubGames: the policy from the start, won on a goal; one of them with a
// chain of four jumps or more.
func (s *sampleSet) clubGames() {
	long := false
	for seed := uint64(1); seed < 500 && (s.round < 8 || !long); seed++ {
		g := newGame(s.t, "")
		g.run(newPolicy(seed), 300)
		g.finish()
		if g.term != sauts.ReasonGoal {
			continue
		}
		hasLong := false
		for _, text := range g.texts {
			hasLong = hasLong || jumps(text) >= 4
		}
		if s.round >= 8 && !hasLong {
			continue
		}
		long = long || hasLong
		g.intro = "Generated by the Plateau sample policy; every move replays."
		s.add("club.pdn", g, "Grenoble club evening")
	}
}

// textbookGames: figure 3 of the rule text, a chain of six jumps across the
// board, and a blocked loss.
func (s *sampleSet) textbookGames() {
	t := s.t
	f3 := newGame(t, figure3)
	f3.intro = "Figure 3 of the rules: G6 goes to E4, then C4, then A2, then A4, and wins."
	f3.playText(t, "G6-E4-C4-A2-A4")
	f3.alts[0] = []string{"G6-E4-C4", "B8-B7"}
	f3.finish()
	s.add("textbook.pdn", f3, "Textbook positions")
	// A chain of six jumps across the board.
	lc := newGame(t, "8/1b2w3/2b3w1/b6w/8/5w2/3ww1w1/8 w")
	lc.intro = "White's pawns form a ladder from G4 to A4 once F8 is filled."
	lc.playText(t, "F6-F8")
	lc.playText(t, "D1-D2")
	lc.notes[1] = "Too late: the ladder is complete."
	lc.playText(t, "G4-G6-G8-E8-C8-C6-A4")
	lc.finish()
	s.add("textbook.pdn", lc, "Textbook positions")
	// A blocked loss: White's two pawns deep in Black's half are boxed in.
	bl := newGame(t, "2b5/w7/w7/1b6/8/8/8/b7 w")
	bl.intro = "White's last pawns are stranded in Black's half, where only jumps are allowed."
	blockedLine(t, bl)
	bl.finish()
	s.add("textbook.pdn", bl, "Textbook positions")
}

// endingGames: resignation, agreed draw, unfinished.
func (s *sampleSet) endingGames() {
	for i, end := range []struct{ result, term, note string }{
		{"", "resignation", "%s resigns: the opponent's pawns are far ahead."},
		{"1/2-1/2", "agreement", "Drawn by agreement."},
		{"*", "unterminated", "Adjourned."},
	} {
		var g *sgame
		for seed := uint64(900 + 100*i); ; seed++ {
			g = newGame(s.t, "")
			g.run(newPolicy(seed), 12+2*i)
			if !g.pos.Outcome().Over {
				break
			}
		}
		g.result, g.term = end.result, end.term
		if end.term == "resignation" {
			// The side to move resigns.
			us := g.pos.ToMove()
			g.result = []string{"0-1", "1-0"}[us]
			g.notes[len(g.texts)-1] = fmt.Sprintf(end.note, sauts.Game{}.Sides()[us])
		} else {
			g.notes[len(g.texts)-1] = end.note
		}
		s.add("endings.pdn", g, "Grenoble club evening")
	}
}

// prefix is a broken record's start: n policy moves, no comments, no result.
func (s *sampleSet) prefix(seed uint64, n int) *sgame {
	g := newGame(s.t, "")
	g.run(newPolicy(seed), n)
	g.alts, g.notes, g.nags = map[int][]string{}, map[int]string{}, map[int][]int{}
	g.result, g.term = "*", ""
	return g
}

// addBroken ends g with the bad move text and keeps it as broken record
// name; a non-empty rule is the rule text must break in g's position.
func (s *sampleSet) addBroken(name string, g *sgame, text, rule string) {
	if rule != "" {
		_, err := g.pos.ParseMove(text)
		var me *rules.MoveError
		if !errors.As(err, &me) || me.Rule != rule {
			s.t.Fatalf("broken %s: %s in %s gives %v, want %s", name, text, g.pos, err, rule)
		}
	}
	g.texts = append(g.texts, text)
	s.broken[name] = g
}

// brokenRecords: each a few legal moves, then one bad one; a bad FEN; a move
// after the goal, and a result contradicting the goal.
func (s *sampleSet) brokenRecords() {
	t := s.t
	s.addBroken("path-blocked", s.prefix(11, 0), "G2-G5", sauts.RuleBlocked)
	s.addBroken("own-goal", s.prefix(12, 0), "G4-H4", sauts.RuleOwnGoal)
	s.addBroken("middle-line", s.prefix(13, 0), "F1-D1", sauts.RuleMiddleLine)
	s.addBroken("home-then-jump", s.prefix(14, 0), "G4-G3-E1", sauts.RuleHomeThenJmp)
	s.addBroken("jump-opponent", newGame(t, "8/8/8/3b4/8/2w5/1w6/8 w"), "G2-E4-C4", sauts.RuleJumpOwn)
	s.addBroken("chain-revisit", newGame(t, "8/6b1/8/8/8/1ww5/1ww5/8 w"), "G2-E2-G4-G2", sauts.RuleRevisit)
	s.addBroken("move-syntax", s.prefix(15, 3), "F1E1", "")
	bf := s.prefix(16, 2)
	bf.fen = "8/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/8 x"
	s.broken["bad-fen"] = bf
	// A move after the goal, and a result contradicting the goal.
	after := newGame(t, figure3)
	after.playText(t, "G6-E4-C4-A2-A4")
	after.texts = append(after.texts, "B8-B7")
	after.result = "1-0"
	s.broken["move-after-goal"] = after
	wrong := newGame(t, figure3)
	wrong.playText(t, "G6-E4-C4-A2-A4")
	wrong.notes = map[int]string{}
	wrong.result, wrong.term = "0-1", "goal reached"
	s.broken["wrong-result"] = wrong
}

// blockedLine plays the blocked-loss game. White: B1, C1 (in Black's half,
// jumps only); Black: A3, D2, H1. White's moves are C1-A1 and B1-D1, each
// over the other pawn; Black closes D1 and then A1.
func blockedLine(t *testing.T, g *sgame) {
	for _, s := range []string{"C1-A1", "D2-D1", "A1-C1", "A3-A1"} {
		g.playText(t, s)
	}
	g.notes[len(g.texts)-1] = "White has no move left and loses."
}

func TestSamples(t *testing.T) {
	if *update {
		samples, broken := makeSamples(t)
		var out []recordtest.Sample
		for _, s := range samples {
			out = append(out, recordtest.Sample{File: s.file, Game: s.g.record(s.tags)})
		}
		if err := recordtest.WriteFiles(samplesDir, out); err != nil {
			t.Fatal(err)
		}
		out = out[:0]
		for name, g := range broken {
			tags := [][2]string{{"Event", "Broken samples"}, {"Site", "Plateau"}, {"Date", "2026.03.14"}, {"Round", name},
				{"White", "Fournier, Anaïs"}, {"Black", "Girard, Noé"}}
			out = append(out, recordtest.Sample{File: "sauts-" + name + ".pdn", Game: g.record(tags)})
		}
		if err := recordtest.WriteFiles(brokenDir, out); err != nil {
			t.Fatal(err)
		}
	}
	checkSamples(t)
	checkBroken(t)
}

func readGames(t testing.TB, file string) []*record.Game {
	games, _ := recordtest.ReadFile(t, file)
	return games
}

// checkSamples: every sample game replays, and together they show what they should.
func checkSamples(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(samplesDir, "*.pdn"))
	cover := map[string]int{}
	games := 0
	for _, file := range files {
		for _, rg := range readGames(t, file) {
			games++
			g := replay.Replay(rg, replay.Options{})
			if g.Err != nil {
				t.Errorf("%s: %v", file, g.Err)
				continue
			}
			for _, st := range g.Main {
				if n := jumps(st.Text); n >= 4 {
					cover["chain of 4+ jumps"]++
				}
				if n := jumps(st.Text); n >= 6 {
					cover["chain of 6+ jumps"]++
				}
				if len(st.Variations) > 0 {
					cover["variation"]++
				}
				if len(st.Src.After) > 0 {
					cover["comment"]++
				}
				if len(st.Src.NAGs) > 0 {
					cover["NAG"]++
				}
			}
			if rg.Tag("FEN") != "" {
				cover["FEN"]++
			}
			switch {
			case g.Outcome.Over:
				cover[g.Outcome.Reason]++
			default:
				cover["not over: "+g.Result]++
			}
		}
	}
	if games < 10 {
		t.Errorf("%d sample games, want at least 10", games)
	}
	for _, w := range []string{"chain of 4+ jumps", "chain of 6+ jumps", "variation", "comment", "NAG", "FEN", sauts.ReasonGoal,
		sauts.ReasonBlocked, "not over: *", "not over: 1/2-1/2"} {
		if cover[w] == 0 {
			t.Errorf("no sample shows %q", w)
		}
	}
	if cover["not over: 1-0"]+cover["not over: 0-1"] == 0 {
		t.Error("no sample shows a resignation")
	}
	if t.Failed() {
		t.Logf("coverage %v", cover)
	}
}

// checkBroken: each broken record fails replay with its own error.
func checkBroken(t *testing.T) {
	rule := func(r string) func(e *replay.Error) bool {
		return func(e *replay.Error) bool {
			var me *rules.MoveError
			return errors.As(e, &me) && me.Kind == rules.Illegal && me.Rule == r
		}
	}
	want := map[string]func(e *replay.Error) bool{
		"path-blocked":   rule(sauts.RuleBlocked),
		"own-goal":       rule(sauts.RuleOwnGoal),
		"middle-line":    rule(sauts.RuleMiddleLine),
		"home-then-jump": rule(sauts.RuleHomeThenJmp),
		"jump-opponent":  rule(sauts.RuleJumpOwn),
		"chain-revisit":  rule(sauts.RuleRevisit),
		"move-syntax": func(e *replay.Error) bool {
			var me *rules.MoveError
			return errors.As(e, &me) && me.Kind == rules.Syntax
		},
		"bad-fen":         func(e *replay.Error) bool { return errors.Is(e, rules.ErrPosition) },
		"move-after-goal": func(e *replay.Error) bool { return errors.Is(e, replay.ErrAfterEnd) || rule(sauts.RuleGameOver)(e) },
		"wrong-result":    func(e *replay.Error) bool { return errors.Is(e, rules.ErrResult) },
	}
	for name, ok := range want {
		file := filepath.Join(brokenDir, "sauts-"+name+".pdn")
		gs := readGames(t, file)
		if len(gs) != 1 {
			t.Errorf("%s: %d games, want 1", file, len(gs))
			continue
		}
		g := replay.Replay(gs[0], replay.Options{})
		if g.Err == nil || !ok(g.Err) {
			t.Errorf("%s: got %v", file, g.Err)
		}
	}
}
