// Package replay plays a record.Game through its rules: every move of the main
// line and of every variation is parsed and checked in its position, every
// position's key is computed, the first error is named (ply, move text, file
// line, the rule it breaks), and the Result tag is checked against the final
// position.
//
// Decisions made here, for every game:
//   - The ruleset is the Game tag; without one, a PDN GameType tag (its first
//     comma field, "20" = draughts); without either, Options.DefaultGame
//     (the CLI passes "draughts", the PDN default GameType, unless --game
//     names another). With Options.Detect, an untagged record whose squares
//     all exist on 8×8 is first tried under the 8×8 draughts rulesets (see
//     detect.go for the order and the rule), and says so in a Warning.
//   - A record read from SGF (tag SGFGame, the GM property; importers/sgf
//     writes GM[1], Go, when the file names none) is never read under the
//     default or a detected ruleset: without a Game tag it is an error naming
//     its SGF game type (ErrSGFGame, sgf.go).
//   - Lenient metadata, strict moves. A record is valid when every move of
//     every line is legal, no move follows the end of the game, and a final
//     position that is over has the Result it gives. A Result tag that
//     differs from the movetext's result marker is a Warning naming both.
//     When the final position is not over, a Result that its CheckResult
//     refuses is a Warning too, if the game can end with that result by
//     resignation or agreement (its standard start position accepts it);
//     otherwise (Dejarik has no resignation, Ōgi no early draw) it stays an
//     error. The Result kept is the tag's (else the movetext's). A Result
//     that is no result marker at all ("4-6", a tournament's score), and
//     any Result of a moveless record whose board is empty, are kept with
//     a Warning and not checked (PDN: read any string as a result).
//   - The record's own warnings (record.Warning: grammar faults read past)
//     are the game's first, kind WarnSyntax. A main line is played up to
//     its first unknown move, written '-' ("41. - -"); the rest is kept as
//     written, unchecked.
//   - In a game whose rules make an illegal move a loss (Ōgi), a main line may
//     end with one illegal move: the record is valid when its Result gives the
//     win to the other side, and the termination is "illegal move (rule)". A
//     move after it, or an illegal move inside a variation, makes the record
//     invalid.
//   - Moves that keep the turn (a dames huff) are not plies: they share the ply
//     number of the move that follows them.
//   - A short move that matches several legal moves (rules.Matches) is
//     settled when exactly one of them lets the rest of its line play;
//     otherwise the record stays readable with a WarnAmbiguous warning
//     naming the candidates and the one read (the one that gives the
//     Result, else the first); it breaks only where the best reading does
//     (ambiguous.go).
//   - Moves accepted with a remark (a dames fault that ignored a capture) are
//     listed in Game.Notes.
//   - A caller that derives something from every position (an index's
//     pattern signature) is shown them as the replay plays them
//     (Options.Visit), rather than playing the game a second time.
//     Detection's replays under several rulesets are not shown: they are
//     tried side by side and all but one are dropped.
package replay

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Options change how a record is replayed.
type Options struct {
	// DefaultGame is the ruleset for records with neither a Game nor a
	// GameType tag; "" makes such records an error.
	DefaultGame string
	// Detect, for a record that names no ruleset, tries the 8×8 draughts
	// rulesets before DefaultGame when every square of its FEN and moves
	// exists on 8×8 (see detect.go); the game then has a Warning saying
	// how its ruleset was chosen.
	Detect bool
	// Prefer, with Detect, is an 8×8 ruleset tried before the others: the
	// one chosen for the previous untagged game of the same file (see
	// Game.Detected), so that a file's games that several rulesets read
	// keep the ruleset of the file.
	Prefer string
	// Votes, with Detect, counts which 8×8 rulesets read the untagged
	// games of a file before this one (detect.go, votes.go): a game that
	// several read goes to the file's majority. The caller adds each game
	// (Votes.Add). Nil: a Replayer's own votes, which it keeps itself, or
	// none.
	Votes *Votes
	// Visit, if not nil, is shown the positions of the replay whose Game
	// Replay returns, as they are played (Visitor). It is not shown the
	// replays of a record that detection tries under several rulesets (a
	// record that fits 8×8, detect.go): its Start is then not called.
	Visit Visitor
}

