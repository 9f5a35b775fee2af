package generate

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// ErrGenerate is wrapped by the errors of this package: a game whose rules
// refuse every Result the generator could write.
var ErrGenerate = errors.New("cannot generate game")

// Generator makes the games of one collection: one ruleset and one seed.
// It is safe for concurrent use; each goroutine needs its own Worker.
type Generator struct {
	game    rules.Game
	prof    profile
	seed    uint64
	start   rules.Position
	sides   [2]string
	eloTags [2]string
	targets [2]rules.Coord // start square of each side's target piece
	chiefs  [2]rules.Coord // start square of each side's second royal piece
	book    *node
	players []player
	events  []event
	rounds  [][]string // per event, the date of each round
	elos    []string   // elos[r-minElo] = strconv.Itoa(r)
}

const (
	minElo = 1000
	maxElo = 2900
)

// Salts that separate the random streams made from one seed.
const (
	saltPool  = 0x706f6f6c
	saltBook  = 0x626f6f6b
	saltGames = 0x67616d65
)

// New prepares the collection of game g for seed: the player pool, the
// events and the opening book.
func New(g rules.Game, seed uint64) (*Generator, error) {
	start, err := g.NewPosition("")
	if err != nil {
		return nil, fmt.Errorf("%w: %s start position: %w", ErrGenerate, g.ID(), err)
	}
	gen := &Generator{game: g, prof: profileOf(g), seed: seed, start: start, sides: g.Sides()}
	for s := range gen.sides {
		gen.eloTags[s] = gen.sides[s] + "Elo"
	}
	if gen.prof.target != 0 {
		for _, pl := range start.Board() {
			c := rules.CoordOf(pl.Square)
			if c != noCoord && pl.Kind == gen.prof.target && gen.targets[pl.Side] == noCoord {
				gen.targets[pl.Side] = c
			}
			if c != noCoord && pl.Kind == gen.prof.chief && gen.prof.chief != 0 && gen.chiefs[pl.Side] == noCoord {
				gen.chiefs[pl.Side] = c
			}
		}
	}
	r := rand.New(rand.NewPCG(seed, saltPool))
	gen.players = newPool(r)
	gen.events = newEvents(r, 600)
	gen.rounds = make([][]string, len(gen.events))
	for i, e := range gen.events {
		for k := 0; k < e.rounds; k++ {
			// Two rounds a day, months of 28 days to keep dates valid.
			d := e.day + k/2
			m, y := e.month+(d-1)/28, e.year
			d = (d-1)%28 + 1
			if m > 12 {
				m, y = m-12, y+1
			}
			gen.rounds[i] = append(gen.rounds[i], date(y, m, d))
		}
	}
	for e := minElo; e <= maxElo; e++ {
		gen.elos = append(gen.elos, strconv.Itoa(e))
	}
	gen.book = gen.buildBook()
	return gen, nil
}

// Rules is the game the generator plays.
func (g *Generator) Rules() rules.Game { return g.game }

// Game returns game i of the collection, freshly allocated.
func (g *Generator) Game(i int) (*record.Game, error) { return g.NewWorker().Game(i) }

// Worker makes games with reusable buffers. It is not safe for concurrent use.
type Worker struct {
	g      *Generator
	src    *rand.PCG
	r      *rand.Rand
	legal  []rules.Move
	legal2 []rules.Move
	scores []int
	facts  []rules.MoveFacts // of legal, by scoreAll
	// next and nextScores are the replies to the move pick played.
	next       []rules.Move
	nextScores []int
	nextFacts  []rules.MoveFacts
	reply      []rules.Move // the opponent's moves, in hangs
	replyFacts []rules.MoveFacts
	one        [1]rules.Move
	pol        rules.Policy
	oneFacts   []rules.MoveFacts
	doomed     bool // choose found no move that saves the target
	arena      []record.Move
	line       record.Line
	tags       []record.Tag
	rec        record.Game
	text       []byte // the text of the game's moves, main line and variations
	spans      []textSpan
}

// NewWorker returns a worker of the generator.
func (g *Generator) NewWorker() *Worker {
	src := rand.NewPCG(0, 0)
	return &Worker{g: g, src: src, r: rand.New(src)}
}

