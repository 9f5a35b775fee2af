// Package record is the game record model — tags, start position, a move
// tree with comments, NAGs and variations, result — and its PDN/PGN-style text
// format: a streaming Reader over multi-game files and a Writer of the
// canonical form. It knows nothing of any game's rules: move texts are kept as
// written, and the replay package checks and canonicalises them.
package record

// Tag is one tag pair, [Name "Value"].
type Tag struct {
	Name  string
	Value string
}

// Pos is a place in a source file.
type Pos struct {
	File   string
	Line   int   // 1-based
	Col    int   // 1-based, in bytes
	Offset int64 // byte offset from the start of the (decoded) stream
}

// Game is one record.
type Game struct {
	Tags []Tag // in the order read (the Writer orders them canonically)
	// Comments before the first move (after the tag section).
	Intro []string
	Moves Line
	// Result is the game termination marker of the movetext ("1-0", "*", …),
	// or "" when the movetext had none (the Result tag may still have one).
	Result string
	// Pos is where the game's first token is; End where its last one ends.
	Pos Pos
	// Warnings are the departures from the PDN grammar that the Reader
	// read past (see Warning); the canonical form has none.
	Warnings []Warning
	// Sides, when set, are the game's player tags in its side order, the
	// first mover's first where the rules name it first (replay sets it
	// from the ruleset in the canonical form: "Black", "White" in
	// checkers). The Writer writes the player tags in that order; unset,
	// in the canonical order (Sente, Gote, White, Black, Orange).
	Sides [2]string
	// Evidence, when set, is what a reader that looked ahead in the
	// record's file learned of the file as a whole (internal/ingest sets
	// it, replay's detection reads it); the records of one file share it.
	Evidence *Evidence
}

// Evidence is what a file's records, read ahead, say of the ruleset of
// those that name none: how many of them each ruleset reads as valid
// games. A record of the file is read with it, not by the file's games
// before it alone.
type Evidence struct {
	Read  map[string]int // ruleset id → the records naming no ruleset it reads
	Games int            // the records naming no ruleset that some ruleset reads
	// Whole reports that every record of the file was counted; otherwise
	// its first records only (up to the reader's bound).
	Whole bool
}

// Line is a sequence of moves: the main line or a variation.
type Line []*Move

// Move is one move token with what is attached to it.
type Move struct {
	Text   string   // the move as written, without move number, NAGs or !? suffix
	NAGs   []int    // $n and the !/? suffixes converted to their NAG numbers
	Before []string // comments written just before the move
	After  []string // comments written after the move
	// Variations are alternatives to this move (each starts at the same
	// position as this move).
	Variations []Line
	// Ply is the 0-based ply index of the move from the game's start; the
	// Reader counts tokens, replay sets the true value (a dames huff shares
	// the ply of the move that follows it).
	Ply int
	Pos Pos
}

// Tag returns the value of the first tag with that name (case-sensitive), or "".
func (g *Game) Tag(name string) string {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// SetTag replaces the value of the tag with that name, or adds it.
func (g *Game) SetTag(name, value string) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{name, value})
}
