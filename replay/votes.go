package replay

import (
	"fmt"
	"strings"
	"sync"

	"github.com/plateau/plateau/record"
)

// Votes is a file's evidence for detection (Options.Detect): how many of
// the untagged games read so far each 8×8 ruleset read as valid. A game that
// several rulesets read goes to the one with the most votes: the file's
// majority. Replay only reads the votes; the caller adds each game replayed
// (Add), so that replaying a record again with the same Votes gives the same
// game. The votes are the file's, named by the records' Pos.File: a game of
// another file starts them again. The zero Votes is ready to use, by several
// goroutines at once; a nil *Votes counts nothing.
//
// A record that carries its file's evidence (record.Game.Evidence, counted
// by a reader that looked ahead in the file: Votes.Evidence) is read with
// that instead: the whole file's votes, or those of its first games up to
// the reader's bound, for every game of the file, the first ones included,
// and the same whichever games were replayed before it.
type Votes struct {
	mu     sync.Mutex
	name   string
	counts map[string]int
	games  int // games that at least one 8×8 ruleset read
}

// Add counts the rulesets that read g, a game replayed with detection,
// when it had moves to tell them apart. A game of another file than the
// games counted starts the votes again.
func (v *Votes) Add(g *Game) {
	if v == nil || g == nil || g.Record == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if f := g.Record.Pos.File; f != v.name || v.counts == nil {
		v.name, v.counts, v.games = f, map[string]int{}, 0
	}
	if len(g.readBy) == 0 {
		return
	}
	for _, id := range g.readBy {
		v.counts[id]++
	}
	v.games++
}

// Copy is a copy of v, to replay later games against the votes as they are
// now.
func (v *Votes) Copy() *Votes {
	c := &Votes{}
	if v == nil {
		return c
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	c.name, c.games = v.name, v.games
	c.counts = make(map[string]int, len(v.counts))
	for id, n := range v.counts {
		c.counts[id] = n
	}
	return c
}

// Evidence is the votes as a file's evidence, for the records of the file
// (record.Game.Evidence): whole says that every record of the file was
// added, not its first ones only.
func (v *Votes) Evidence(whole bool) *record.Evidence {
	e := &record.Evidence{Read: map[string]int{}, Whole: whole}
	if v == nil {
		return e
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for id, n := range v.counts {
		e.Read[id] = n
	}
	e.Games = v.games
	return e
}

// tally is the votes that detection reads for one record: its file's
// evidence when the record carries it, else the votes of the file's games
// before it.
type tally struct {
	counts map[string]int
	games  int
	ahead  bool // the file's evidence, counted ahead
	whole  bool // of the whole file
}

// tallyFor is the tally for rec: its Evidence, else v's votes when they
// are rec's file's (nothing otherwise).
func (v *Votes) tallyFor(rec *record.Game) tally {
	if e := rec.Evidence; e != nil {
		return tally{counts: e.Read, games: e.Games, ahead: true, whole: e.Whole}
	}
	if v == nil {
		return tally{}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if rec.Pos.File != v.name {
		return tally{}
	}
	// A copy: v may count on while detection reads.
	t := tally{counts: make(map[string]int, len(v.counts)), games: v.games}
	for id, n := range v.counts {
		t.counts[id] = n
	}
	return t
}

// leader is the ruleset with the most votes, the first in name order on a
// tie; "" when none has any.
func (t tally) leader() string {
	best, n := "", 0
	for id, c := range t.counts {
		if c > n || c == n && c > 0 && id < best {
			best, n = id, c
		}
	}
	return best
}

// choose picks among the readings of a record by the rulesets that read
// it, in the order tried (prefer first when it is one of them), the one with
// the most votes, and sets its ruleset warning; tried are the rulesets that
// did not read it and triedAt their places in the order: the warning names
// those tried before the one chosen. A moveless record names no other
// ruleset: nothing tells them apart.
func (t tally) choose(valid []reading, prefer string, tried []string, triedAt []int, moveless bool) *Game {
	pick, most := 0, -1
	for i, r := range valid {
		if n := t.counts[r.g.Rules.ID()]; n > most {
			pick, most = i, n
		}
	}
	r := valid[pick]
	id := r.g.Rules.ID()
	var also []string
	tie := false
	for i, o := range valid {
		if i == pick {
			continue
		}
		also = append(also, o.g.Rules.ID())
		if t.counts[o.g.Rules.ID()] == most {
			tie = true
		}
	}
	why := "every square exists on 8×8 and every move is legal under " + id
	if tie && id == prefer {
		why = "as the game before it in the file; " + why
	}
	if r.note != "" {
		why += ", " + r.note
	}
	var before []string
	for i, at := range triedAt {
		if at < r.at {
			before = append(before, tried[i])
		}
	}
	if len(before) > 0 {
		why += "; not under " + strings.Join(before, ", ")
	}
	text := fmt.Sprintf("no Game or GameType tag: read as %s (%s)", id, why)
	switch {
	case moveless && len(also) > 0:
		text += fmt.Sprintf("; no move to tell it from the %d other rulesets that accept its position: %s", len(also), t.reason(id, most, tie, prefer))
	case len(also) > 0:
		text += fmt.Sprintf("; %s read it as valid too: %s", strings.Join(also, ", "), t.reason(id, most, tie, prefer))
	}
	g := r.g
	g.Warnings = append([]Warning{{Pos: g.Record.Pos, Kind: WarnRuleset, Text: text}}, g.Warnings...)
	if !moveless {
		// A record without moves is no evidence: every ruleset that
		// accepts its FEN reads it.
		for _, o := range valid {
			g.readBy = append(g.readBy, o.g.Rules.ID())
		}
	}
	return g
}

// reason says why the ruleset id won over others that read a record too.
func (t tally) reason(id string, votes int, tie bool, prefer string) string {
	switch {
	case !tie:
		return fmt.Sprintf("the file's majority, %s read %d of %s", id, votes, t.counted())
	case id == prefer:
		return id + " was chosen for the game before it"
	}
	return id + " comes first in the order tried"
}

// counted names the games the votes counted.
func (t tally) counted() string {
	switch {
	case t.whole:
		return fmt.Sprintf("its %d untagged games", t.games)
	case t.ahead:
		return fmt.Sprintf("its first %d untagged games", t.games)
	}
	return fmt.Sprintf("its %d untagged games before it", t.games)
}