// mix spreads a game index over 64 bits (SplitMix64 finaliser).
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// noCoord is the zero Coord: no piece, or a square without coordinates.
var noCoord rules.Coord

// state is what a game in progress knows besides its position.
type state struct {
	targets [2]rules.Coord // square of each side's target piece (noCoord if none)
	chiefs  [2]rules.Coord // square of each side's second royal piece (noCoord if none)
	capt    [2]int         // pieces captured by each side
	noise   [2]int         // width of each side's random noise
}

// Game plays game i of the collection. The record and everything in it
// belongs to the worker until its next call to Game.
func (w *Worker) Game(i int) (*record.Game, error) {
	w.src.Seed(w.g.seed^saltGames, mix(uint64(i)))
	who, st := w.drawPlayers()
	w.arena = w.arena[:0]
	w.line = w.line[:0]
	w.text, w.spans = w.text[:0], w.spans[:0]
	m := w.newMatch(st)
	m.play()
	if err := m.pos.CheckResult(m.result); err != nil {
		return nil, fmt.Errorf("%w: game %d of %s: %w", ErrGenerate, i, w.g.game.ID(), err)
	}
	return w.finish(who, m), nil
}

// seating is who plays a game, where and how strong.
type seating struct {
	pl        [2]player
	ev, round int
	elo       [2]int
}

// drawPlayers draws the players, event and round of a game, and each
// side's noise from its rating.
func (w *Worker) drawPlayers() (seating, state) {
	g, r := w.g, w.r
	var s seating
	s.pl[0] = g.players[skewed(r, len(g.players))]
	s.pl[1] = g.players[skewed(r, len(g.players))]
	for s.pl[1].name == s.pl[0].name {
		s.pl[1] = g.players[r.IntN(len(g.players))]
	}
	s.ev = skewed(r, len(g.events))
	s.round = r.IntN(g.events[s.ev].rounds)
	st := state{targets: g.targets, chiefs: g.chiefs}
	for side := range s.pl {
		s.elo[side] = clamp(s.pl[side].rating+r.IntN(61)-30, minElo, maxElo)
		// 2700 plays with noise 30, 1100 with noise 150.
		st.noise[side] = clamp(150-(s.elo[side]-1100)*120/1600, 20, 160)
	}
	return s, st
}

// match is a game in progress.
type match struct {
	w          *Worker
	pos        rules.Position
	st         state
	node       *node // where the game is in the opening book; nil once out
	vars       int   // variations still to write
	unfinished int   // the ply at which the record stops, unfinished; -1: none
	commented  bool
	// ready: w.legal and w.scores hold the moves of pos, scored.
	ready        bool
	result, term string
	// fastGame: the rules choose the moves (rules.Chooser). A Chooser's
	// Choose fails when the game is over, so its Outcome is asked only
	// then (and in the opening book, which is never over). Before ending
	// a Chooser's game any other way, over looks whether it has already
	// ended by the rules.
	fastGame bool
}

func (w *Worker) newMatch(st state) *match {
	r := w.r
	m := &match{w: w, pos: w.g.start.Clone(), st: st, node: w.g.book, unfinished: -1}
	if x := r.IntN(100); x >= 55 {
		m.vars = 1 + (x-55)/30 // 0: 55%, 1: 30%, 2: 15%
	}
	if r.IntN(100) == 0 {
		m.unfinished = 10 + r.IntN(120)
	}
	_, m.fastGame = m.pos.(rules.Chooser)
	return m
}

// over reports whether the game has ended by the rules, and then takes
// its result.
func (m *match) over() bool {
	o := m.pos.Outcome()
	if o.Over {
		m.result, m.term = o.Result, o.Reason
	}
	return o.Over
}

// play plays the game to its end: by the rules, an adjudication, a
// resignation, an agreed draw or a record left unfinished.
func (m *match) play() {
	for ply := 0; ; ply++ {
		if !m.fastGame && m.over() {
			break
		}
		// One draw makes the ply's decisions (dice) and the Chooser's seed.
		u := m.w.r.Uint64()
		d := newDice(u)
		side := m.pos.ToMove()
		if m.stops(ply, side, &d) {
			break
		}
		mv, before, ok := m.move(ply, side, u, &d)
		if !ok {
			break
		}
		m.record(ply, side, mv, before, &d)
	}
	if m.result == "" {
		m.result = "*"
	}
}

