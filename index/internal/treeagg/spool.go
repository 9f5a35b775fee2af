package treeagg

import (
	"container/heap"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/plateau/plateau/index/internal/store"
)

// A large import (the writer decides which) does not Flush each
// transaction's entries into the tree: it spools them (one row of tree_spool a transaction's flush, its
// entries sorted, written in the same transaction as its games) and the
// spool is added to the tree a group of rows at a time (Settle), each
// row then touched once for the many games of a group instead of once a
// transaction, and in key order.
//
// Decisions:
//
//   - SQLite's commit stays the truth: a spooled entry is in the spool or
//     in the tree, never both and never neither, since a group is added
//     and its spool rows deleted in one transaction. The tree plus the
//     spool always count exactly the games committed.
//   - Readers read the tree only: while entries are spooled, they see the
//     tree of the games settled so far (the caller settles after every
//     group of SettleEntries, and at the end of the import).
//   - Remove needs the game's moves in the tree: whoever removes a game's
//     moves settles the spool first (Settle).
//   - The table is made when first needed (SpoolTable) and left, empty,
//     after: a layout without it is the same layout.

// SpoolTable holds the spooled entries, a blob (EncodeSpool) a row.
const SpoolTable = `CREATE TABLE IF NOT EXISTS tree_spool(id INTEGER PRIMARY KEY, data BLOB NOT NULL)`

// SettleEntries is the most entries a group of Settle adds at once (at
// least one spool row): a group's rows are held in memory as stored
// (varints, no pointers), its entries decoded a Flush at a time.
const SettleEntries = 1 << 22

// flushEntries is the most entries Settle flushes at once (a batch).
const flushEntries = 1 << 16

// ErrSpool: a spool row does not decode.
var ErrSpool = errors.New("bad opening-tree spool row")

// EncodeSpool appends to dst the entries es (sorted by EntryCmp) of
// games, as a spool row holds them: the games (date, whether scored, the
// points), the move texts once each, then each entry as the gap from the
// previous position key, its move's number, its player and its game.
func EncodeSpool(dst []byte, es []Entry, games []Game) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(games)))
	for i := range games {
		g := &games[i]
		dst = binary.AppendUvarint(dst, uint64(len(g.Date)))
		dst = append(dst, g.Date...)
		if !g.Scored {
			dst = append(dst, 0)
			continue
		}
		dst = append(dst, 1)
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(g.S0))
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(g.S1))
	}
	moves := map[string]int{}
	var texts []string
	for i := range es {
		if _, ok := moves[es[i].Move]; !ok {
			moves[es[i].Move] = len(texts)
			texts = append(texts, es[i].Move)
		}
	}
	dst = binary.AppendUvarint(dst, uint64(len(texts)))
	for _, m := range texts {
		dst = binary.AppendUvarint(dst, uint64(len(m)))
		dst = append(dst, m...)
	}
	dst = binary.AppendUvarint(dst, uint64(len(es)))
	var prev int64
	for i := range es {
		e := &es[i]
		dst = binary.AppendUvarint(dst, uint64(e.Pos-prev))
		prev = e.Pos
		dst = binary.AppendUvarint(dst, uint64(moves[e.Move]))
		dst = binary.AppendUvarint(dst, uint64(e.Player))
		dst = binary.AppendUvarint(dst, uint64(e.Game))
	}
	return dst
}

// spoolReader reads a spool row.
type spoolReader struct {
	b   []byte
	err error
}