// A Visitor is shown the positions of one replay as they are played: the
// start, then the position after every move played (main line and
// variations, each variation's moves before the move it replaces, a move
// that keeps the turn included), in play order. A move that does not play
// (the first error, a closing illegal move) is not shown. A position shown
// is valid only during the call and must not be changed; the positions of
// a game share the start's type. One Replay calls Start at most once, and
// only when the record's start position is known.
type Visitor interface {
	Start(pos rules.Position)
	Played(pos rules.Position)
}

// Step is one move played.
type Step struct {
	Move  rules.Move
	Text  string // canonical form
	Info  rules.MoveInfo
	Ply   int        // 0-based ply of the move (a huff shares the next move's ply)
	Mover rules.Side // the side that played it (ToMove before it)
	Key   uint64     // key of the position after the move
	Depth int        // 0 in the main line, 1 in a variation of it, …
	Src   *record.Move
	// Variations are alternatives to this move, played from the position
	// before it.
	Variations [][]*Step
}

// Note is a remark on an accepted move (a dames fault).
type Note struct {
	Step *Step
	Text string
}

// Game is a record replayed.
type Game struct {
	Record  *record.Game
	Rules   rules.Game
	Start   rules.Position // the start position (not modified)
	Main    []*Step        // the main line, as far as it could be played
	Final   rules.Position // the position after the last legal main-line move
	Outcome rules.Outcome  // how the game ended (Over false: unfinished or resigned)
	Result  string         // the result the record claims (tag, else movetext)
	Notes   []Note
	// Err is the first error that makes the record invalid; nil when valid.
	Err *Error
	// Assumed is true when the record named no ruleset and
	// Options.DefaultGame was used.
	Assumed bool
	// readBy are the 8×8 rulesets that read the record, when detection
	// chose among them (Votes.Add).
	readBy []string
	// rewritten: a move played has a canonical text or a ply other than
	// the record's (else CanonicalView's moves are the record's).
	rewritten bool
	// Warnings are faults of a valid record's metadata (a Result that
	// disagrees with the movetext or the final position) and how an
	// untagged record's ruleset was chosen: they never make it invalid.
	Warnings []Warning
}

// Sentinel errors wrapped by Error.Err.
var (
	ErrNoGame      = errors.New("no Game tag")
	ErrAfterEnd    = errors.New("move after the end of the game")
	ErrResultClash = errors.New("Result tag and movetext result differ")
	ErrBadStart    = errors.New("bad start position")
)

// Error is what makes a record invalid.
type Error struct {
	Pos  record.Pos // where: the move, or the game's first token
	Ply  int        // 1-based ply of the move; 0 when the error is not a move's
	Move string     // the move as written; "" when the error is not a move's
	Err  error      // *rules.MoveError, a rules.ErrResult error, ErrAfterEnd, …
}

func (e *Error) Error() string {
	if e.Move != "" {
		// Input is quoted short, however long the move (or the
		// rules' message quoting it).
		return fmt.Sprintf("ply %d %q: %s", e.Ply, record.Clip(e.Move, 80), record.ClipWords(e.Err.Error(), 80))
	}
	return record.ClipWords(e.Err.Error(), 80)
}

func (e *Error) Unwrap() error { return e.Err }

// Rule is the rule an illegal move breaks, or "" when the error is not an
// illegal move.
func (e *Error) Rule() string {
	var me *rules.MoveError
	if errors.As(e.Err, &me) {
		return me.Rule
	}
	return ""
}

