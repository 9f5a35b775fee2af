package web

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// Summary is one line of the game list.
type Summary struct {
	N           int       `json:"n"` // 1-based number in the collection
	File        string    `json:"file"`
	Index       int       `json:"index"` // 1-based number of the game in its file
	Line        int       `json:"line"`  // line of the game's first token in its file
	Game        string    `json:"game"`  // ruleset id; "" when unknown
	GameName    string    `json:"gameName,omitempty"`
	Sides       [2]string `json:"sides"`   // side names in result order ("White", "Black")
	Players     [2]string `json:"players"` // the player tags of the sides
	Event       string    `json:"event,omitempty"`
	Site        string    `json:"site,omitempty"`
	Date        string    `json:"date,omitempty"`
	Round       string    `json:"round,omitempty"`
	Elo         [2]string `json:"elo"` // the <Side>Elo tags, in side order
	Result      string    `json:"result"`
	Termination string    `json:"termination,omitempty"`
	// Opening is the name of the game's opening (a database's names:
	// plateau openings import), "" when it has none.
	Opening string `json:"opening,omitempty"`
	// OpeningECO is the ECO-style code Opening begins with ("B20" of "B20
	// Sicilienne"), "" when it has none; Opening keeps it.
	OpeningECO string `json:"openingEco,omitempty"`
	// OwnOpening and OwnECO are the record's own Opening tag (with its
	// Variation tag after ", ") and ECO tag, given only when Opening is
	// "" (no listed name matches the game), as the page's header shows
	// them; they are not searched nor sorted by. Empty in a brief list.
	OwnOpening string `json:"ownOpening,omitempty"`
	OwnECO     string `json:"ownEco,omitempty"`
	Plies      int    `json:"plies"`
	Valid      bool   `json:"valid"`
	Error      string `json:"error,omitempty"` // the first error of an invalid record
	ErrorLine  int    `json:"errorLine,omitempty"`
	// MatchPly is the ply at which a position or pattern list's position
	// occurs in the game (nil in other lists); Variation, that it occurs
	// inside a variation.
	MatchPly  *int `json:"matchPly,omitempty"`
	Variation bool `json:"variation,omitempty"`
	// Warnings are the faults that leave the record valid ("result: [Result
	// "0-1"] but the movetext ends with 1-0") and how an untagged record's
	// ruleset was chosen ("ruleset: …"), each "kind: text", joined by "; "
	// (a string, so that a Summary stays comparable).
	Warnings string `json:"warnings,omitempty"`
	// Revision is the stored game's current revision, in a detail asked
	// for editing (Editor.EditDetail); 0 elsewhere.
	Revision int `json:"revision,omitempty"`
}

// Placement is one piece of a position.
type Placement struct {
	Square   string `json:"sq"` // "" for a piece in hand
	Side     int    `json:"side"`
	Kind     string `json:"kind"`
	Promoted bool   `json:"promoted,omitempty"`
	Count    int    `json:"count"`
}

// Node is one position of the game: the start (node 0) or the position
// after a move. Nodes link into the move tree.
type Node struct {
	Parent int `json:"parent"` // the position before the move; -1 for the start
	Next   int `json:"next"`   // the move that follows in this line; -1 at its end
	// Vars are the first nodes of the variations that replace this node's
	// move (each starts from Parent).
	Vars   []int       `json:"vars,omitempty"`
	Move   string      `json:"move,omitempty"`   // canonical move text; "" for the start
	Number string      `json:"number,omitempty"` // "12." or "12..." before the move
	Ply    int         `json:"ply"`              // plies played to reach this position
	Depth  int         `json:"depth"`            // 0 on the main line
	From   string      `json:"from,omitempty"`
	To     string      `json:"to,omitempty"`
	NAGs   string      `json:"nags,omitempty"`   // "!", "?!", "$18"…
	Before []string    `json:"before,omitempty"` // comments before the move
	After  []string    `json:"after,omitempty"`  // comments after the move
	Note   string      `json:"note,omitempty"`   // the rules' remark on the move (a dames fault)
	Pieces []Placement `json:"pieces"`
	ToMove int         `json:"toMove"`
	FEN    string      `json:"fen"`
	Over   string      `json:"over,omitempty"` // the outcome's reason when the game is over here
}

