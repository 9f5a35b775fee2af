package ogi

// The sample records in samples/ogi and samples/broken/ogi-* are made here:
// `go test -run TestSamples -update ./rules/ogi` plays games through the
// package with a small seeded policy (material, one-ply look at the
// opponent's best capture, noise), ends them naturally (King captured,
// resignation) or with scripted endings (an illegal move of each kind, a
// repetition, 100 quiet plies for a draw), and writes them. Without -update
// the test replays the files through the record reader and replay and checks
// that together they exercise every rule.

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
)

var update = flag.Bool("update", false, "rewrite samples/ogi and samples/broken/ogi-*")

const (
	samplesDir = "../../samples/ogi"
	brokenDir  = "../../samples/broken"
)

var pieceValue = [16]int{king: 1000, princess: 9, rook: 10, bishop: 8, silver: 5, knight: 3, lance: 3, pawn: 1,
	promBit | princess: 12, promBit | rook: 13, promBit | bishop: 11, promBit | silver: 5, promBit | knight: 5,
	promBit | lance: 5, promBit | pawn: 5}

// material counts side's pieces on the board and in hand (the King aside).
func material(p *Position, side int) int {
	n := 0
	for _, c := range p.board {
		if c != 0 && sideOf(c) == side && kindOf(c) != king {
			n += pieceValue[c&15]
		}
	}
	for slot, k := range p.hand[side] {
		if slot != king {
			n += int(k) * pieceValue[slot]
		}
	}
	return n
}

// bestCapture is the value of the best capture the side to move has.
func bestCapture(p *Position, buf []rules.Move) int {
	best := 0
	for _, m := range p.Legal(buf[:0]) {
		if c := mCapture(m); c != 0 && pieceValue[c&15] > best {
			best = pieceValue[c&15]
		}
	}
	return best
}

type policy struct {
	r     *rand.Rand
	noise int
	bias  func(p *Position, m rules.Move) int
	allow func(p *Position, m rules.Move) bool
}