// GameOf finds the ruleset of a record.
func GameOf(g *record.Game, opts Options) (rules.Game, error) {
	if id := g.Tag("Game"); id != "" {
		return rules.Lookup(id)
	}
	if gm := g.Tag("SGFGame"); gm != "" && g.Tag("GameType") == "" {
		return nil, sgfGame(gm)
	}
	if gt := g.Tag("GameType"); gt != "" {
		first, _, _ := strings.Cut(gt, ",")
		rg, err := rules.Lookup(strings.TrimSpace(first))
		if err != nil {
			return nil, fmt.Errorf("GameType %q is not a game Plateau plays: %w", gt, err)
		}
		return rg, nil
	}
	if opts.DefaultGame != "" {
		return rules.Lookup(opts.DefaultGame)
	}
	return nil, ErrNoGame
}

// InOrder reports whether the game that Replay gives for rec under opts
// may depend on the file's games before it (Options.Prefer, Options.Votes):
// a record that names no ruleset, under Detect. A caller that replays a
// file's records in parallel replays these in the file's order; every other
// record's game depends on the record and opts alone.
func InOrder(rec *record.Game, opts Options) bool { return opts.Detect && !named(rec) }

// named reports whether a record names its ruleset.
func named(g *record.Game) bool {
	return g.Tag("Game") != "" || g.Tag("GameType") != "" || g.Tag("SGFGame") != ""
}

// Replay plays a record. The returned Game is never nil; its Err says
// whether the record is valid.
func Replay(rec *record.Game, opts Options) *Game {
	return (*Replayer)(nil).Replay(rec, opts)
}

// A Replayer replays records one after another in the same memory: a game's
// steps and final position are made in those of the game before, so that a
// caller that replays millions of records and keeps only what it derives
// from each (an import's worker) allocates little. The Game that Replay
// returns, its Main and the Steps and lines under it, its Notes and its
// Final position, are valid only until the Replayer's next Replay; strings
// are never reused and may be kept. Its Start may be the Start of the games
// before and after it (startOf): clone it to play from it, as every user
// does. The zero Replayer is ready to use, by one goroutine at a time; a nil
// *Replayer allocates every game anew.
type Replayer struct {
	game  Game
	buf   []byte         // replayer.buf
	final rules.Position // the last game's, for rules.CopyInto
	steps []Step         // the block the lines' steps are cut from
	lines []*Step        // the block the lines are cut from
	used  int            // steps taken from the block by the current game
	// start is the start position of the last game, of the ruleset
	// startGame and the FEN startFEN (startOf).
	start               rules.Position
	startGame, startFEN string
	// votes are detection's, when Options.Votes is nil.
	votes Votes
}

// maxKeptSteps bounds the steps a Replayer keeps between games (about 600 KB):
// a longer game's steps are its own.
const maxKeptSteps = 1 << 12

// Replay plays a record as the function Replay does, in rp's memory.
func (rp *Replayer) Replay(rec *record.Game, opts Options) *Game {
	if opts.Detect && !named(rec) {
		g := detect(rec, opts, rp)
		if rp != nil && opts.Votes == nil {
			rp.votes.Add(g)
		}
		return g
	}
	rg, err := GameOf(rec, opts)
	if err != nil {
		g := rp.newGame(rec)
		g.Err = &Error{Pos: rec.Pos, Err: err}
		return g
	}
	return replayWith(rec, rg, rp, opts.Visit)
}

// startOf is rg's position of the FEN fen (NewPosition). A Replayer keeps
// the last one and gives it again to a game of the same ruleset and FEN
// (most games of a collection start from the standard position): a replay
// never changes its start, and every user of a Game's Start clones it to
// play from it.
func (rp *Replayer) startOf(rg rules.Game, fen string) (rules.Position, error) {
	if rp == nil {
		return rg.NewPosition(fen)
	}
	if rp.start != nil && rp.startFEN == fen && rp.startGame == rg.ID() {
		return rp.start, nil
	}
	start, err := rg.NewPosition(fen)
	if err != nil {
		return nil, err
	}
	rp.start, rp.startGame, rp.startFEN = start, rg.ID(), fen
	return start, nil
}