func (r *spoolReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err, r.b = ErrSpool, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

// bytes reads n bytes.
func (r *spoolReader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.err, r.b = ErrSpool, nil
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

// spoolCursor reads the entries of a spool row in order: e is the
// current one, its Game an index in games, the row's games.
type spoolCursor struct {
	r     spoolReader
	left  uint64 // entries after e
	moves []string
	games []Game
	mids  []int32 // the games' months, as a settle's merge numbers them (monthScratch.number)
	e     Entry
}

// openSpool reads the games and moves of a spool row and its first entry;
// move texts are shared through texts. ok is false for a row without
// entries.
func openSpool(data []byte, texts map[string]string) (c *spoolCursor, ok bool, err error) {
	c = &spoolCursor{r: spoolReader{b: data}}
	r := &c.r
	ng := r.uvarint()
	c.games = make([]Game, 0, min(ng, uint64(len(r.b))))
	for i := uint64(0); i < ng && r.err == nil; i++ {
		var g Game
		g.Date = string(r.bytes(r.uvarint()))
		if flag := r.bytes(1); len(flag) == 1 && flag[0] == 1 {
			if p := r.bytes(16); len(p) == 16 {
				g.S0 = math.Float64frombits(binary.LittleEndian.Uint64(p))
				g.S1 = math.Float64frombits(binary.LittleEndian.Uint64(p[8:]))
				g.Scored = true
			}
		}
		c.games = append(c.games, g)
	}
	nm := r.uvarint()
	c.moves = make([]string, 0, min(nm, uint64(len(r.b))))
	for i := uint64(0); i < nm && r.err == nil; i++ {
		b := r.bytes(r.uvarint())
		m, ok := texts[string(b)]
		if !ok {
			m = string(b)
			texts[m] = m
		}
		c.moves = append(c.moves, m)
	}
	c.left = r.uvarint()
	if r.err != nil {
		return nil, false, r.err
	}
	ok, err = c.next()
	return c, ok, err
}

// next reads the next entry into e; false at the row's end.
func (c *spoolCursor) next() (bool, error) {
	r := &c.r
	if c.left == 0 {
		if len(r.b) > 0 {
			return false, ErrSpool
		}
		return false, nil
	}
	c.left--
	pos := c.e.Pos + int64(r.uvarint())
	m, pl, g := r.uvarint(), r.uvarint(), r.uvarint()
	if r.err == nil && (m >= uint64(len(c.moves)) || g >= uint64(len(c.games))) {
		r.err = ErrSpool
	}
	if r.err != nil {
		return false, r.err
	}
	c.e = Entry{Pos: pos, Move: c.moves[m], Player: int64(pl), Game: int32(g)}
	return true, nil
}

// Spool stores in the transaction of st a spool row (EncodeSpool).
func Spool(ctx context.Context, st Stmts, data []byte) error {
	_, err := exec(ctx, st, `INSERT INTO tree_spool(data) VALUES(?)`, data)
	return err
}

// Pending reports whether entries are spooled, not yet in the tree.
func Pending(ctx context.Context, q Querier) (bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'tree_spool'`)
	if err != nil {
		return false, err
	}
	exists := rows.Next()
	rows.Close()
	if err := rows.Err(); err != nil || !exists {
		return false, err
	}
	rows, err = q.QueryContext(ctx, `SELECT 1 FROM tree_spool LIMIT 1`)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	return rows.Next(), rows.Err()
}

// Settle adds to the tree, in tx, the spooled entries: a group of rows
// of at most group entries (SettleEntries when 0; at least one row) at a
// time, each group's rows deleted once it is added; all of them, or (one)
// the first group only. more reports rows left. The rows are written
// through raw, the RawStmts of tx's connection, if not nil.
func Settle(ctx context.Context, tx Tx, raw *store.RawStmts, group int, one bool) (more bool, err error) {
	return settle(ctx, tx, raw, group, flushEntries, one)
}

// settle is Settle with batches of batchLen entries.
func settle(ctx context.Context, tx Tx, raw *store.RawStmts, group, batchLen int, one bool) (more bool, err error) {
	if group <= 0 {
		group = SettleEntries
	}
	if ok, err := Pending(ctx, tx); err != nil || !ok {
		return false, err
	}
	st := &txStmts{tx: tx, stmts: map[string]*sql.Stmt{}, raw: raw}
	defer st.close()
	texts := map[string]string{}

	for {
		more, err = settleGroup(ctx, tx, st, group, batchLen, texts)
		if err != nil || !more || one {
			return more, err
		}
	}
}

// cursors is a heap of spool rows' cursors, the least entry first.
type cursors struct {
	cs   []*spoolCursor
	more bool // rows left after the group
}

func (h *cursors) Len() int           { return len(h.cs) }
func (h *cursors) Less(i, j int) bool { return EntryCmp(h.cs[i].e, h.cs[j].e) < 0 }
func (h *cursors) Swap(i, j int)      { h.cs[i], h.cs[j] = h.cs[j], h.cs[i] }
func (h *cursors) Push(x any)         { h.cs = append(h.cs, x.(*spoolCursor)) }
func (h *cursors) Pop() any {
	c := h.cs[len(h.cs)-1]
	h.cs = h.cs[:len(h.cs)-1]
	return c
}

// fixTop is heap.Fix(h, 0) without its calls through an interface: the
// first cursor moved on, and goes down where it now belongs.
func (h *cursors) fixTop() {
	cs := h.cs
	for i := 0; ; {
		j := 2*i + 1
		if j >= len(cs) {
			return
		}
		if k := j + 1; k < len(cs) && EntryCmp(cs[k].e, cs[j].e) < 0 {
			j = k
		}
		if EntryCmp(cs[j].e, cs[i].e) >= 0 {
			return
		}
		cs[i], cs[j] = cs[j], cs[i]
		i = j
	}
}

// popTop is heap.Pop(h) of the first cursor, ended.
func (h *cursors) popTop() {
	n := len(h.cs) - 1
	h.cs[0] = h.cs[n]
	h.cs[n] = nil
	h.cs = h.cs[:n]
	h.fixTop()
}

// openGroup reads the first spool rows, holding at most group entries
// (at least one row), as a heap of cursors; last is the id of the last
// row read (-1: none).
func openGroup(ctx context.Context, tx Tx, group int, texts map[string]string) (h *cursors, last int64, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, data FROM tree_spool ORDER BY id`)
	if err != nil {
		return nil, -1, err
	}
	defer rows.Close()
	h = &cursors{}
	last, n := int64(-1), uint64(0)
	for rows.Next() {
		if n >= uint64(group) {
			h.more = true
			break
		}
		var id int64
		var data []byte // a copy: the cursors keep it
		if err := rows.Scan(&id, &data); err != nil {
			return nil, -1, err
		}
		c, ok, err := openSpool(data, texts)
		if err != nil {
			return nil, -1, fmt.Errorf("%w %d", err, id)
		}
		if ok {
			n += c.left + 1
			h.cs = append(h.cs, c)
		}
		last = id
	}
	if err := rows.Err(); err != nil {
		return nil, -1, err
	}
	heap.Init(h)
	return h, last, nil
}
