package playerlines

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/plateau/plateau/index/internal/store"
)

// MaxChunk is the most lines a chunk holds, and maxChunkBytes about its
// most bytes: a game deleted rewrites its chunk, and a row that fits in
// its B-tree page (a quarter of a 16 KiB page) needs no overflow page,
// which a longer row would fill only in part.
const (
	MaxChunk      = 256
	maxChunkBytes = 3500
)

// Row is a line to store: a game of a player as one side. Its line has
// no event: Put stores Event's id in it.
type Row struct {
	Player int64
	Side   int
	Game   int64
	Event  string // the games row's event ("" for none)
	Line   []byte
}

// Rows are the rows of a game of players p (ids, 0 for none), event and
// line l (whose Event is not read).
func Rows(dst []Row, game int64, p [2]int64, event string, l *Line) []Row {
	// One allocation holds both sides' lines: each is about its moves
	// and a few varints, dates and ratings.
	enc := make([]byte, 0, 2*lineSize(l))
	l.Event = 0
	for side, player := range p {
		if player == 0 {
			continue
		}
		l.Opponent = p[1-side]
		enc = Append(enc[len(enc):], l)
		dst = append(dst, Row{Player: player, Side: side, Game: game, Event: event, Line: enc})
	}
	return dst
}

// lineSize is about the size of l encoded (Append), enough for most.
func lineSize(l *Line) int {
	return 32 + 3*len(l.Moves) + len(l.FEN) + len(l.Elo[0]) + len(l.Elo[1]) + len(l.Game) + len(l.Result)
}

// withEvent is line (of event 0, its first byte) with event id instead.
func withEvent(dst []byte, id int64, line []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(id)), line[1:]...)
}

// PutEvents adds the names of events to event_names, those not there
// yet: the table holds the event of every valid game, with a player or
// not (an event's games are read by their names, index/events.go).
func PutEvents(ctx context.Context, p store.Preparer, events map[string]bool) error {
	if len(events) == 0 {
		return nil
	}
	ins, err := p.Stmt(ctx, `INSERT OR IGNORE INTO event_names(name) VALUES(?)`)
	if err != nil {
		return err
	}
	for name := range events {
		if _, err := ins.ExecContext(ctx, name); err != nil {
			return fmt.Errorf("store event %q: %w", name, err)
		}
	}
	return nil
}

// eventIDs gives the events' ids in event_names, adding the new names.
type eventIDs struct {
	p   store.Preparer
	ids map[string]int64
}

func (e *eventIDs) id(ctx context.Context, name string) (int64, error) {
	if name == "" {
		return 0, nil
	}
	if id, ok := e.ids[name]; ok {
		return id, nil
	}
	sel, err := e.p.Stmt(ctx, `SELECT id FROM event_names WHERE name = ?`)
	if err != nil {
		return 0, err
	}
	var id int64
	switch err := sel.QueryRowContext(ctx, name).Scan(&id); {
	case errors.Is(err, sql.ErrNoRows):
		ins, err := e.p.Stmt(ctx, `INSERT INTO event_names(name) VALUES(?)`)
		if err != nil {
			return 0, err
		}
		res, err := ins.ExecContext(ctx, name)
		if err != nil {
			return 0, err
		}
		if id, err = res.LastInsertId(); err != nil {
			return 0, err
		}
	case err != nil:
		return 0, err
	}
	e.ids[name] = id
	return id, nil
}

// A chunk is its lines in game order, each as the difference of its game
// from the one before (the first from the chunk's game: 0), its length
// and its bytes.
func appendEntry(dst []byte, prev, game int64, line []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(game-prev))
	dst = binary.AppendUvarint(dst, uint64(len(line)))
	return append(dst, line...)
}

// Chunk reads the lines of a stored chunk: Next, then Game and Line.
type Chunk struct {
	b    []byte
	game int64
	line []byte
	err  error
	read bool // a line was read
}

// NewChunk reads chunk b stored under game first.
func NewChunk(first int64, b []byte) Chunk { return Chunk{b: b, game: first} }

// Next reads the next line; false at the end or on an error (Err).
func (c *Chunk) Next() bool {
	if c.err != nil || len(c.b) == 0 {
		return false
	}
	d, n1 := binary.Uvarint(c.b)
	if n1 <= 0 || (d == 0) == c.read {
		c.err = ErrCorrupt
		return false
	}
	l, n2 := binary.Uvarint(c.b[n1:])
	if n2 <= 0 || l > uint64(len(c.b)-n1-n2) {
		c.err = ErrCorrupt
		return false
	}
	c.game += int64(d)
	c.line = c.b[n1+n2 : n1+n2+int(l)]
	c.b = c.b[n1+n2+int(l):]
	c.read = true
	return true
}

// Game is the game of the line read.
func (c *Chunk) Game() int64 { return c.game }

// Line is the line read (in the chunk's memory).
func (c *Chunk) Line() []byte { return c.line }