// Detail is one game with every position.
type Detail struct {
	Summary
	Tags     [][2]string `json:"tags"`
	Intro    []string    `json:"intro,omitempty"` // comments before the first move
	Geometry Geometry    `json:"geometry"`
	Nodes    []Node      `json:"nodes"`
	// Rest are the main-line moves of an invalid record that were not
	// played, as written (the first one is the faulty move).
	Rest  []string `json:"rest,omitempty"`
	Notes []string `json:"notes,omitempty"`
}

type entry struct {
	sum     Summary
	rec     *record.Game
	readErr error
	opts    replay.Options // as replayed for the list (detection's Prefer)
}

// Collection holds the games served. Add games, then serve; Add and the
// readers may run concurrently.
type Collection struct {
	opts replay.Options
	mu   sync.RWMutex
	list []entry
	// the ruleset detection chose for the last untagged game of prefFile
	prefFile, prefer string
	// the votes of the untagged games of the last file (replay.Votes)
	votes replay.Votes
}

// NewCollection returns an empty collection whose records are replayed with
// opts.
func NewCollection(opts replay.Options) *Collection { return &Collection{opts: opts} }

// Add replays a record and adds it to the collection. readErr is the
// record reader's error for this record (nil when it read cleanly); rec may
// be nil when nothing of it could be read.
func (c *Collection) Add(file string, index int, rec *record.Game, readErr error) {
	s := Summary{File: file, Index: index}
	c.mu.Lock()
	opts := c.opts
	if c.prefFile == file {
		opts.Prefer = c.prefer
	}
	// The votes as they are now, kept with the entry: its detail is
	// replayed as its line of the list was.
	opts.Votes = c.votes.Copy()
	c.mu.Unlock()
	if rec != nil {
		g := replay.Replay(rec, opts)
		s = summarize(g, file, index)
		c.mu.Lock()
		if d := g.Detected(); d != "" || c.prefFile != file {
			c.prefFile, c.prefer = file, d
		}
		c.votes.Add(g)
		c.mu.Unlock()
	}
	if readErr != nil {
		s.Valid, s.Error = false, readMessage(readErr)
		var re *record.Error
		if errors.As(readErr, &re) {
			s.ErrorLine = re.Pos.Line
		}
	}
	c.mu.Lock()
	s.N = len(c.list) + 1
	c.list = append(c.list, entry{sum: s, rec: rec, readErr: readErr, opts: opts})
	c.mu.Unlock()
}

func readMessage(err error) string {
	var re *record.Error
	if errors.As(err, &re) {
		return re.Msg
	}
	return err.Error()
}

// Len is the number of games.
func (c *Collection) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.list)
}

// Summaries lists every game.
func (c *Collection) Summaries() []Summary {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]Summary, len(c.list))
	for i, e := range c.list {
		out[i] = e.sum
	}
	return out
}

// ErrNoGame is returned by Detail for a number outside the collection.
var ErrNoGame = errors.New("no such game")

// Detail replays game n (1-based) and returns it with every position.
func (c *Collection) Detail(n int) (*Detail, error) {
	c.mu.RLock()
	if n < 1 || n > len(c.list) {
		c.mu.RUnlock()
		return nil, ErrNoGame
	}
	e := c.list[n-1]
	c.mu.RUnlock()
	return NewDetail(e.sum, e.rec, e.opts), nil
}

// NewDetail replays rec with opts and returns every position of it under
// the summary s (rec nil: a record of which nothing could be read).
func NewDetail(s Summary, rec *record.Game, opts replay.Options) *Detail {
	if rec == nil {
		return &Detail{Summary: s, Nodes: []Node{}, Tags: [][2]string{}}
	}
	return newDetail(s, rec, replay.Replay(rec, opts))
}