// begin starts a game: the block grows to what the last game took.
func (rp *Replayer) begin() {
	if rp.used > len(rp.steps) && rp.used <= maxKeptSteps {
		n := min(max(rp.used, 2*len(rp.steps)), maxKeptSteps)
		rp.steps, rp.lines = make([]Step, n), make([]*Step, n)
	}
	rp.used = 0
}

// take returns room for a line of n steps: an empty slice of capacity n for
// the line and n steps, new or of an earlier game (line sets every field of a
// step it plays, and only empties Variations, whose array it reuses).
func (rp *Replayer) take(n int) ([]*Step, []Step) {
	if rp == nil || rp.used+n > len(rp.steps) {
		if rp != nil {
			rp.used += n
		}
		return make([]*Step, 0, n), make([]Step, n)
	}
	i := rp.used
	rp.used += n
	return rp.lines[i : i : i+n], rp.steps[i : i+n : i+n]
}

// newGame is a new Game of rec, made in rp's memory when rp is not nil.
func (rp *Replayer) newGame(rec *record.Game) *Game {
	if rp == nil {
		return newGame(rec)
	}
	rp.game = Game{}
	return rp.game.init(rec)
}

func newGame(rec *record.Game) *Game { return new(Game).init(rec) }

func (g *Game) init(rec *record.Game) *Game {
	g.Record = rec
	g.Result = rec.Tag("Result")
	if g.Result == "" {
		g.Result = rec.Result
	}
	g.syntaxWarnings()
	return g
}

// replayWith plays a record under the ruleset rg, in rp's memory when rp is
// not nil, showing its positions to visit when it is not nil.
func replayWith(rec *record.Game, rg rules.Game, rp *Replayer, visit Visitor) *Game {
	g := rp.newGame(rec)
	g.Rules = rg
	g.Assumed = !named(rec)
	defer g.explainAssumed()
	start, err := rp.startOf(rg, strings.TrimSpace(rec.Tag("FEN")))
	if err != nil {
		g.Err = &Error{Pos: rec.Pos, Err: fmt.Errorf("%w: %w", ErrBadStart, err)}
		return g
	}
	g.Start = start
	var pos rules.Position
	switch rs, ok := start.(rules.Reserver); {
	case rp != nil:
		rp.begin()
		pos = rules.CopyInto(rp.final, start, len(rec.Moves))
		rp.final = pos
	case ok:
		// The history grows by one entry a move: room for the main
		// line at once.
		pos = rs.CloneReserve(len(rec.Moves))
	default:
		pos = start.Clone()
	}
	r := replayer{g: g, loses: rg.IllegalMoveLoses(), rp: rp, visit: visit}
	if visit != nil {
		visit.Start(pos)
	}
	if rp != nil {
		r.buf = rp.buf
	}
	g.Main = r.line(pos, knownMoves(rec.Moves), 0, 0)
	g.rewritten = r.rewritten
	if rp != nil {
		rp.buf = r.buf
	}
	g.Final = pos
	if g.Err != nil {
		return g
	}
	if r.illegal != nil {
		g.Outcome = r.illegalOutcome(pos)
	} else {
		g.Outcome = pos.Outcome()
	}
	g.checkResult(pos, r.illegal)
	return g
}

// explainAssumed adds to an error in a record that named no ruleset which
// ruleset it was read with: such an error often means another game.
func (g *Game) explainAssumed() {
	if g.Assumed && g.Err != nil {
		g.Err.Err = fmt.Errorf("%w (no Game or GameType tag: read as %s)", g.Err.Err, g.Rules.ID())
	}
}

type replayer struct {
	g     *Game
	loses bool
	// illegal is the main line's closing illegal move, in games where an
	// illegal move loses.
	illegal *illegalEnd
	buf     []byte // a move's canonical text (canonText)
	rp      *Replayer
	visit   Visitor // Options.Visit
	// breaks is where the best reading of an ambiguous move that no
	// reading lets go on fails (ambiguous.go), to say so in that error.
	breaks *breakAt
	// rewritten: a step's text or ply is not its move's (Game.rewritten).
	rewritten bool
}