// stops ends the game before side's move at ply, when the record stops
// there, the game is adjudicated, or a player resigns or a draw is agreed.
func (m *match) stops(ply int, side rules.Side, d *dice) bool {
	w, p, r := m.w, &m.w.g.prof, m.w.r
	if ply == m.unfinished {
		if !m.fastGame || !m.over() {
			m.result, m.term = "*", "unterminated"
		}
		return true
	}
	if ply >= p.maxPlies {
		if m.fastGame && m.over() {
			return true
		}
		m.result, m.term = w.first(m.pos, p.draws), "adjudication"
		if m.result == "" {
			m.result, m.term = "*", "unterminated"
		}
		return true
	}
	lead := m.st.capt[side.Other()] - m.st.capt[side]
	if p.resign > 0 && ply >= p.resignPly && lead >= p.resign && r.IntN(6) == 0 {
		if m.fastGame && m.over() {
			return true
		}
		if res := w.first(m.pos, p.wins[side.Other()]); res != "" {
			m.result, m.term = res, "resignation"
			return true
		}
	}
	if p.agree > 0 && ply >= 40 && lead >= -1 && lead <= 1 && d.below(1<<16) < int(p.agree*(1<<16)) {
		if res := w.first(m.pos, p.draws); res != "" {
			m.result, m.term = res, "draw agreed"
			return true
		}
	}
	return false
}

// move chooses side's move at ply: from the book, by the rules' Chooser,
// or by pick. before is the position before the move when pick played it
// (m.pos is then after it). ok is false when the game ends instead (no
// move, or a resignation).
func (m *match) move(ply int, side rules.Side, u uint64, d *dice) (mv rules.Move, before rules.Position, ok bool) {
	w, r := m.w, m.w.r
	chooser, fast := m.pos.(rules.Chooser)
	if !m.ready && !fast {
		w.legal = m.pos.Legal(w.legal[:0])
		if len(w.legal) == 0 { // the rules say the game goes on, yet there is no move
			m.result, m.term = "*", "unterminated"
			return noMove, nil, false
		}
	}
	var legal []rules.Move // the legal moves of pos, when computed
	if !fast {
		legal = w.legal
	}
	mv, inBook := w.bookMove(&m.node, ply, legal)
	switch {
	case inBook:
		m.ready = false
		return mv, nil, true
	case fast:
		mv, w.doomed, ok = chooser.Choose(w.policyNoise(side, &m.st, m.st.noise[side], d.below(1000)), u, noMove)
		if !ok {
			if !m.over() { // the rules say the game goes on, yet there is no move
				m.result, m.term = "*", "unterminated"
			}
			return noMove, nil, false
		}
	default:
		if !m.ready {
			w.scores, w.facts, _ = scoreAll(r, &w.g.prof, m.pos, w.legal, &m.st, side, m.st.noise[side], noMove, w.scores[:0], w.facts[:0])
		}
		mv, before, m.ready = w.pick(&m.pos, &m.st, side)
	}
	if m.resigns(side) {
		return noMove, nil, false
	}
	return mv, before, true
}

// resigns ends the game by side's resignation, usually, when every move
// tried loses its target.
func (m *match) resigns(side rules.Side) bool {
	w := m.w
	if w.doomed && w.r.IntN(3) > 0 {
		if res := w.first(m.pos, w.g.prof.wins[side.Other()]); res != "" {
			m.result, m.term = res, "resignation"
			return true
		}
	}
	return false
}

