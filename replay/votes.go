package replay

import (
	"fmt"
	"strings"
	"sync"
)

// Votes is a file's evidence for detection (Options.Detect): how many of
// the untagged games read so far each 8×8 ruleset read as valid. A game that
// several rulesets read goes to the one with the most votes: the file's
// majority. Replay only reads the votes; the caller adds each game replayed
// (Add), so that replaying a record again with the same Votes gives the same
// game. The votes are the file's, named by the records' Pos.File: a game of
// another file starts them again. The zero Votes is ready to use, by several
// goroutines at once; a nil *Votes counts nothing.
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

// count is the votes of id, and the games counted, for a record of file;
// none when the votes are another file's.
func (v *Votes) count(file, id string) (n, games int) {
	if v == nil {
		return 0, 0
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if file != v.name {
		return 0, 0
	}
	return v.counts[id], v.games
}

// leader is the ruleset with the most votes for a record of file, the
// first in name order on a tie; "" when none has any.
func (v *Votes) leader(file string) string {
	if v == nil {
		return ""
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if file != v.name {
		return ""
	}
	best, n := "", 0
	for id, c := range v.counts {
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
func (v *Votes) choose(valid []reading, prefer string, tried []string, triedAt []int, moveless bool) *Game {
	file := valid[0].g.Record.Pos.File
	pick, most := 0, -1
	for i, r := range valid {
		if n, _ := v.count(file, r.g.Rules.ID()); n > most {
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
		if n, _ := v.count(file, o.g.Rules.ID()); n == most {
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
		text += fmt.Sprintf("; no move to tell it from the %d other rulesets that accept its position: %s", len(also), v.reason(file, id, most, tie, prefer))
	case len(also) > 0:
		text += fmt.Sprintf("; %s read it as valid too: %s", strings.Join(also, ", "), v.reason(file, id, most, tie, prefer))
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
func (v *Votes) reason(file, id string, votes int, tie bool, prefer string) string {
	_, games := v.count(file, id)
	switch {
	case !tie:
		return fmt.Sprintf("the file's majority, %s read %d of its %d untagged games before it", id, votes, games)
	case id == prefer:
		return id + " was chosen for the game before it"
	}
	return id + " comes first in the order tried"
}