// choose returns the best and second-best moves by the policy.
func (pl *policy) choose(p *Position) (best, second rules.Move, ok bool) {
	moves := p.Legal(nil)
	bs, ss := -1<<30, -1<<30
	var buf []rules.Move
	for _, m := range moves {
		if pl.allow != nil && !pl.allow(p, m) {
			continue
		}
		s := 0
		if c := mCapture(m); c != 0 {
			s += 10 * pieceValue[c&15]
		}
		pc := mPiece(m)
		if m&mPromote != 0 {
			s += 10 * (pieceValue[(pc|promBit)&15] - pieceValue[pc&15])
		}
		if m&mDrop != 0 {
			s -= 15
		}
		c := p.Clone().(*Position)
		c.Play(m)
		if !c.Outcome().Over {
			s -= 9 * bestCapture(c, buf)
		}
		if pl.bias != nil {
			s += pl.bias(p, m)
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

// game is a generated record under construction.
type sgame struct {
	fen    string
	pos    *Position // the current position
	texts  []string
	moves  []rules.Move
	alts   map[int][]string // variations: ply → alternative line
	notes  map[int]string   // comments after a ply
	nags   map[int][]int
	result string
	term   string
	intro  string
}

func newGame(t testing.TB, fen string) *sgame {
	return &sgame{fen: fen, pos: mustParse(t, fen), alts: map[int][]string{}, notes: map[int]string{}, nags: map[int][]int{}}
}

func (g *sgame) play(m rules.Move) {
	g.texts = append(g.texts, g.pos.FormatMove(m))
	g.moves = append(g.moves, m)
	g.pos.Play(m)
}

// run plays the policy until stop says so, the game ends, or max plies.
func (g *sgame) run(pl *policy, max int, stop func(g *sgame) bool) {
	for len(g.texts) < max && !g.pos.Outcome().Over {
		if stop != nil && stop(g) {
			return
		}
		best, second, ok := pl.choose(g.pos)
		if !ok {
			return
		}
		ply := len(g.texts)
		if second != 0 && ply >= 6 && ply%17 == 6 {
			// a variation: the second choice and two replies
			c := g.pos.Clone().(*Position)
			line := []string{c.FormatMove(second)}
			c.Play(second)
			for i := 0; i < 2 && !c.Outcome().Over; i++ {
				m, _, ok := pl.choose(c)
				if !ok {
					break
				}
				line = append(line, c.FormatMove(m))
				c.Play(m)
			}
			g.alts[ply] = line
		}
		g.play(best)
	}
}

var sideResult = [2]string{"1-0", "0-1"}

// finishNatural sets the result of a game that ended or stopped.
func (g *sgame) finishNatural() bool {
	if o := g.pos.Outcome(); o.Over {
		g.result, g.term = o.Result, o.Reason
		n := len(g.texts)
		g.nags[n-1] = append(g.nags[n-1], 1)
		if n >= 2 {
			g.nags[n-2] = append(g.nags[n-2], 4)
			g.notes[n-2] = "Leaves the King en prise."
		}
		return true
	}
	us := g.pos.side
	if material(g.pos, us)+15 <= material(g.pos, 1-us) {
		g.result, g.term = sideResult[1-us], "resignation"
		g.notes[len(g.texts)-1] = fmt.Sprintf("%s resigns.", Game.Sides()[us])
		return true
	}
	return false
}

// endIllegal appends an illegal move text; the mover loses.
func (g *sgame) endIllegal(text, why string) {
	g.texts = append(g.texts, text)
	g.result = sideResult[1-g.pos.side]
	g.term = "illegal move"
	g.notes[len(g.texts)-1] = why
}

func (g *sgame) record(tags [][2]string) *record.Game {
	rg := &record.Game{}
	rg.Tags = append(rg.Tags, record.Tag{Name: "Game", Value: "ogi"})
	for _, t := range tags {
		rg.Tags = append(rg.Tags, record.Tag{Name: t[0], Value: t[1]})
	}
	rg.Tags = append(rg.Tags, record.Tag{Name: "Result", Value: g.result})
	if g.fen != "" {
		rg.Tags = append(rg.Tags, record.Tag{Name: "FEN", Value: g.fen}, record.Tag{Name: "SetUp", Value: "1"})
	}
	rg.Tags = append(rg.Tags, record.Tag{Name: "Termination", Value: g.term})
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
	senteNames = []string{"Komayō", "Tanaka, Haruki", "Morel, Inès", "Okabe, Rin", "Dubois, Léa", "Sato, Kenji", "Veltin, Cyril", "Nakamura, Aoi"}
	goteNames  = []string{"Veltin, Cyril", "Ishida, Mei", "Laurent, Paul", "Komayō", "Fujii, Sora", "Girard, Chloé", "Mori, Daichi", "Petit, Hugo"}
)

func tagsFor(event string, round, i int) [][2]string {
	return [][2]string{
		{"Event", event}, {"Site", "Ōsaka"}, {"Date", fmt.Sprintf("2026.07.%02d", 10+round%18)},
		{"Round", fmt.Sprint(round)}, {"Sente", senteNames[i%len(senteNames)]}, {"Gote", goteNames[(i+3)%len(goteNames)]},
	}
}

type sample struct {
	file string
	g    *sgame
	tags [][2]string
}

// illegalKinds: for each rule, a function that finds such an illegal move in
// the position, or "".
var illegalKinds = []struct {
	rule string
	why  string
	find func(p *Position) string
}{
	{RulePawnDrop, "An unpromoted pawn can never be dropped: the game is lost.", func(p *Position) string {
		if p.hand[p.side][pawn] == 0 {
			return ""
		}
		return firstEmpty(p, func(sq int) bool { return relRank(p.side, sq) == 3 }, "P*")
	}},
	{RuleLanceDropRank, "A lance dropped on the last rank could never move.", func(p *Position) string {
		if p.hand[p.side][lance] == 0 {
			return ""
		}
		return firstEmpty(p, func(sq int) bool { return relRank(p.side, sq) == 7 }, "L*")
	}},
	{RuleKnightDropRank, "A knight dropped on the seventh rank could never move.", func(p *Position) string {
		if p.hand[p.side][knight] == 0 {
			return ""
		}
		return firstEmpty(p, func(sq int) bool { return relRank(p.side, sq) == 6 }, "N*")
	}},
	{RuleDropOccupied, "A drop does not capture.", func(p *Position) string {
		for _, k := range []int{silver, bishop, rook, princess, knight, lance} {
			if p.hand[p.side][k] > 0 {
				for sq := 63; sq >= 0; sq-- {
					if c := p.board[sq]; c != 0 && sideOf(c) != p.side && kindOf(c) != king {
						return string(pieceLetters[k]) + "*" + sqName(sq)
					}
				}
			}
		}
		return ""
	}},
	{RuleCompulsory, "Written without '+': the piece would never move again.", func(p *Position) string {
		for _, m := range p.Legal(nil) {
			if m&mPromote != 0 && m&mChoice == 0 {
				return strings.TrimSuffix(p.FormatMove(m), "+")
			}
		}
		return ""
	}},
	{RulePathBlocked, "The rook cannot pass over a piece.", func(p *Position) string {
		for sq, c := range p.board {
			if c == 0 || sideOf(c) != p.side || len(slideDirs[c&31]) == 0 {
				continue
			}
			for _, d := range slideDirs[c&31] {
				r := rays[d][sq]
				for i := 0; i+1 < len(r); i++ {
					if p.board[r[i]] != 0 {
						if tc := p.board[r[i+1]]; tc == 0 || sideOf(tc) != p.side {
							m := pieceText(c&^goteBit) + sqName(sq) + "-" + sqName(int(r[i+1]))
							if inZone(p.side, sq) || inZone(p.side, int(r[i+1])) {
								m += "="
							}
							return m
						}
						break
					}
				}
			}
		}
		return ""
	}},
	{RulePromotionDenied, "No promotion outside the zone.", func(p *Position) string {
		for _, m := range p.Legal(nil) {
			if m&mChoice == 0 && m&mDrop == 0 && kindOf(mPiece(m)) == silver {
				return p.FormatMove(m) + "+"
			}
		}
		return ""
	}},
	{RuleNotDestination, "A silver general cannot move sideways.", func(p *Position) string {
		for sq, c := range p.board {
			if c != 0 && sideOf(c) == p.side && c&15 == silver && sq&7 < 7 && p.board[sq+1] == 0 {
				return "S" + sqName(sq) + "-" + sqName(sq+1)
			}
		}
		return ""
	}},
}

func firstEmpty(p *Position, ok func(sq int) bool, prefix string) string {
	for _, f := range []int{3, 4, 2, 5, 1, 6, 0, 7} {
		for r := 0; r < 8; r++ {
			sq := r*8 + f
			if p.board[sq] == 0 && ok(sq) {
				return prefix + sqName(sq)
			}
		}
	}
	return ""
}

func newPolicy(seed uint64) *policy {
	return &policy{r: rand.New(rand.NewPCG(seed, 0x06)), noise: 40}
}

// sampleSet collects generated games: the samples in the order they are
// written, and the broken records by name.
type sampleSet struct {
	t      testing.TB
	out    []sample
	broken map[string]*sgame
	round  int // rounds are numbered across all the samples
}

// add appends g to file as the next round of event.
func (s *sampleSet) add(file string, g *sgame, event string) {
	s.round++
	s.out = append(s.out, sample{file, g, tagsFor(event, s.round, s.round)})
}

const moonlight = "Komayō's moonlight games"

// makeSamples generates every sample game and the broken records. The stages
// run in a fixed order: the order fixes the round numbers and the files.
func makeSamples(t *testing.T) ([]sample, map[string]*sgame) {
	s := &sampleSet{t: t, broken: map[string]*sgame{}}
	s.clubGames()
	s.handicapGames()
	s.privilegeGame()
	s.illegalGames()
	s.repetitionGame()
	s.drawGame()
	s.ambiguousGame()
	s.syntaxAndFENGames()
	return s.out, s.broken
}

// clubGames: natural endings, at least three of each; the first King
// capture also gives the broken record whose result contradicts it.
func (s *sampleSet) clubGames() {
	kings, resigns := 0, 0
	for seed := uint64(1); kings+resigns < 8 && seed < 200; seed++ {
		g := newGame(s.t, "")
		g.run(newPolicy(seed), 240, func(g *sgame) bool {
			return len(g.texts) >= 50 && material(g.pos, g.pos.side)+15 <= material(g.pos, 1-g.pos.side)
		})
		if !g.finishNatural() {
			continue
		}
		if g.term == "king captured" && kings >= 5 || g.term == "resignation" && resigns >= 5 {
			continue
		}
		if g.term == "king captured" {
			kings++
			if _, ok := s.broken["result-contradicts-king-capture"]; !ok {
				b := *g
				b.result = sideResult[g.pos.hand[0][king]]
				b.notes = map[int]string{}
				b.alts = map[int][]string{}
				s.broken["result-contradicts-king-capture"] = &b
			}
		} else {
			resigns++
		}
		g.intro = "Generated by the Plateau sample policy; every move replays."
		s.add("osaka-club.pdn", g, "Ōsaka summer club")
	}
}

// handicapGames: Sente's Rook and Bishop promoted; Gote without Rook.
func (s *sampleSet) handicapGames() {
	for i, fen := range []string{
		"lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1+B4+R1/LNSIKSNL b - 1",
		"lnsiksnl/6b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1",
	} {
		for seed := uint64(500 + 10*i); ; seed++ {
			g := newGame(s.t, fen)
			g.run(newPolicy(seed), 240, func(g *sgame) bool {
				return len(g.texts) >= 40 && material(g.pos, g.pos.side)+15 <= material(g.pos, 1-g.pos.side)
			})
			if g.finishNatural() {
				g.intro = "Handicap: the stronger player, Gote, gives an advantage."
				s.add("handicap.pdn", g, "Handicap evening")
				break
			}
		}
	}
}

// privilegeGame: the King's privilege followed by a promoted drop.
func (s *sampleSet) privilegeGame() {
	for seed := uint64(1000); seed < 3000; seed++ {
		pl := newPolicy(seed)
		pl.bias = func(p *Position, m rules.Move) int {
			if m&mKeep != 0 {
				return 400
			}
			if m&mDrop != 0 && promoted(mPiece(m)) {
				return 120
			}
			return 0
		}
		g := newGame(s.t, "")
		g.run(pl, 240, func(g *sgame) bool {
			return len(g.texts) >= 50 && material(g.pos, g.pos.side)+15 <= material(g.pos, 1-g.pos.side)
		})
		keep, pdrop := -1, -1
		for i, m := range g.moves {
			if m&mKeep != 0 && keep < 0 {
				keep = i
			}
			if m&mDrop != 0 && promoted(mPiece(m)) && keep >= 0 && i > keep && (i-keep)%2 == 0 && pdrop < 0 {
				pdrop = i
			}
		}
		if keep < 0 || pdrop < 0 || !g.finishNatural() {
			continue
		}
		g.notes[keep] = "The King's privilege: the promoted piece stays promoted in hand."
		g.notes[pdrop] = "Dropped promoted."
		s.add("endings.pdn", g, moonlight)
		return
	}
}

// illegalGames: illegal-move endings, one per rule.
func (s *sampleSet) illegalGames() {
	for k, kind := range illegalKinds {
		for seed := uint64(5000 + 100*k); ; seed++ {
			g := newGame(s.t, "")
			text := ""
			g.run(newPolicy(seed), 160, func(g *sgame) bool {
				if len(g.texts) < 16 {
					return false
				}
				text = kind.find(g.pos)
				return text != ""
			})
			if text == "" {
				continue
			}
			if _, err := g.pos.ParseMove(text); !isRule(err, kind.rule) {
				continue
			}
			if kind.rule == RulePawnDrop {
				s.brokenAfterIllegal(g, text, seed)
			}
			g.endIllegal(text, kind.why)
			s.add("endings.pdn", g, moonlight)
			break
		}
	}
}

// brokenAfterIllegal makes two broken records from g, about to end with the
// illegal move text: one where play goes on after it, one that names the
// wrong winner.
func (s *sampleSet) brokenAfterIllegal(g *sgame, text string, seed uint64) {
	b := *g
	b.texts = append([]string(nil), g.texts...)
	b.alts, b.notes = map[int][]string{}, map[int]string{}
	c := g.pos.Clone().(*Position)
	pl := newPolicy(seed)
	m1, _, _ := pl.choose(c)
	t1 := c.FormatMove(m1)
	c.Play(m1)
	m2, _, _ := pl.choose(c)
	b.endIllegal(text, "")
	b.texts = append(b.texts, t1, c.FormatMove(m2))
	s.broken["illegal-then-more"] = &b
	w := *g
	w.texts = append([]string(nil), g.texts...)
	w.alts, w.notes = map[int][]string{}, map[int]string{}
	w.endIllegal(text, "")
	w.result = sideResult[g.pos.side]
	s.broken["illegal-wrong-winner"] = &w
}

// repetitionGame: shuffle two pieces back and forth, then repeat.
func (s *sampleSet) repetitionGame() {
	for seed := uint64(9000); ; seed++ {
		g := newGame(s.t, "")
		g.run(newPolicy(seed), 24, nil)
		if g.pos.Outcome().Over {
			continue
		}
		seq, ok := shuffle(g.pos.Clone().(*Position))
		if !ok {
			continue
		}
		for _, m := range seq {
			g.play(m)
		}
		text := g.texts[len(g.texts)-4]
		if _, err := g.pos.ParseMove(text); !isRule(err, RuleRepetition) {
			continue
		}
		g.notes[len(g.texts)-1] = "Back where we were."
		g.endIllegal(text, "The same move to the same position: repetition, the game is lost.")
		s.add("endings.pdn", g, moonlight)
		return
	}
}

// shuffle finds four quiet moves from c: two pieces other than the Kings go
// and then come back. It plays them on c.
func shuffle(c *Position) (seq []rules.Move, ok bool) {
	quiet := func(p *Position, m rules.Move) bool {
		return mCapture(m) == 0 && m&(mDrop|mPromote) == 0 && mPiece(m)&15 != pawn && m&mChoice == 0
	}
	for i := 0; i < 4; i++ {
		var pick rules.Move
		found := false
		for _, m := range c.Legal(nil) {
			if !quiet(c, m) {
				continue
			}
			if i >= 2 { // the way back
				prev := seq[i-2]
				if mFrom(m) != mTo(prev) || mTo(m) != mFrom(prev) {
					continue
				}
			}
			if i < 2 && kindOf(mPiece(m)) == king {
				continue
			}
			pick, found = m, true
			break
		}
		if !found {
			return seq, false
		}
		seq = append(seq, pick)
		c.Play(pick)
	}
	return seq, true
}

// drawGame: the 100-ply draw, quiet moves only once the opening is over; the
// same game with a draw claimed far too early is a broken record.
func (s *sampleSet) drawGame() {
	for seed := uint64(9500); ; seed++ {
		g := newGame(s.t, "")
		g.run(newPolicy(seed), 30, nil)
		if g.pos.Outcome().Over {
			continue
		}
		pl := newPolicy(seed)
		pl.allow = func(p *Position, m rules.Move) bool {
			return mCapture(m) == 0 && !(m&mDrop == 0 && mPiece(m)&15 == pawn)
		}
		g.run(pl, 400, func(g *sgame) bool { return g.pos.Quiet() >= DrawPlies+4 })
		if g.pos.Quiet() < DrawPlies || g.pos.Outcome().Over {
			continue
		}
		g.result, g.term = "1/2-1/2", "100-ply rule"
		g.notes[len(g.texts)-1] = "A hundred plies without capture or pawn move: drawn by agreement."
		s.add("endings.pdn", g, moonlight)
		b := newGame(s.t, "")
		b.texts = append([]string(nil), g.texts[:36]...)
		b.result, b.term = "1/2-1/2", "agreement"
		s.broken["draw-too-early"] = b
		return
	}
}

// ambiguousGame: a broken record with an ambiguous short move.
func (s *sampleSet) ambiguousGame() {
	for seed := uint64(12000); ; seed++ {
		g := newGame(s.t, "")
		short := ""
		g.run(newPolicy(seed), 120, func(g *sgame) bool {
			seen := map[string]int{}
			for _, m := range g.pos.Legal(nil) {
				if m&mDrop != 0 {
					continue
				}
				txt := g.pos.FormatMove(m)
				txt = txt[:len(pieceText(mPiece(m)&^goteBit))] + txt[len(pieceText(mPiece(m)&^goteBit))+2:]
				seen[txt]++
				if seen[txt] == 2 {
					short = txt
					return true
				}
			}
			return false
		})
		if short == "" {
			continue
		}
		// Neither reading lets the game go on: Gote's pawn then moves two
		// squares (replay reads the reading that goes furthest and fails
		// there, naming the ambiguity).
		g.texts = append(g.texts, short, "Pb5-b3", "Pe4-e5")
		g.result, g.term = "*", ""
		g.alts, g.notes, g.nags = map[int][]string{}, map[int]string{}, map[int][]int{}
		s.broken["ambiguous"] = g
		return
	}
}

// syntaxAndFENGames: broken records with a syntax error and a bad FEN.
func (s *sampleSet) syntaxAndFENGames() {
	x := newGame(s.t, "")
	x.run(newPolicy(77), 9, nil)
	x.texts = append(x.texts, "Pe3-e9", "Pb6-b5")
	x.result, x.term = "*", ""
	x.alts = map[int][]string{}
	s.broken["move-syntax"] = x
	f := newGame(s.t, "")
	f.run(newPolicy(78), 4, nil)
	f.fen = "lnsiksnl/1r4b1/ppppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1"
	f.result, f.term = "*", ""
	f.alts = map[int][]string{}
	s.broken["bad-fen"] = f
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
			tags := [][2]string{{"Event", "Broken samples"}, {"Site", "Plateau"}, {"Date", "2026.07.14"}, {"Round", name},
				{"Sente", "Komayō"}, {"Gote", "Veltin, Cyril"}}
			out = append(out, recordtest.Sample{File: "ogi-" + name + ".pdn", Game: g.record(tags)})
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

// checkSamples replays samples/ogi and checks what the games cover.
func checkSamples(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(samplesDir, "*.pdn"))
	if len(files) == 0 {
		t.Fatal("no samples: run go test -run TestSamples -update ./rules/ogi")
	}
	cover := map[string]int{}
	games := 0
	for _, file := range files {
		for _, rec := range readGames(t, file) {
			games++
			g := replay.Replay(rec, replay.Options{})
			if g.Err != nil {
				t.Errorf("%s game %d: %v", file, games, g.Err)
				continue
			}
			if rec.Tag("FEN") != "" {
				cover["handicap start"]++
			}
			p := g.Start.Clone().(*Position)
			for _, st := range g.Main {
				m := st.Move
				pc := mPiece(m)
				switch {
				case m&mKeep != 0:
					cover["King's privilege"]++
				case m&mPromote != 0 && m&mChoice == 0:
					cover["promotion forced"]++
				case m&mPromote != 0:
					cover["promotion taken"]++
				case m&mChoice != 0 && kindOf(pc) != king:
					cover["promotion declined"]++
				}
				if m&mDrop != 0 {
					cover["drop"]++
					if promoted(pc) {
						cover["promoted drop"]++
					}
				}
				if mCapture(m) != 0 {
					cover["capture"]++
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
				p.Play(m)
			}
			if p.Key() != g.Final.Key() {
				t.Errorf("%s: final keys differ", file)
			}
			reason := g.Outcome.Reason
			switch {
			case g.Result == "1/2-1/2":
				cover["100-ply draw"]++
			case !g.Outcome.Over:
				cover["resignation"]++
			default:
				cover[reason]++
			}
		}
	}
	if games < 20 {
		t.Errorf("%d sample games, want at least 20", games)
	}
	want := []string{"handicap start", "King's privilege", "promotion forced", "promotion taken", "promotion declined",
		"drop", "promoted drop", "capture", "variation", "comment", "NAG", "100-ply draw", "resignation", "king captured"}
	for _, k := range illegalKinds {
		want = append(want, "illegal move ("+k.rule+")")
	}
	want = append(want, "illegal move ("+RuleRepetition+")")
	for _, w := range want {
		if cover[w] == 0 {
			t.Errorf("no sample game shows %q", w)
		}
	}
	if t.Failed() {
		t.Logf("coverage: %v", cover)
	}
}

// checkBroken: each broken record fails replay with its own error.
func checkBroken(t *testing.T) {
	want := map[string]func(e *replay.Error) bool{
		"illegal-then-more": func(e *replay.Error) bool { return e.Rule() == RulePawnDrop },
		"illegal-wrong-winner": func(e *replay.Error) bool {
			return e.Rule() == RulePawnDrop
		},
		"ambiguous": func(e *replay.Error) bool {
			var me *rules.MoveError
			return errors.As(e, &me) && me.Kind == rules.Illegal && e.Move == "Pb5-b3" && strings.Contains(e.Error(), "no reading lets the line go on")
		},
		"move-syntax": func(e *replay.Error) bool {
			var me *rules.MoveError
			return errors.As(e, &me) && me.Kind == rules.Syntax
		},
		"result-contradicts-king-capture": func(e *replay.Error) bool { return errors.Is(e, rules.ErrResult) },
		"bad-fen":                         func(e *replay.Error) bool { return errors.Is(e, rules.ErrPosition) },
		"draw-too-early":                  func(e *replay.Error) bool { return errors.Is(e, rules.ErrResult) },
	}
	for name, ok := range want {
		file := filepath.Join(brokenDir, "ogi-"+name+".pdn")
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