// record writes side's move mv at ply into the record (with a variation,
// a NAG or a comment now and then) and plays it, unless pick did (before
// is then the position before it).
func (m *match) record(ply int, side rules.Side, mv rules.Move, before rules.Position, d *dice) {
	w, r := m.w, m.w.r
	played := before != nil
	if !played {
		before = m.pos
	}
	var variations []record.Line
	if m.vars > 0 && ply >= 4 && d.below(40) == 0 {
		if v := w.variation(before, mv, ply, m.st); len(v) > 0 {
			variations = []record.Line{v}
			m.vars--
		}
	}
	f := w.factsOf(before, mv)
	rm := w.newMove()
	rm.Ply, rm.Variations = ply, variations
	w.appendText(rm, before, mv)
	if d.below(40) == 0 {
		rm.NAGs = []int{nagFor(r, f.Captures > 0)}
	}
	if d.below(150) == 0 {
		rm.After = []string{moveComments[r.IntN(len(moveComments))]}
		m.commented = true
	}
	m.st.played(side, f)
	if !played {
		m.pos.Play(mv)
	}
	if m.ready { // the replies were generated and scored by pick
		w.legal, w.next = w.next, w.legal
		w.scores, w.nextScores = w.nextScores, w.scores
		w.facts, w.nextFacts = w.nextFacts, w.facts
	}
}

// finish makes the record of the game played: its moves' text, an
// introduction now and then, and its tags.
func (w *Worker) finish(s seating, m *match) *record.Game {
	g, r := w.g, w.r
	// One string holds the text of every move.
	text := string(w.text)
	for _, sp := range w.spans {
		sp.mv.Text = text[sp.start:sp.end]
	}
	rec := &w.rec
	*rec = record.Game{Moves: w.line, Result: m.result, Sides: g.sides}
	commented := m.commented
	if r.IntN(40) == 0 {
		rec.Intro = []string{introComments[r.IntN(len(introComments))]}
		commented = true
	}
	e := &g.events[s.ev]
	t := w.tags[:0]
	t = append(t,
		record.Tag{Name: "Game", Value: g.game.ID()},
		record.Tag{Name: "Event", Value: e.name},
		record.Tag{Name: "Site", Value: e.site},
		record.Tag{Name: "Date", Value: g.rounds[s.ev][s.round]},
		record.Tag{Name: "Round", Value: strconv.Itoa(s.round + 1)},
		record.Tag{Name: g.sides[0], Value: s.pl[0].name},
		record.Tag{Name: g.sides[1], Value: s.pl[1].name},
		record.Tag{Name: "Result", Value: m.result},
		record.Tag{Name: g.eloTags[0], Value: g.elos[s.elo[0]-minElo]},
		record.Tag{Name: g.eloTags[1], Value: g.elos[s.elo[1]-minElo]},
		record.Tag{Name: "Termination", Value: m.term},
	)
	if commented {
		t = append(t, record.Tag{Name: "Annotator", Value: annotators[r.IntN(len(annotators))]})
	}
	w.tags = t
	rec.Tags = t
	return rec
}

// appendText writes the text of move m of pos into the game's text; mv
// gets it when the game is done.
func (w *Worker) appendText(mv *record.Move, pos rules.Position, m rules.Move) {
	start := len(w.text)
	w.text = rules.AppendMove(pos, w.text, m)
	w.spans = append(w.spans, textSpan{mv: mv, start: int32(start), end: int32(len(w.text))})
}

// textSpan is where a move's text is in the game's text.
type textSpan struct {
	mv         *record.Move
	start, end int32
}

// dice are the random decisions of one ply: 16-bit fields of a mixed
// 64-bit draw, used in turn (a fifth use mixes again).
type dice struct {
	src, v uint64
	left   int // fields left in v
}

func newDice(u uint64) dice { return dice{src: u, v: mix(u), left: 4} }

// below returns a number in [0, n), n <= 1<<16.
func (d *dice) below(n int) int {
	if d.left == 0 {
		d.src += 0x9e3779b97f4a7c15
		d.v, d.left = mix(d.src), 4
	}
	x := int((d.v & 0xffff) * uint64(n) >> 16)
	d.v >>= 16
	d.left--
	return x
}

// newMove returns a cleared move from the worker's arena, appended to the
// main line. The arena grows in blocks so that pointers stay valid.
func (w *Worker) newMove() *record.Move {
	if len(w.arena) == cap(w.arena) {
		w.arena = make([]record.Move, 0, 256)
	}
	w.arena = append(w.arena, record.Move{})
	m := &w.arena[len(w.arena)-1]
	w.line = append(w.line, m)
	return m
}