// canonText is the canonical text of mv, a move of pos written as m: m's
// own string when it is already canonical (no new string), else a new one
// (and r.rewritten is set). ma is pos as a rules.MoveAppender, or nil.
func (r *replayer) canonText(pos rules.Position, ma rules.MoveAppender, mv rules.Move, m *record.Move) string {
	if ma == nil {
		if t := pos.FormatMove(mv); t != m.Text {
			r.rewritten = true
			return t
		}
		return m.Text
	}
	r.buf = ma.AppendMove(r.buf[:0], mv)
	if string(r.buf) == m.Text {
		return m.Text
	}
	r.rewritten = true
	return string(r.buf)
}

type illegalEnd struct {
	mover rules.Side
	err   *rules.MoveError
	src   *record.Move
	ply   int
}

func (r *replayer) fail(m *record.Move, ply int, err error) {
	if b := r.breaks; b != nil && b.move == m {
		err = fmt.Errorf("%w; %s", err, b.why)
	}
	if r.g.Err == nil {
		r.g.Err = &Error{Pos: m.Pos, Ply: ply + 1, Move: m.Text, Err: err}
	}
}

// line plays moves from pos (changed in place) and returns their steps.
func (r *replayer) line(pos rules.Position, moves record.Line, ply, depth int) []*Step {
	steps, store := r.rp.take(len(moves))
	// A position whose game is over when no move parses is asked its
	// Outcome only when the move does not parse (or before its
	// variations): the first error is the same, found sooner.
	_, stuckOver := pos.(rules.OverWhenStuck)
	ma, _ := pos.(rules.MoveAppender) // asked once a line, not once a move
	for i, m := range moves {
		if r.g.Err != nil {
			return steps
		}
		var mv rules.Move
		var err error
		parsed := false
		if stuckOver && len(m.Variations) == 0 {
			mv, err = pos.ParseMove(m.Text)
			parsed = true
		}
		if !parsed || err != nil {
			if o := pos.Outcome(); o.Over {
				r.fail(m, ply, fmt.Errorf("%w (%s)", ErrAfterEnd, o.Reason))
				return steps
			}
		}
		st := &store[i]
		st.Src, st.Depth, st.Ply = m, depth, ply
		st.Variations = st.Variations[:0] // a step of an earlier game's
		for _, v := range m.Variations {
			branch := pos.Clone()
			st.Variations = append(st.Variations, r.line(branch, v, ply, depth+1))
		}
		if r.g.Err != nil {
			return steps
		}
		if !parsed {
			mv, err = pos.ParseMove(m.Text)
		}
		if err != nil {
			mv, err = r.resolve(pos, m, ply, depth, err, moves[i+1:])
		}
		if err != nil {
			var me *rules.MoveError
			if r.loses && depth == 0 && errors.As(err, &me) && me.Kind == rules.Illegal && i == len(moves)-1 {
				r.illegal = &illegalEnd{mover: pos.ToMove(), err: me, src: m, ply: ply}
				return steps
			}
			r.fail(m, ply, err)
			return steps
		}
		st.Move = mv
		st.Info = pos.Describe(mv)
		st.Text = r.canonText(pos, ma, mv, m)
		if ply != m.Ply {
			r.rewritten = true
		}
		st.Mover = pos.ToMove()
		pos.Play(mv)
		st.Key = pos.Key()
		if r.visit != nil {
			r.visit.Played(pos)
		}
		if st.Info.Note != "" {
			r.g.Notes = append(r.g.Notes, Note{Step: st, Text: st.Info.Note})
		}
		steps = append(steps, st)
		if !st.Info.KeepsTurn {
			ply++
		}
	}
	return steps
}

func (r *replayer) illegalOutcome(pos rules.Position) rules.Outcome {
	res := "1-0"
	if r.illegal.mover == 0 {
		res = "0-1"
	}
	reason := "illegal move"
	if r.illegal.err.Rule != "" {
		reason += " (" + r.illegal.err.Rule + ")"
	}
	return rules.Outcome{Over: true, Result: res, Reason: reason}
}

