package replay

import (
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// JSONGame is a replayed game for data users (plateau export, dbexport and
// search --format json, one object per line). The format is documented in
// docs/json-export.md; fields are only ever added.
type JSONGame struct {
	ID    int64  `json:"id,omitempty"`    // database game id (dbexport, search)
	File  string `json:"file,omitempty"`  // record file (export)
	Index int    `json:"index,omitempty"` // 1-based number of the game in its file
	Line  int    `json:"line,omitempty"`  // line of the game's first token
	Game  string `json:"game"`            // ruleset id; "" when none could be chosen
	// Date is the Date tag normalised (YYYY.MM.DD, ?? for unknown parts);
	// the tag itself is in Tags as written.
	Date        string        `json:"date,omitempty"`
	Sides       [2]string     `json:"sides"`   // side names in result order
	Players     [2]string     `json:"players"` // the sides' player tags
	Result      string        `json:"result"`  // the Result the record claims ("*" if none)
	Termination string        `json:"termination,omitempty"`
	Valid       bool          `json:"valid"`
	Error       *JSONError    `json:"error,omitempty"`
	Warnings    []JSONWarning `json:"warnings"`
	Tags        []JSONTag     `json:"tags"`  // every tag, in record order, as written
	Start       string        `json:"start"` // start position in the game's notation
	Plies       int           `json:"plies"` // main-line plies
	// Intro are the comments before the first move.
	Intro []string   `json:"intro,omitempty"`
	Moves []JSONMove `json:"moves"` // the main line, as far as it could be played
}

// JSONTag is one tag of the record.
type JSONTag struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// JSONError is what makes a record invalid.
type JSONError struct {
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`
	Ply     int    `json:"ply,omitempty"`  // 1-based
	Move    string `json:"move,omitempty"` // as written
	Rule    string `json:"rule,omitempty"` // the rule an illegal move breaks
}

// JSONWarning is a fault that leaves the record valid.
type JSONWarning struct {
	Kind string `json:"kind"` // "result", "ruleset", "syntax" or "ambiguous"
	Text string `json:"text"`
	Line int    `json:"line,omitempty"`
}

// JSONMove is one move and the position after it.
type JSONMove struct {
	Ply       int    `json:"ply"`     // 0-based ply of the move (a huff shares the next move's)
	Move      string `json:"move"`    // canonical (long) form
	Written   string `json:"written"` // as in the record (may be a short form)
	From      string `json:"from,omitempty"`
	To        string `json:"to,omitempty"`
	Captures  int    `json:"captures,omitempty"`
	Promotes  bool   `json:"promotes,omitempty"`
	Drop      bool   `json:"drop,omitempty"`
	KeepsTurn bool   `json:"keepsTurn,omitempty"` // a dames huff: not a ply
	Note      string `json:"note,omitempty"`      // a remark on an accepted move (a dames fault)
	Position  string `json:"position"`            // the position after the move
	// NAGs are the move's annotation glyphs ($n; ! and ? as their
	// numbers), Before and After the comments written before and after
	// it, as in the record.
	NAGs   []int    `json:"nags,omitempty"`
	Before []string `json:"before,omitempty"`
	After  []string `json:"after,omitempty"`
	// Variations are alternatives to this move, from the position before it.
	Variations [][]JSONMove `json:"variations,omitempty"`
}

// JSON returns the game for the JSON export. Provenance (ID, File, Index)
// and Date are the caller's to fill.
func (g *Game) JSON() JSONGame {
	rec := g.Record
	j := JSONGame{Line: rec.Pos.Line, Result: g.Result, Termination: g.Termination(), Valid: g.Err == nil,
		Plies: g.Plies(), Warnings: []JSONWarning{}, Tags: JSONTags(rec), Moves: []JSONMove{}}
	if j.Result == "" {
		j.Result = "*"
	}
	if g.Rules != nil {
		j.Game, j.Sides = g.Rules.ID(), g.Rules.Sides()
		for i, s := range j.Sides {
			j.Players[i] = rec.Tag(s)
		}
	}
	if g.Err != nil {
		j.Error = &JSONError{Message: g.Err.Error(), Line: g.Err.Pos.Line, Ply: g.Err.Ply, Move: g.Err.Move, Rule: g.Err.Rule()}
	}
	for _, w := range g.Warnings {
		j.Warnings = append(j.Warnings, JSONWarning{Kind: w.Kind, Text: w.Text, Line: w.Pos.Line})
	}
	j.Intro = rec.Intro
	if g.Start != nil {
		j.Start = g.Start.String()
		j.Moves = jsonLine(g.Main, g.Start.Clone())
	}
	return j
}

// JSONTags are the tags of a record, in order.
func JSONTags(rec *record.Game) []JSONTag {
	out := make([]JSONTag, 0, len(rec.Tags))
	for _, t := range rec.Tags {
		out = append(out, JSONTag{Name: t.Name, Value: t.Value})
	}
	return out
}

// jsonLine writes steps played from pos (changed in place).
func jsonLine(steps []*Step, pos rules.Position) []JSONMove {
	out := make([]JSONMove, 0, len(steps))
	for _, st := range steps {
		m := JSONMove{Ply: st.Ply, Move: st.Text, Written: st.Src.Text, From: st.Info.From, To: st.Info.To,
			Captures: st.Info.Captures, Promotes: st.Info.Promotes, Drop: st.Info.Drop, KeepsTurn: st.Info.KeepsTurn, Note: st.Info.Note}
		if src := st.Src; src != nil {
			m.NAGs, m.Before, m.After = src.NAGs, src.Before, src.After
		}
		for _, v := range st.Variations {
			m.Variations = append(m.Variations, jsonLine(v, pos.Clone()))
		}
		pos.Play(st.Move)
		m.Position = pos.String()
		out = append(out, m)
	}
	return out
}