// first returns the first of the results that the position accepts, or "".
func (w *Worker) first(pos rules.Position, results []string) string {
	for _, res := range results {
		if pos.CheckResult(res) == nil {
			return res
		}
	}
	return ""
}

// policy is the Policy of side for a rules.Chooser, after the profile and
// the side's noise; like pick, a mover usually checks his target's safety.
func (w *Worker) policy(side rules.Side, st *state) *rules.Policy {
	return w.policyNoise(side, st, st.noise[side], w.r.IntN(1000))
}

// policyNoise is policy with the given noise; draw, uniform in [0, 1000),
// decides whether the mover looks at his target's safety.
func (w *Worker) policyNoise(side rules.Side, st *state, noise, draw int) *rules.Policy {
	p := &w.g.prof
	w.pol = rules.Policy{
		Noise:    noise,
		Capture:  p.capture,
		Promote:  p.promote,
		Progress: p.progress,
		Drop:     p.drop,
		Royal:    p.capture / 2,
		Safety:   st.targets[side] != noCoord && draw >= noise/4,
	}
	return &w.pol
}

// factsOf returns the facts of move m of pos.
func (w *Worker) factsOf(pos rules.Position, m rules.Move) rules.MoveFacts {
	w.one[0] = m
	w.oneFacts = rules.AppendFacts(pos, w.oneFacts[:0], w.one[:])
	return w.oneFacts[0]
}

// played updates the state after side plays a move described by f.
func (st *state) played(side rules.Side, f rules.MoveFacts) {
	st.capt[side] += int(f.Captures)
	if f.From == noCoord {
		return
	}
	if f.From == st.targets[side] {
		st.targets[side] = f.To
	}
	if f.From == st.chiefs[side] {
		st.chiefs[side] = f.To
	}
}

// nagFor picks a NAG: mostly !, ?, !?, ?!, sometimes !! or ??.
func nagFor(r *rand.Rand, capture bool) int {
	x := r.IntN(20)
	switch {
	case capture && x < 8:
		return 1 // !
	case x < 5:
		return 1
	case x < 10:
		return 2 // ?
	case x < 14:
		return 5 // !?
	case x < 18:
		return 6 // ?!
	case x < 19:
		return 3 // !!
	}
	return 4 // ??
}

const noMove = ^rules.Move(0)

// skipped marks a move that must not be chosen in scores.
const skipped = -1 << 62

// pick chooses the move of *pos from w.legal and w.scores. A mover who
// checks his target's safety (usually; more often the stronger he is) plays
// the move on *pos to score the opponent's replies, and tries the next best
// moves while a reply captures his King, Princess or Chief. Then before is
// the position before the move (*pos is after it) and, when ready, the
// replies and their scores are in w.next and w.nextScores, for the next ply.
// When every move tried loses the target, w.doomed is set and the first
// choice is returned unplayed.
func (w *Worker) pick(pos *rules.Position, st *state, side rules.Side) (m rules.Move, before rules.Position, ready bool) {
	p, r := &w.g.prof, w.r
	w.doomed = false
	i := best(w.scores)
	if i < 0 {
		return noMove, nil, false
	}
	// noise 20 checks 99.5% of moves, noise 160 96%.
	if st.targets[side] == noCoord || r.IntN(1000) < st.noise[side]/4 {
		return w.legal[i], nil, false
	}
	first := i
	for tries := 0; tries < 12 && i >= 0; tries++ {
		if tries == 1 {
			// The target is in danger: moving it is the first idea.
			for k := range w.legal {
				if w.scores[k] != skipped && w.facts[k].From == st.targets[side] {
					w.scores[k] += 1 << 10
				}
			}
		}
		m := w.legal[i]
		b := (*pos).Clone()
		st2 := *st
		st2.played(side, w.facts[i])
		(*pos).Play(m)
		if (*pos).Outcome().Over {
			return m, b, false
		}
		w.next = (*pos).Legal(w.next[:0])
		var threat bool
		other := side.Other()
		w.nextScores, w.nextFacts, threat = scoreAll(r, p, *pos, w.next, &st2, other, st.noise[other], noMove, w.nextScores[:0], w.nextFacts[:0])
		if !threat {
			return m, b, true
		}
		*pos = b
		w.scores[i] = skipped
		i = best(w.scores)
	}
	w.doomed = true
	return w.legal[first], nil, false
}

