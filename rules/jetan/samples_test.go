package jetan

// The sample records under samples/jetan and samples/broken/jetan-* are
// made here: games played by a small seeded policy through Position (so every
// move is checked), selected for the endings and features they show. Run
//
//	go test ./rules/jetan -run TestSamples -update
//
// to rewrite them; without -update the test regenerates them in memory and
// fails if the files differ.

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

var update = flag.Bool("update", false, "rewrite the Jetan sample records")

const samplesDir = "../../samples"

var barsoomians = []string{
	"Tara of Helium", "Gahan of Gathol", "Dejah Thoris", "Tars Tarkas", "Kantos Kan",
	"Carthoris", "Thuvia of Ptarth", "Sola", "Mors Kajak", "Tardos Mors", "Xodar",
	"O-Tar of Manator", "U-Dor", "A-Kor", "Lan-O", "E-Med", "Ghek", "Valla Dia",
}

// policy picks moves: it takes a win when it sees one, avoids moves that let
// the opponent win at once, prefers captures, and otherwise plays at random.
type policy struct {
	rng        *rand.Rand
	allowDraw  bool // may take a Chief with another piece (a draw)
	greed      int  // percent of the time a capture is preferred
	quietUntil int  // no captures before this ply
}

func (pl *policy) losesAtOnce(p *Position, m rules.Move) bool {
	c := *p
	c.Play(m)
	if c.Outcome().Over {
		return false
	}
	for _, r := range c.Legal(nil) {
		d := c
		d.Play(r)
		if o := d.Outcome(); o.Over && o.Result == winFor(c.toMove) {
			return true
		}
	}
	return false
}

func (pl *policy) choose(p *Position, ply int) rules.Move {
	moves := p.Legal(nil)
	var safe, captures []rules.Move
	for _, m := range moves {
		c := *p
		c.Play(m)
		if o := c.Outcome(); o.Over {
			if o.Result == winFor(p.toMove) {
				return m
			}
			if !pl.allowDraw {
				continue
			}
		}
		if pl.losesAtOnce(p, m) {
			continue
		}
		safe = append(safe, m)
		if m&moveCapture != 0 {
			captures = append(captures, m)
		}
	}
	if len(safe) == 0 {
		safe = moves
	}
	if len(captures) > 0 && ply >= pl.quietUntil && pl.rng.IntN(100) < pl.greed {
		best, bestV := captures[0], -1
		for _, m := range captures {
			if v := marks[kindOf(p.board[moveTo(m)])]; v > bestV {
				best, bestV = m, v
			}
		}
		return best
	}
	var quiet []rules.Move
	for _, m := range safe {
		if m&moveCapture == 0 {
			quiet = append(quiet, m)
		}
	}
	if ply < pl.quietUntil && len(quiet) > 0 {
		return quiet[pl.rng.IntN(len(quiet))]
	}
	return safe[pl.rng.IntN(len(safe))]
}

// played is a game played by the policy, with what happened in it.
type played struct {
	fen        string
	moves      []string
	final      *Position
	escapes    []int // plies of escapes
	flierJumps []int // plies of Flier captures over pieces
}

func playGame(fen string, seed uint64, pl policy, maxPlies int) played {
	pl.rng = rand.New(rand.NewPCG(seed, 0x6a6574616e))
	p, err := Parse(fen)
	if err != nil {
		panic(err)
	}
	g := played{fen: fen}
	for ply := 0; ply < maxPlies && !p.Outcome().Over; ply++ {
		m := pl.choose(p, ply)
		if m&moveEscape != 0 {
			g.escapes = append(g.escapes, ply)
		}
		from, to := moveFrom(m), moveTo(m)
		if kindOf(p.board[from]) == flier && m&moveCapture != 0 && !p.clear(geo[flier][from][reach[flier][from][to]-1].paths) {
			g.flierJumps = append(g.flierJumps, ply)
		}
		g.moves = append(g.moves, p.FormatMove(m))
		p.Play(m)
	}
	g.final = p
	return g
}

// find plays games from seed upward until one satisfies ok.
func find(t *testing.T, fen string, seed uint64, pl policy, maxPlies int, ok func(played) bool) (played, uint64) {
	t.Helper()
	for s := seed; s < seed+3000; s++ {
		g := playGame(fen, s, pl, maxPlies)
		if ok(g) {
			return g, s
		}
	}
	t.Fatalf("no game found for %q from seed %d", fen, seed)
	return played{}, 0
}

func reasonIs(reason string, minPlies int) func(played) bool {
	return func(g played) bool {
		return g.final.Outcome().Reason == reason && len(g.moves) >= minPlies
	}
}