// Err is the error that stopped Next, wrapping ErrCorrupt.
func (c *Chunk) Err() error { return c.err }

// chunkRow is a row of the table.
type chunkRow struct {
	player int64
	side   int
	game   int64
	lines  []byte
}

// Put stores rows as chunks, of the lines of one player and side each,
// in key order (as the table's B-tree takes them best). Their games must
// have no line stored (a game stored again is forgotten first).
func Put(ctx context.Context, p store.Preparer, rows []Row) error {
	slices.SortFunc(rows, func(a, b Row) int {
		return cmp.Or(cmp.Compare(a.Player, b.Player), cmp.Compare(a.Side, b.Side), cmp.Compare(a.Game, b.Game))
	})
	var chunks []chunkRow
	var buf, line []byte
	events := eventIDs{p: p, ids: map[string]int64{}}
	for i := 0; i < len(rows); {
		r := rows[i]
		at, n := len(buf), 0
		for prev := r.Game; i < len(rows) && n < MaxChunk && len(buf)-at < maxChunkBytes && rows[i].Player == r.Player && rows[i].Side == r.Side; i, n = i+1, n+1 {
			ev, err := events.id(ctx, rows[i].Event)
			if err != nil {
				return fmt.Errorf("store players' lines: event %q: %w", rows[i].Event, err)
			}
			line = withEvent(line[:0], ev, rows[i].Line)
			buf = appendEntry(buf, prev, rows[i].Game, line)
			prev = rows[i].Game
		}
		chunks = append(chunks, chunkRow{r.Player, r.Side, r.Game, buf[at:len(buf):len(buf)]})
	}
	if err := putChunks(ctx, p, chunks); err != nil {
		return fmt.Errorf("store players' lines: %w", err)
	}
	return nil
}

func putChunks(ctx context.Context, p store.Preparer, chunks []chunkRow) error {
	return store.InsertRows(ctx, p, `INSERT INTO player_lines(player, side, game, lines)`, `(?,?,?,?)`, chunks,
		func(v *store.Values, c *chunkRow) {
			v.Int(c.player)
			v.Int(int64(c.side))
			v.Int(c.game)
			v.Blob(c.lines)
		})
}

// Forget deletes the lines of game, whose players were p (an id for each
// side, if any): a game deleted, or stored again (a new revision). Each
// line's chunk is written again without it. A game stored again (under
// its id) makes a chunk of its own, inside the range of the chunk it was
// taken out of: the chunks of a player and side may overlap, and a game's
// chunk is not always the last one that begins before it (chunkOf).
func Forget(ctx context.Context, p store.Preparer, game int64, players [2]sql.NullInt64) error {
	for side, pl := range players {
		if !pl.Valid {
			continue
		}
		if err := forget(ctx, p, game, pl.Int64, side); err != nil {
			return fmt.Errorf("game #%d players' lines: %w", game, err)
		}
	}
	return nil
}

// forget takes the line of game out of its chunk of player and side.
func forget(ctx context.Context, p store.Preparer, game, player int64, side int) error {
	first, blob, err := chunkOf(ctx, p, game, player, side)
	if err != nil || blob == nil {
		return err
	}
	var kept []byte
	newFirst, prev, found := int64(0), int64(0), false
	c := NewChunk(first, blob)
	for c.Next() {
		if c.Game() == game {
			found = true
			continue
		}
		if len(kept) == 0 {
			newFirst, prev = c.Game(), c.Game()
		}
		kept = appendEntry(kept, prev, c.Game(), c.Line())
		prev = c.Game()
	}
	if err := c.Err(); err != nil || !found {
		return err
	}
	del, err := p.Stmt(ctx, `DELETE FROM player_lines WHERE player = ? AND side = ? AND game = ?`)
	if err != nil {
		return err
	}
	if _, err := del.ExecContext(ctx, player, side, first); err != nil {
		return err
	}
	if len(kept) == 0 {
		return nil
	}
	return putChunks(ctx, p, []chunkRow{{player, side, newFirst, kept}})
}

// chunkOf finds the chunk of player and side that holds game: its first
// game and its lines (nil: none holds it), among those that begin at game
// or before, the last first.
func chunkOf(ctx context.Context, p store.Preparer, game, player int64, side int) (int64, []byte, error) {
	st, err := p.Stmt(ctx, `SELECT game, lines FROM player_lines WHERE player = ? AND side = ? AND game <= ? ORDER BY game DESC`)
	if err != nil {
		return 0, nil, err
	}
	rows, err := st.QueryContext(ctx, player, side, game)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var first int64
		var blob []byte
		if err := rows.Scan(&first, &blob); err != nil {
			return 0, nil, err
		}
		c := NewChunk(first, blob)
		for c.Next() {
			if c.Game() == game {
				return first, blob, rows.Close()
			}
		}
		if err := c.Err(); err != nil {
			return 0, nil, err
		}
	}
	return 0, nil, rows.Err()
}