// DetailOf replays rec with opts once and returns every position of it
// under its own summary (Summarize's), numbered n, read from file as its
// index-th game.
func DetailOf(rec *record.Game, opts replay.Options, n int, file string, index int) *Detail {
	g := replay.Replay(rec, opts)
	s := summarize(g, file, index)
	s.N = n
	return newDetail(s, rec, g)
}

// newDetail is the detail of rec, replayed as g, under the summary s.
func newDetail(s Summary, rec *record.Game, g *replay.Game) *Detail {
	d := &Detail{Summary: s, Nodes: []Node{}, Tags: [][2]string{}}
	for _, t := range rec.Tags {
		d.Tags = append(d.Tags, [2]string{t.Name, t.Value})
	}
	d.Intro = rec.Intro
	if g.Rules != nil {
		d.Geometry = GeometryOf(g.Rules.ID(), g.Start)
	}
	if g.Start == nil {
		return d
	}
	t := tree{d: d}
	start := g.Start.Clone()
	t.add(Node{Parent: -1}, start)
	t.line(0, start, g.Main, true)
	if len(g.Main) < len(rec.Moves) {
		for _, m := range rec.Moves[len(g.Main):] {
			d.Rest = append(d.Rest, m.Text)
		}
	}
	for _, note := range g.Notes {
		d.Notes = append(d.Notes, replay.PlyString(note.Step.Ply)+" "+note.Step.Text+": "+note.Text)
	}
	return d
}

// Summarize replays rec with opts and returns its line of the game list,
// numbered n (file and index: where it was read).
func Summarize(rec *record.Game, opts replay.Options, n int, file string, index int) Summary {
	s := summarize(replay.Replay(rec, opts), file, index)
	s.N = n
	return s
}

func summarize(g *replay.Game, file string, index int) Summary {
	rec := g.Record
	s := Summary{
		File: file, Index: index, Line: rec.Pos.Line,
		Event: rec.Tag("Event"), Site: rec.Tag("Site"), Date: rec.Tag("Date"), Round: rec.Tag("Round"),
		Result: g.Result, Termination: g.Termination(), Plies: g.Plies(), Valid: g.Err == nil,
	}
	if s.Result == "" {
		s.Result = "*"
	}
	if g.Rules != nil {
		s.Game, s.GameName, s.Sides = g.Rules.ID(), g.Rules.Name(), g.Rules.Sides()
		for i, side := range s.Sides {
			s.Players[i], s.Elo[i] = rec.Tag(side), rec.Tag(side+"Elo")
		}
	} else {
		s.Sides = [2]string{"White", "Black"}
		s.Players = [2]string{rec.Tag("White"), rec.Tag("Black")}
	}
	if g.Err != nil {
		s.Error, s.ErrorLine = g.Err.Error(), g.Err.Pos.Line
	}
	s.SetOwnOpening(rec.Tag)
	ws := make([]string, len(g.Warnings))
	for i, w := range g.Warnings {
		ws[i] = w.String()
	}
	s.Warnings = strings.Join(ws, "; ")
	return s
}

// tree builds the nodes of a game. The pieces of its nodes are cut from
// chunks of placements (a game of 90 positions of 40 pieces is then a few
// allocations, not 90).
type tree struct {
	d     *Detail
	chunk []Placement
	// board and hand receive the cells of a rules.Cells position.
	board, hand []byte
}

// kindText is the text of each piece letter, made once.
var kindText = func() (t [256]string) {
	for i := range t {
		t[i] = string(rune(i))
	}
	return
}()

func (t *tree) add(n Node, pos rules.Position) int {
	n.Next = -1
	n.ToMove = int(pos.ToMove())
	n.FEN = pos.String()
	n.Pieces = t.pieces(pos)
	if o := pos.Outcome(); o.Over {
		n.Over = o.Reason
		if o.Result != "" {
			n.Over = o.Result + " " + o.Reason
		}
	}
	t.d.Nodes = append(t.d.Nodes, n)
	return len(t.d.Nodes) - 1
}