// toRecord turns a played game into a record with tags.
func toRecord(g played, round int, result, termination string) *record.Game {
	r := &record.Game{}
	black := barsoomians[(round*5)%len(barsoomians)]
	orange := barsoomians[(round*5+3)%len(barsoomians)]
	r.SetTag("Game", "jetan")
	r.SetTag("Event", "Plateau Jetan samples")
	r.SetTag("Site", "Manator")
	r.SetTag("Date", fmt.Sprintf("2026.%02d.%02d", 1+round%12, 1+(round*7)%28))
	r.SetTag("Round", fmt.Sprint(round))
	r.SetTag("Black", black)
	r.SetTag("Orange", orange)
	if o := g.final.Outcome(); o.Over {
		result, termination = o.Result, o.Reason
	}
	r.SetTag("Result", result)
	if g.fen != "" && g.fen != StartFEN {
		r.SetTag("FEN", g.fen)
	}
	if termination != "" {
		r.SetTag("Termination", termination)
	}
	for i, mv := range g.moves {
		r.Moves = append(r.Moves, &record.Move{Text: mv, Ply: i})
	}
	r.Result = result
	return r
}

// branch adds at ply a variation: another legal move there and, when the
// game goes on, one reply.
func branch(t *testing.T, r *record.Game, g played, ply int, comment string) {
	t.Helper()
	p, _ := Parse(g.fen)
	for _, mv := range g.moves[:ply] {
		play(t, p, mv)
	}
	var alt rules.Move
	found := false
	for _, m := range p.Legal(nil) {
		if p.FormatMove(m) != g.moves[ply] {
			alt, found = m, true
			break
		}
	}
	if !found {
		return
	}
	line := record.Line{{Text: p.FormatMove(alt), Ply: ply, After: []string{comment}}}
	p.Play(alt)
	if ms := p.Legal(nil); len(ms) > 0 {
		line = append(line, &record.Move{Text: p.FormatMove(ms[0]), Ply: ply + 1, NAGs: []int{6}})
	}
	r.Moves[ply].Variations = append(r.Moves[ply].Variations, line)
}

type sampleFile struct {
	path  string
	games []*record.Game
}

func buildSamples(t *testing.T) []sampleFile {
	var out []sampleFile
	add := func(name string, games ...*record.Game) {
		out = append(out, sampleFile{filepath.Join(samplesDir, "jetan", name), games})
	}
	normal := policy{greed: 70, quietUntil: 12}

	g, _ := find(t, "", 1, normal, 300, func(g played) bool {
		return reasonIs(ReasonPrincess, 40)(g) && g.final.Outcome().Result == "1-0"
	})
	r := toRecord(g, 1, "", "")
	r.Intro = []string{"Black takes the Orange Princess."}
	r.Moves[len(r.Moves)-1].NAGs = []int{1}
	branch(t, r, g, 6, "also possible")
	add("princess-taken-black.pdn", r)

	g, _ = find(t, "", 100, normal, 300, func(g played) bool {
		return reasonIs(ReasonPrincess, 40)(g) && g.final.Outcome().Result == "0-1"
	})
	r = toRecord(g, 2, "", "")
	r.Moves[len(r.Moves)-1].After = []string{"Orange takes the Black Princess."}
	add("princess-taken-orange.pdn", r)

	g, _ = find(t, "", 200, normal, 300, reasonIs(ReasonChiefByChief, 20))
	r = toRecord(g, 3, "", "")
	r.Moves[len(r.Moves)-1].After = []string{"Chief takes Chief."}
	add("chief-takes-chief.pdn", r)

	drawish := policy{greed: 70, quietUntil: 12, allowDraw: true}
	g, _ = find(t, "", 300, drawish, 300, reasonIs(ReasonChiefTaken, 20))
	r = toRecord(g, 4, "", "")
	r.Moves[len(r.Moves)-1].After = []string{"A Chief taken by another piece: the game is drawn."}
	add("chief-taken-draw.pdn", r)

	// Equal forces: Chief, Princess and Dwar against Chief, Princess and Flier.
	eq := "3c5p/10/6f3/10/10/10/10/2D7/10/P6C2 b Ee 0"
	quiet := policy{greed: 0, quietUntil: 1000}
	g, _ = find(t, eq, 400, quiet, 300, reasonIs(ReasonEqualForces, 10))
	r = toRecord(g, 5, "", "")
	r.Intro = []string{"Three pieces each, of equal value (14 marks): ten plies without a win draw."}
	add("equal-forces.pdn", r)

	// Equal forces reached by a capture in play, from a lighter start.
	eq2 := "4c4p/2n7/10/3a6/10/10/6W3/7N2/10/P5C3 b Ee 0"
	g, _ = find(t, eq2, 500, policy{greed: 100}, 300, func(g played) bool {
		return reasonIs(ReasonEqualForces, 12)(g)
	})
	r = toRecord(g, 6, "", "")
	add("equal-forces-after-capture.pdn", r)

	g, _ = find(t, "", 600, normal, 300, func(g played) bool {
		return len(g.escapes) > 0 && g.final.Outcome().Over && len(g.moves) >= 30
	})
	r = toRecord(g, 7, "", "")
	for _, e := range g.escapes {
		r.Moves[e].After = append(r.Moves[e].After, "The escape.")
		r.Moves[e].NAGs = []int{5}
	}
	add("escape.pdn", r)

	g, _ = find(t, "", 700, normal, 300, func(g played) bool {
		return len(g.flierJumps) >= 2 && g.final.Outcome().Over
	})
	r = toRecord(g, 8, "", "")
	for _, j := range g.flierJumps {
		r.Moves[j].After = append(r.Moves[j].After, "The Flier captures over pieces.")
	}
	branch(t, r, g, g.flierJumps[0], "declining the capture")
	add("flier-jumps.pdn", r)

	g = playGame("", 800, normal, 41)
	r = toRecord(g, 9, "1-0", "resignation")
	r.Moves[len(r.Moves)-1].After = []string{"Orange resigns."}
	add("resignation.pdn", r)

	g = playGame("", 900, normal, 30)
	r = toRecord(g, 10, "1/2-1/2", "agreement")
	r.Moves[len(r.Moves)-1].After = []string{"Drawn by agreement."}
	add("agreement.pdn", r)

	g = playGame("", 1000, normal, 25)
	r = toRecord(g, 11, "*", "unterminated")
	add("unfinished.pdn", r)

	// Orange moves first (the players agreed on it).
	of := "wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW o Ee 0"
	g, _ = find(t, of, 1100, normal, 300, func(g played) bool { return g.final.Outcome().Over && len(g.moves) >= 20 })
	r = toRecord(g, 12, "", "")
	r.Intro = []string{"Orange moves first, as the players agreed."}
	add("orange-first.pdn", r)

	// A club collection of twenty games.
	var club []*record.Game
	for i := range 20 {
		pl := normal
		pl.allowDraw = i%4 == 0
		g := playGame("", uint64(2000+i), pl, 400)
		res := "*"
		if !g.final.Outcome().Over {
			res = []string{"1-0", "0-1", "1/2-1/2"}[i%3]
		}
		club = append(club, toRecord(g, 20+i, res, map[string]string{"*": "", "1-0": "resignation", "0-1": "resignation", "1/2-1/2": "agreement"}[res]))
	}
	add("club.pdn", club...)

	out = append(out, brokenSamples(t)...)
	return out
}