// choose picks the policy's move among legal (excluding skip), checking
// like pick that it does not lose the target (without playing it on pos).
func (w *Worker) choose(pos rules.Position, legal []rules.Move, st *state, side rules.Side, noise int, skip rules.Move) rules.Move {
	p := &w.g.prof
	w.scores, w.facts, _ = scoreAll(w.r, p, pos, legal, st, side, noise, skip, w.scores[:0], w.facts[:0])
	i := best(w.scores)
	if i < 0 {
		return noMove
	}
	if st.targets[side] == noCoord || w.r.IntN(1000) < noise/4 {
		return legal[i]
	}
	first := i
	for tries := 0; tries < 12 && i >= 0; tries++ {
		if !w.hangs(pos, legal[i], w.facts[i], st, side) {
			return legal[i]
		}
		w.scores[i] = skipped
		i = best(w.scores)
	}
	return legal[first]
}

// hangs reports whether after m (whose facts are f) the opponent can
// capture side's target.
func (w *Worker) hangs(pos rules.Position, m rules.Move, f rules.MoveFacts, st *state, side rules.Side) bool {
	mine, chief := st.targets[side], st.chiefs[side]
	if mine == noCoord && chief == noCoord {
		return false
	}
	switch {
	case f.From == noCoord:
	case f.From == mine:
		mine = f.To
	case f.From == chief:
		chief = f.To
	}
	c := pos.Clone()
	c.Play(m)
	if c.Outcome().Over {
		return false
	}
	w.reply = c.Legal(w.reply[:0])
	w.replyFacts = rules.AppendFacts(c, w.replyFacts[:0], w.reply)
	for _, x := range w.replyFacts {
		if to := x.To; to != noCoord && (to == mine || to == chief) {
			return true
		}
	}
	return false
}

// best is the index of the highest score, -1 when every move is skipped.
func best(scores []int) int {
	b, bs := -1, skipped
	for i, s := range scores {
		if s > bs {
			b, bs = i, s
		}
	}
	return b
}

// choose picks the best move by the policy alone (for the book).
func choose(r *rand.Rand, p *profile, pos rules.Position, legal []rules.Move, st *state, side rules.Side, noise int, skip rules.Move) rules.Move {
	scores, _, _ := scoreAll(r, p, pos, legal, st, side, noise, skip, nil, nil)
	if i := best(scores); i >= 0 {
		return legal[i]
	}
	return noMove
}

// scoreAll appends the policy's score of every legal move to dst, and their
// facts to facts. threat reports a move that takes the enemy target or chief.
func scoreAll(r *rand.Rand, p *profile, pos rules.Position, legal []rules.Move, st *state, side rules.Side, noise int, skip rules.Move, dst []int, facts []rules.MoveFacts) (_ []int, _ []rules.MoveFacts, threat bool) {
	enemy, enemyChief := st.targets[side.Other()], st.chiefs[side.Other()]
	myTarget, myChief := st.targets[side], st.chiefs[side]
	goal := noCoord
	switch {
	case enemy != noCoord:
		goal = enemy
	case len(p.goals[side]) > 0:
		goal = p.goals[side][r.IntN(len(p.goals[side]))]
	}
	if p.progress == 0 {
		goal = noCoord
	}
	look := p.lookahead > 0 && len(legal) <= p.lookahead
	base := len(facts)
	facts = rules.AppendFacts(pos, facts, legal)
	seed := r.Uint64()
	wide := uint64(noise)
	for k, m := range legal {
		if m == skip {
			dst = append(dst, skipped)
			continue
		}
		f := &facts[base+k]
		// wyrand: one cheap random number per move for the noise.
		seed += 0xa0761d6478bd642f
		hi, lo := bits.Mul64(seed, seed^0xe7037ed1a0b428db)
		s := int(((hi ^ lo) >> 32) * wide >> 32)
		s += int(f.Captures) * p.capture
		if f.Promotes {
			s += p.promote
		}
		if enemy != noCoord && f.To == enemy {
			s += 1 << 20
			threat = true
		}
		if enemyChief != noCoord && f.To == enemyChief {
			threat = true
			if f.From == myChief {
				s += 1 << 20 // Chief takes Chief wins
			} else {
				s -= p.capture // a draw: not worth more than a quiet move
			}
		}
		royal := f.From != noCoord && (f.From == myTarget || f.From == myChief)
		if royal {
			s -= p.capture / 2 // the King, Princess or Chief rarely moves
		} else if goal != noCoord && f.To != noCoord {
			before := 4
			if f.From != noCoord {
				before = rules.Dist(f.From, goal)
			}
			s += p.progress * (before - rules.Dist(f.To, goal))
		}
		if f.Drop {
			s += p.drop
		}
		if look {
			c := pos.Clone()
			c.Play(m)
			if o := c.Outcome(); o.Over {
				switch score(o.Result, side) {
				case 1:
					s += 1 << 20
				case -1:
					s -= 1 << 20
				}
			} else if p.replies {
				s -= replyThreat(c, side, p)
			}
		}
		dst = append(dst, s)
	}
	return dst, facts, threat
}