func (g *Game) checkResult(final rules.Position, illegal *illegalEnd) {
	tag, text := g.Record.Tag("Result"), g.Record.Result
	if tag != "" && text != "" && tag != text && text != "*" {
		// Every move is legal: a metadata fault, kept as a warning. A
		// movetext ending with '*' gives no result: PDN 3.0 ends every
		// game so, the result being the Result tag's.
		g.warn(g.Record.Pos, WarnResult, fmt.Sprintf("%v: [Result %q] but the movetext ends with %s", ErrResultClash, tag, text))
	}
	res := g.Result
	if res == "" {
		res = "*"
	}
	if illegal == nil && g.unchecked(res, final) {
		return
	}
	if illegal != nil {
		if res != g.Outcome.Result {
			g.Err = &Error{Pos: illegal.src.Pos, Ply: illegal.ply + 1, Move: illegal.src.Text,
				Err: fmt.Errorf("%w (the Result is %s, but the illegal move loses: %s)", illegal.err, res, g.Outcome.Result)}
		}
		return
	}
	if err := final.CheckResult(res); err != nil {
		pos := g.Record.Pos
		if n := len(g.Main); n > 0 {
			pos = g.Main[n-1].Src.Pos
		}
		if !g.Outcome.Over && offBoard(g.Rules, res) {
			g.warn(pos, WarnResult, fmt.Sprintf("[Result %q] but the final position does not give it (the game is not over): %v", res, err))
			return
		}
		g.Err = &Error{Pos: pos, Err: err}
	}
}

// Plies is the number of plies of the main line (huffs not counted; a closing
// illegal move not counted).
func (g *Game) Plies() int {
	n := 0
	for _, s := range g.Main {
		if !s.Info.KeepsTurn {
			n++
		}
	}
	return n
}

// Termination is the outcome's reason when the game is over; otherwise the
// record's Termination tag, or "" for an unfinished game.
func (g *Game) Termination() string {
	if g.Outcome.Over {
		return g.Outcome.Reason
	}
	return g.Record.Tag("Termination")
}

// Canonical returns a copy of the record in canonical form: moves in the
// game's long form, true plies, a Game tag, the FEN in canonical notation,
// the Result tag filled in, the player tags in the ruleset's side order
// (record.Game.Sides: Black before White in checkers, pool and thai). Only a valid game (Err nil) can be made canonical
// entirely; for an invalid one the moves after the error are kept as written.
func (g *Game) Canonical() *record.Game { return g.canonical(false) }

// CanonicalView is Canonical without copying what is already canonical: its
// moves (and lines) that need no change are the record's own. It is for
// reading (formatting, hashing) and costs little for a record written in
// canonical form; changing it may change the record.
func (g *Game) CanonicalView() *record.Game { return g.canonical(true) }

func (g *Game) canonical(share bool) *record.Game {
	c := *g.Record
	res := g.Result
	if res == "" {
		res = "*"
	}
	c.Result = res
	if g.Rules != nil {
		c.Sides = g.Rules.Sides()
	}
	fen := ""
	if g.Start != nil && c.Tag("FEN") != "" {
		fen = g.Start.String()
	}
	if !share || (g.Rules != nil && c.Tag("Game") != g.Rules.ID()) || c.Tag("FEN") != fen || c.Tag("Result") != res {
		c.Tags = make([]record.Tag, len(g.Record.Tags), len(g.Record.Tags)+2)
		copy(c.Tags, g.Record.Tags)
		if g.Rules != nil {
			c.SetTag("Game", g.Rules.ID())
		}
		if fen != "" {
			c.SetTag("FEN", fen)
		}
		c.SetTag("Result", res)
	}
	if share {
		if g.rewritten {
			c.Moves, _ = shareLine(g.Record.Moves, g.Main)
		}
		// Else every move played is as written: shareLine would give
		// the record's own moves.
	} else {
		c.Moves = canonLine(g.Record.Moves, g.Main)
	}
	return &c
}