// brokenSamples are records with one error each.
func brokenSamples(t *testing.T) []sampleFile {
	var out []sampleFile
	add := func(what string, r *record.Game) {
		out = append(out, sampleFile{filepath.Join(samplesDir, "broken", "jetan-"+what+".pdn"), []*record.Game{r}})
	}
	base := func(fen string, moves []string, result string) *record.Game {
		p, err := Parse(fen)
		if err != nil && fen == "" {
			t.Fatal(err)
		}
		g := played{fen: fen, moves: moves, final: p}
		if p == nil {
			g.final, _ = Parse("")
		}
		r := toRecord(g, 90, result, "")
		return r
	}
	normal := policy{greed: 70, quietUntil: 12}
	pre := playGame("", 42, normal, 8).moves

	// A Dwar cannot pass through its own Panthan.
	add("path-blocked", base("", append(append([]string{}, pre...), "c1-c4"), "*"))
	// A Panthan never moves backward.
	add("panthan-backward", base("", []string{"e2-e3", "e9-e8", "e3-e2"}, "*"))
	// The Princess may not move onto a square an enemy piece could reach.
	add("threatened-square", base(fen(t, "Ca1 Pe5 ca10 pj10 we9", "b Ee 0"), []string{"e5-e7"}, "*"))
	// The Princess never captures.
	add("princess-captures", base(fen(t, "Ca1 Pe5 ca10 pj10 nf6", "b Ee 0"), []string{"e5xf6"}, "*"))
	// One escape per game.
	add("second-escape", base(fen(t, "Ca1 Pe1 ca10 pj10", "b Ee 0"), []string{"e1-e8", "a10-a7", "e8-e1"}, "*"))
	// The game ended when the Princess was taken; the Result says otherwise.
	add("wrong-result", base(fen(t, "Ca1 Pj1 ca10 pe8 Ne6", "b Ee 0"), []string{"e6-e7", "a10-a9", "e7xe8"}, "0-1"))
	// A draw by equal forces cannot be a win.
	add("equal-forces-won", base(fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "b - 6"), []string{"e5-e7", "e8-c6", "e7-e5", "c6-e8"}, "1-0"))
	// A move after the game ended.
	add("after-end", base(fen(t, "Ce5 Pj1 ce8 pj10", "b Ee 0"), []string{"e5xe8", "j10-j9"}, "1-0"))
	// A start position with two Black Chiefs.
	add("bad-fen", base("wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCCFDAW b Ee 0", []string{"e2-e3"}, "*"))
	// Not a Jetan move.
	add("syntax", base("", []string{"e2-e3", "e9-e8", "e2/e4"}, "*"))
	return out
}

func TestSamples(t *testing.T) {
	for _, f := range buildSamples(t) {
		var buf bytes.Buffer
		for _, g := range f.games {
			buf.Write(record.Format(g))
		}
		if *update {
			if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f.path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(f.path)
		if err != nil {
			t.Errorf("%v (run go test -run TestSamples -update)", err)
			continue
		}
		if !bytes.Equal(old, buf.Bytes()) {
			t.Errorf("%s differs from what the generator makes (run go test -run TestSamples -update)", f.path)
		}
	}
}