// replyThreat is what the best reply of the opponent in pos costs side: a win
// (tried on a copy) or captures.
func replyThreat(pos rules.Position, side rules.Side, p *profile) int {
	worst := 0
	goals := p.goals[side.Other()]
	for _, x := range pos.Legal(nil) {
		info := pos.Describe(x)
		if len(goals) > 0 && slices.Contains(goals, rules.CoordOf(info.To)) {
			return 1 << 19 // the opponent reaches a goal square
		}
		t := info.Captures * p.capture
		if t > 0 {
			c := pos.Clone()
			c.Play(x)
			if o := c.Outcome(); o.Over && score(o.Result, side) < 0 {
				return 1 << 19
			}
		}
		worst = max(worst, t)
	}
	return worst
}

// score is +1 when result is a win for side, -1 a loss, 0 a draw or unknown.
func score(result string, side rules.Side) int {
	a, b, ok := strings.Cut(result, "-")
	if !ok {
		return 0
	}
	x, y := points(a), points(b)
	if side == 1 {
		x, y = y, x
	}
	switch {
	case x > y:
		return 1
	case x < y:
		return -1
	}
	return 0
}

func points(s string) float64 {
	if s == "1/2" || s == "½" {
		return 0.5
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return v
}

// variation returns an alternative to move m in pos: another legal move and
// a few plies after it, played on a copy.
func (w *Worker) variation(pos rules.Position, m rules.Move, ply int, st state) record.Line {
	r := w.r
	c := pos.Clone()
	side := c.ToMove()
	chooser, fast := c.(rules.Chooser)
	var alt rules.Move
	if fast {
		var ok bool
		if alt, _, ok = chooser.Choose(w.policyNoise(side, &st, 200, r.IntN(1000)), r.Uint64(), m); !ok {
			return nil
		}
	} else {
		w.legal = c.Legal(w.legal[:0])
		if alt = w.choose(c, w.legal, &st, side, 200, m); alt == noMove {
			return nil
		}
	}
	n := 1 + r.IntN(5)
	line := make(record.Line, 0, n)
	for k := 0; k < n; k++ {
		if k > 0 {
			side = c.ToMove()
			if fast {
				var ok bool
				if alt, _, ok = chooser.Choose(w.policy(side, &st), r.Uint64(), noMove); !ok {
					break
				}
			} else {
				if c.Outcome().Over {
					break
				}
				w.legal2 = c.Legal(w.legal2[:0])
				if len(w.legal2) == 0 {
					break
				}
				alt = w.choose(c, w.legal2, &st, side, st.noise[side], noMove)
			}
		}
		mv := &record.Move{Ply: ply + k}
		w.appendText(mv, c, alt)
		line = append(line, mv)
		st.played(side, w.factsOf(c, alt))
		c.Play(alt)
	}
	return line
}