// canonLine is a copy of src with its played moves (steps) in canonical form.
func canonLine(src record.Line, steps []*Step) record.Line {
	out := make(record.Line, len(src))
	store := make([]record.Move, len(src)) // the copies, in one block
	for i, m := range src {
		cm := &store[i]
		*cm = *m
		if i < len(steps) && steps[i].Src == m {
			st := steps[i]
			cm.Text, cm.Ply = st.Text, st.Ply
			cm.Variations = make([]record.Line, len(m.Variations))
			for j, v := range m.Variations {
				var vs []*Step
				if j < len(st.Variations) {
					vs = st.Variations[j]
				}
				cm.Variations[j] = canonLine(v, vs)
			}
		}
		out[i] = cm
	}
	return out
}

// shareLine is canonLine for CanonicalView: a move already canonical, with
// its variations, is src's own, not a copy, and so is src when every move of
// it is; changed reports a copy.
func shareLine(src record.Line, steps []*Step) (_ record.Line, changed bool) {
	var out record.Line
	var store []record.Move // the copies, in one block
	for i, m := range src {
		cm := m
		if i < len(steps) && steps[i].Src == m {
			st := steps[i]
			var vars []record.Line
			for j, v := range m.Variations {
				var vs []*Step
				if j < len(st.Variations) {
					vs = st.Variations[j]
				}
				if cv, ch := shareLine(v, vs); ch {
					if vars == nil {
						vars = append([]record.Line(nil), m.Variations...)
					}
					vars[j] = cv
				}
			}
			if st.Text != m.Text || st.Ply != m.Ply || vars != nil {
				if len(store) == 0 {
					store = make([]record.Move, len(src)-i)
				}
				cm = &store[0]
				store = store[1:]
				*cm = *m
				cm.Text, cm.Ply = st.Text, st.Ply
				if vars != nil {
					cm.Variations = vars
				}
			}
		}
		if cm != m && out == nil {
			out = make(record.Line, len(src))
			copy(out, src[:i])
		}
		if out != nil {
			out[i] = cm
		}
	}
	if out == nil {
		return src, false
	}
	return out, true
}

// Position is one position of a replayed game, for indexing.
type Position struct {
	Key   uint64
	Ply   int   // plies played to reach it
	Next  *Step // the move played from it in this line; nil at a line's end
	Depth int   // 0 on the main line
}

// Positions calls fn for every position of the game: the start, then the
// position after every move of the main line and of every variation. The
// position before a move that has variations is reported once more for each
// variation, with the variation's first move as Next, so that an opening tree
// sees every move played from it.
func (g *Game) Positions(fn func(Position)) {
	if g.Start == nil {
		return
	}
	walk(g.Main, g.Start.Key(), 0, 0, fn)
}

func walk(steps []*Step, key uint64, ply, depth int, fn func(Position)) {
	var first *Step
	if len(steps) > 0 {
		first = steps[0]
	}
	if depth == 0 {
		fn(Position{Key: key, Ply: ply, Next: first, Depth: depth})
	}
	for i, s := range steps {
		for _, v := range s.Variations {
			if len(v) > 0 {
				fn(Position{Key: key, Ply: ply, Next: v[0], Depth: v[0].Depth})
				walk(v, key, ply, depth+1, fn)
			}
		}
		var next *Step
		if i+1 < len(steps) {
			next = steps[i+1]
		}
		key = s.Key
		if !s.Info.KeepsTurn {
			ply = s.Ply + 1
		}
		fn(Position{Key: key, Ply: ply, Next: next, Depth: s.Depth})
	}
}

// PlyString formats a 1-based ply number with the move number convention of
// the record format ("12." for even plies, "12..." for odd ones).
func PlyString(ply int) string {
	n := ply/2 + 1
	if ply%2 == 0 {
		return strconv.Itoa(n) + "."
	}
	return strconv.Itoa(n) + "..."
}