// pieces lists the pieces of pos: Board's, read from the position's cells
// when it has them (Board builds a slice for each position: a game's
// largest cost after its text).
func (t *tree) pieces(pos rules.Position) []Placement {
	c, ok := pos.(rules.Cells)
	if !ok {
		board := pos.Board()
		out := t.take(len(board))
		for i, pl := range board {
			out[i] = Placement{Square: pl.Square, Side: int(pl.Side), Kind: kindText[pl.Kind], Promoted: pl.Promoted, Count: pl.Count}
		}
		return out
	}
	l := c.Layout()
	if len(t.board) != len(l.Squares) || len(t.hand) != len(l.Hand) {
		t.board, t.hand = make([]byte, len(l.Squares)), make([]byte, len(l.Hand))
	}
	c.Cells(t.board, t.hand)
	k := 0
	for _, code := range t.board {
		if l.Codes[code].Kind != 0 {
			k++
		}
	}
	for i, n := range t.hand {
		if n > 0 && l.Hand[i].Kind != 0 {
			k++
		}
	}
	out := t.take(k)[:0]
	for i, code := range t.board {
		if pc := l.Codes[code]; pc.Kind != 0 {
			out = append(out, Placement{Square: l.Squares[i], Side: int(pc.Side), Kind: kindText[pc.Kind], Promoted: pc.Promoted, Count: 1})
		}
	}
	for i, n := range t.hand {
		if pc := l.Hand[i]; n > 0 && pc.Kind != 0 {
			out = append(out, Placement{Side: int(pc.Side), Kind: kindText[pc.Kind], Promoted: pc.Promoted, Count: int(n)})
		}
	}
	return out
}

// take cuts n placements from the chunk.
func (t *tree) take(n int) []Placement {
	if len(t.chunk) < n || t.chunk == nil {
		t.chunk = make([]Placement, max(1024, n))
	}
	out := t.chunk[:n:n]
	t.chunk = t.chunk[n:]
	return out
}

// line adds the steps played from node parent, whose position is pos
// (changed), and returns the first node added (-1 for an empty line). The
// first step becomes parent's continuation when link is set (the main line
// from the start); a variation is reached through its move's Vars instead.
func (t *tree) line(parent int, pos rules.Position, steps []*replay.Step, link bool) int {
	first := -1
	for _, s := range steps {
		var vars []int
		for _, v := range s.Variations {
			if len(v) == 0 {
				continue
			}
			if id := t.line(parent, pos.Clone(), v, false); id >= 0 {
				vars = append(vars, id)
			}
		}
		pos.Play(s.Move)
		n := Node{
			Parent: parent, Vars: vars, Move: s.Text, Number: replay.PlyString(s.Ply),
			Ply: s.Ply + 1, Depth: s.Depth, From: s.Info.From, To: s.Info.To, Note: s.Info.Note,
		}
		if s.Info.KeepsTurn {
			n.Ply = s.Ply
		}
		if s.Src != nil {
			n.NAGs = nags(s.Src.NAGs)
			n.Before, n.After = s.Src.Before, s.Src.After
		}
		id := t.add(n, pos)
		if first < 0 {
			first = id
		}
		if id != first || link {
			t.d.Nodes[parent].Next = id
		}
		parent = id
	}
	return first
}

var nagText = map[int]string{1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}

func nags(ns []int) string {
	var parts []string
	for _, n := range ns {
		if s, ok := nagText[n]; ok {
			parts = append(parts, s)
		} else {
			parts = append(parts, "$"+strconv.Itoa(n))
		}
	}
	return strings.Join(parts, " ")
}

// SetOwnOpening sets s's OwnOpening and OwnECO from the record's tags
// (tag gives a tag's value, "" when absent), unless s has an Opening: a
// listed name that matches the game comes first, as in the header.
func (s *Summary) SetOwnOpening(tag func(name string) string) {
	s.OwnOpening, s.OwnECO = "", ""
	if s.Opening != "" {
		return
	}
	s.OwnOpening, s.OwnECO = tag("Opening"), tag("ECO")
	if v := tag("Variation"); v != "" {
		if s.OwnOpening != "" {
			s.OwnOpening += ", "
		}
		s.OwnOpening += v
	}
}
