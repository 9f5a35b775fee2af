package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// A pattern is tested on millions of positions. Positions that implement
// rules.Cells are tested through their cells: the pattern is compiled once
// per rules.Layout into square indexes and tables of accepted codes, and a
// position costs one copy of its cells plus a few table look-ups, without
// allocation. Other positions are tested on Board (matcher.match).

// cellTerm is a pattern term compiled for one layout.
type cellTerm struct {
	kind  TermKind
	cells []int     // OnSquares, Empty: the indexes of the named squares
	ok    [256]bool // OnSquares: codes of matching pieces; Empty: empty codes
	count int       // OnBoard: the index of its count, when cubes is nil
	cubes []cube    // OnBoard: the codes it counts, when they are a few cubes
	slots []int     // InHand: the hand slots of matching pieces
	op    cmpOp
	n     int
	cost  int
}

// cellMatcher is a matcher compiled for one layout.
type cellMatcher struct {
	terms []cellTerm
	// The OnBoard counts are taken in one pass over the board: packs[k][c]
	// adds 1 to byte j of a sum for code c when count 8k+j counts it (a
	// board has fewer than 256 squares, so bytes do not carry).
	packs  [][256]uint64
	counts []int // the counts of the position being tested
}

func (t *mterm) fits(pc rules.Piece) bool {
	if pc.Kind == 0 {
		return false
	}
	return t.piece(&rules.Placement{Side: pc.Side, Kind: pc.Kind, Promoted: pc.Promoted})
}

func (m *matcher) compileCells(l *rules.Layout) *cellMatcher {
	index := make(map[string]int, len(l.Squares))
	for i, s := range l.Squares {
		index[s] = i
	}
	cm := &cellMatcher{}
	for i := range m.terms {
		t := &m.terms[i]
		ct := cellTerm{kind: t.Kind, op: opOf(t.Op), n: t.N}
		switch t.Kind {
		case OnSquares, Empty:
			for _, s := range t.Squares {
				// A square the layout does not have holds no piece, as
				// for Board.
				if k, ok := index[s]; ok && !slices.Contains(ct.cells, k) {
					ct.cells = append(ct.cells, k)
				}
			}
			for c := range l.Codes {
				if t.Kind == Empty {
					ct.ok[c] = l.Codes[c].Kind == 0
				} else {
					ct.ok[c] = t.fits(l.Codes[c])
				}
			}
			ct.cost = len(ct.cells)
		case InHand:
			for k, pc := range l.Hand {
				if t.fits(pc) {
					ct.slots = append(ct.slots, k)
				}
			}
			ct.cost = 2*len(ct.slots) + 2
		case OnBoard:
			var codes []byte
			for c := range l.Codes {
				if t.fits(l.Codes[c]) {
					codes = append(codes, byte(c))
				}
			}
			if ct.cubes = coverCodes(codes, maxCubes); ct.cubes != nil {
				ct.cost = len(ct.cubes) * len(l.Squares) / 2
				break
			}
			ct.count = len(cm.counts)
			cm.counts = append(cm.counts, 0)
			if ct.count%8 == 0 {
				cm.packs = append(cm.packs, [256]uint64{})
			}
			pack := &cm.packs[ct.count/8]
			for c := range l.Codes {
				if t.fits(l.Codes[c]) {
					pack[c] |= 1 << (8 * (ct.count % 8))
				}
			}
			ct.cost = 4 * len(l.Squares) // every count is taken in one pass
		}
		cm.terms = append(cm.terms, ct)
	}
	// Every term must hold: test the cheap ones first.
	slices.SortStableFunc(cm.terms, func(a, b cellTerm) int { return a.cost - b.cost })
	return cm
}

// count takes the OnBoard counts of a board.
func (cm *cellMatcher) count(board []byte) {
	for k := range cm.packs {
		pack := &cm.packs[k]
		var a0, a1, a2, a3 uint64
		i := 0
		for ; i+4 <= len(board); i += 4 {
			a0 += pack[board[i]]
			a1 += pack[board[i+1]]
			a2 += pack[board[i+2]]
			a3 += pack[board[i+3]]
		}
		for ; i < len(board); i++ {
			a0 += pack[board[i]]
		}
		sum := a0 + a1 + a2 + a3
		for j := 8 * k; j < min(8*k+8, len(cm.counts)); j++ {
			cm.counts[j] = int(sum >> (8 * (j % 8)) & 0xff)
		}
	}
}

// A cube is the set of codes c with c&mask == val (broadcast to every byte
// of a word). An OnBoard term whose codes are a few disjoint cubes (a side,
// a kind, promoted or not: bits of most layouts' codes) is counted 8 squares
// at a time, with word operations, instead of a table look-up per square.
type cube struct{ mask, val uint64 }

// maxCubes is the most cubes a term is counted with: beyond, the table.
const maxCubes = 2

// coverCodes returns at most limit disjoint cubes whose union is exactly
// codes (distinct), or nil. Each split is on a bit that the codes do not
// agree on; the halves are covered in turn.
func coverCodes(codes []byte, limit int) []cube {
	if len(codes) == 0 || limit < 1 {
		return nil
	}
	and, or := byte(0xff), byte(0)
	for _, c := range codes {
		and &= c
		or |= c
	}
	agree := ^(and ^ or) // the bits every code has alike
	if 1<<(8-bits.OnesCount8(agree)) == len(codes) {
		// The smallest cube holding the codes has as many codes: it is theirs.
		return []cube{{mask: bcast(agree), val: bcast(and & agree)}}
	}
	for b := 0; b < 8 && limit > 1; b++ {
		if agree&(1<<b) != 0 {
			continue
		}
		var lo, hi []byte
		for _, c := range codes {
			if c&(1<<b) == 0 {
				lo = append(lo, c)
			} else {
				hi = append(hi, c)
			}
		}
		if a := coverCodes(lo, limit-1); a != nil {
			if z := coverCodes(hi, limit-len(a)); z != nil {
				return append(a, z...)
			}
		}
	}
	return nil
}

// bcast repeats a byte in every byte of a word.
func bcast(b byte) uint64 { return uint64(b) * 0x0101010101010101 }

const lo7 = 0x7f7f7f7f7f7f7f7f

// countCubes counts the squares of board whose code is in one of cubes
// (disjoint): a byte of (w&mask)^val is zero where the code is in the cube.
// The zero bytes are summed in the bytes of a word (1 each), then across
// them: a board has fewer than 256 squares, so bytes do not carry. One
// cube (the common case: a side, a kind, every piece) has a loop of its
// own.
func countCubes(cubes []cube, board []byte) int {
	var sum uint64
	if len(cubes) == 1 {
		sum = countCube(cubes[0].mask, cubes[0].val, board)
	} else {
		for _, c := range cubes {
			sum += countCube(c.mask, c.val, board)
		}
	}
	return int(sum * 0x0101010101010101 >> 56)
}

// countCube is countCubes for one cube, before the sum across bytes.
func countCube(mask, val uint64, board []byte) uint64 {
	var s0, s1 uint64
	i := 0
	for ; i+16 <= len(board); i += 16 {
		b := board[i : i+16 : i+16]
		x := binary.LittleEndian.Uint64(b)&mask ^ val
		y := binary.LittleEndian.Uint64(b[8:])&mask ^ val
		s0 += ^(x&lo7 + lo7 | x | lo7) >> 7 // 1 in each zero byte
		s1 += ^(y&lo7 + lo7 | y | lo7) >> 7
	}
	for ; i+8 <= len(board); i += 8 {
		x := binary.LittleEndian.Uint64(board[i:i+8:i+8])&mask ^ val
		s0 += ^(x&lo7 + lo7 | x | lo7) >> 7
	}
	if i < len(board) {
		var w uint64
		for j, c := range board[i:] {
			w |= uint64(c) << (8 * j)
		}
		x := w&mask ^ val
		lanes := uint64(0x0101010101010101) >> (64 - 8*(len(board)-i)) // the board's bytes
		s0 += ^(x&lo7 + lo7 | x | lo7) >> 7 & lanes
	}
	return s0 + s1
}

// match tests a position's cells. It is not safe for concurrent use (the
// counts are kept in cm): each worker has its own compiled matchers.
func (cm *cellMatcher) match(board, hand []byte) bool {
	counted := false
	for i := range cm.terms {
		t := &cm.terms[i]
		switch t.kind {
		case OnSquares:
			ok := false
			for _, k := range t.cells {
				if t.ok[board[k]] {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		case Empty:
			for _, k := range t.cells {
				if !t.ok[board[k]] {
					return false
				}
			}
		case InHand:
			n := 0
			for _, k := range t.slots {
				n += int(hand[k])
			}
			if !t.op.holds(n, t.n) {
				return false
			}
		case OnBoard:
			if t.cubes != nil {
				if !t.op.holds(countCubes(t.cubes, board), t.n) {
					return false
				}
				continue
			}
			if !counted {
				cm.count(board)
				counted = true
			}
			if !t.op.holds(cm.counts[t.count], t.n) {
				return false
			}
		}
	}
	return true
}

// cmpOp is a count comparison.
type cmpOp uint8

const (
	opEq cmpOp = iota
	opNe
	opLt
	opLe
	opGt
	opGe
)

func opOf(op string) cmpOp {
	switch op {
	case "!=":
		return opNe
	case "<":
		return opLt
	case "<=":
		return opLe
	case ">":
		return opGt
	case ">=":
		return opGe
	}
	return opEq
}

func (o cmpOp) holds(n, v int) bool {
	switch o {
	case opNe:
		return n != v
	case opLt:
		return n < v
	case opLe:
		return n <= v
	case opGt:
		return n > v
	case opGe:
		return n >= v
	}
	return n == v
}

// patWorker tests games against one pattern; one per goroutine.
type patWorker struct {
	g       rules.Game
	m       *matcher
	starts  map[string]rules.Position // parsed start positions by FEN
	layouts map[*rules.Layout]*cellMatcher
	// For the current game: its cells (nil to test Board) and the matcher
	// of its layout.
	cells       rules.Cells
	cm          *cellMatcher
	board, hand []byte
	// pos[d] is the memory of the position played at variation depth d
	// (0 the main line), reused from game to game through rules.CopyInto:
	// a game's copies allocate nothing once they have grown.
	pos []rules.Position
}

func newPatWorker(g rules.Game, m *matcher) *patWorker {
	return &patWorker{g: g, m: m, starts: map[string]rules.Position{}, layouts: map[*rules.Layout]*cellMatcher{}}
}

// start returns a copy of the start position given by a FEN ("" for the
// standard one), parsed once per worker, with room for the moves of the
// stored list (a history that grows with every move is allocated once), in
// the worker's main-line position.
func (w *patWorker) start(fen string, moves []byte) (rules.Position, error) {
	p, ok := w.starts[fen]
	if !ok {
		var err error
		if p, err = w.g.NewPosition(fen); err != nil {
			return nil, err
		}
		if len(w.starts) > 64 { // handicap starts are few; bound the cache anyway
			clear(w.starts)
		}
		w.starts[fen] = p
	}
	return w.copy(0, p, &decoder{b: moves}), nil
}

// bind prepares the tests for the positions of a game starting at pos. The
// rules keep a position's layout through Play.
func (w *patWorker) bind(pos rules.Position) {
	c, ok := pos.(rules.Cells)
	if !ok {
		w.cells, w.cm = nil, nil
		return
	}
	l := c.Layout()
	cm := w.layouts[l]
	if cm == nil {
		cm = w.m.compileCells(l)
		w.layouts[l] = cm
	}
	w.cells, w.cm = c, cm
	if len(w.board) < len(l.Squares) {
		w.board = make([]byte, len(l.Squares))
	}
	if len(w.hand) < len(l.Hand) {
		w.hand = make([]byte, len(l.Hand))
	}
	w.board, w.hand = w.board[:len(l.Squares)], w.hand[:len(l.Hand)]
}

// test reports whether the pattern matches pos (a position of the bound
// game).
func (w *patWorker) test(pos rules.Position) bool {
	if w.cells == nil {
		return w.m.match(pos.Board())
	}
	// pos is the bound game's position or a clone of it (a variation):
	// clones share the type, so the assertion is cheap and exact.
	return w.testCells(pos.(rules.Cells))
}

// testCells is test for a position of the bound game that has cells.
func (w *patWorker) testCells(pos rules.Cells) bool {
	pos.Cells(w.board, w.hand)
	return w.cm.match(w.board, w.hand)
}

// patternCand is one game to test and, after matchGame, the answer.
type patternCand struct {
	id    int64
	fen   string
	final int64
	moves []byte
	// results
	ply   int
	vari  bool
	ok    bool
	stale bool // the stored move values do not replay: use the record
	err   error
}

// matchGame finds the first position of a game that matches (main line and
// variations, in play order), playing the stored move values as they are
// decoded. If the main line does not end on the stored final key (a rules
// package whose move encoding changed), or a stored move makes the rules
// panic, the game is marked stale: it is then matched from its record.
func (w *patWorker) matchGame(c *patternCand) {
	c.ok, c.stale, c.err = false, false, nil
	defer func() {
		if recover() != nil {
			c.ok, c.stale = false, true
		}
	}()
	pos, err := w.start(c.fen, c.moves)
	if err != nil {
		c.err = err
		return
	}
	w.bind(pos)
	d := decoder{b: c.moves}
	found := w.test(pos)
	if found {
		c.ok, c.ply, c.vari = true, 0, false
	} else {
		found = w.line(&d, pos, 0, 0, c)
	}
	if d.err != nil {
		c.err = d.err
		return
	}
	if found {
		// A match before the end cannot be checked against the final key:
		// replay the main line to check it.
		if !w.trusted(c) {
			c.ok, c.stale = false, true
		}
		return
	}
	if d.rest() != 0 {
		c.err = fmt.Errorf("%w: %d bytes after the main line", errMoves, d.rest())
		return
	}
	if pos.Key() != uint64(c.final) {
		c.stale = true
	}
}

// line plays one line of the stored move list (see moves.go) from pos,
// testing the position after every move; variations are played, from a
// copy, before the move they replace. It returns true at the first match.
func (w *patWorker) line(d *decoder, pos rules.Position, ply, depth int, c *patternCand) bool {
	n := d.uvarint()
	if n > uint64(d.rest()) {
		d.fail()
		return false
	}
	// The line's position's optional interfaces, asserted once for the
	// line rather than at every move.
	tk, _ := pos.(rules.TurnKeeper)
	var cells rules.Cells
	if w.cells != nil {
		cells = pos.(rules.Cells)
	}
	for ; n > 0 && d.err == nil; n-- {
		m := rules.Move(d.uvarint())
		nv := d.uvarint()
		if d.err != nil || nv > uint64(d.rest()) {
			d.fail()
			return false
		}
		for ; nv > 0; nv-- {
			if w.line(d, w.copy(depth+1, pos, d), ply, depth+1, c) {
				return true
			}
			if d.err != nil {
				return false
			}
		}
		if tk != nil && !tk.KeepsTurn(m) || tk == nil && !pos.Describe(m).KeepsTurn {
			ply++
		}
		pos.Play(m)
		if cells != nil && w.testCells(cells) || cells == nil && w.test(pos) {
			c.ok, c.ply, c.vari = true, ply, depth > 0
			return true
		}
	}
	return false
}

// copy copies pos into the worker's position of a depth, for the line that
// d is at, with room for its moves. The position copied before at that
// depth is given up: its line is over (variations are played one at a
// time, depth first).
func (w *patWorker) copy(depth int, pos rules.Position, d *decoder) rules.Position {
	for len(w.pos) <= depth {
		w.pos = append(w.pos, nil)
	}
	n := 0
	peek := *d
	if v := peek.uvarint(); peek.err == nil && v <= uint64(peek.rest()) {
		n = int(v)
	}
	c := rules.CopyInto(w.pos[depth], pos, n)
	w.pos[depth] = c
	return c
}

// trusted replays the main line of the stored moves and compares its final
// key with the stored one.
func (w *patWorker) trusted(c *patternCand) bool {
	pos, err := w.start(c.fen, c.moves)
	if err != nil {
		return false
	}
	d := decoder{b: c.moves}
	n := d.uvarint()
	for ; n > 0 && d.err == nil; n-- {
		m := rules.Move(d.uvarint())
		for nv := d.uvarint(); nv > 0 && d.err == nil; nv-- {
			skipLine(&d)
		}
		pos.Play(m)
	}
	return d.err == nil && pos.Key() == uint64(c.final)
}

// skipLine reads past one line of a stored move list.
func skipLine(d *decoder) {
	n := d.uvarint()
	if n > uint64(d.rest()) {
		d.fail()
		return
	}
	for ; n > 0 && d.err == nil; n-- {
		d.uvarint()
		for nv := d.uvarint(); nv > 0 && d.err == nil; nv-- {
			skipLine(d)
		}
	}
}

// matchRecord is matchGame's fallback: it replays the stored record text.
func (w *patWorker) matchRecord(rec *record.Game, c *patternCand) {
	c.ok, c.stale, c.err = false, false, nil
	g := replay.Replay(rec, replay.Options{})
	if g.Err != nil || g.Start == nil {
		c.err = fmt.Errorf("stored record does not replay: %v", g.Err)
		return
	}
	w.bind(g.Start)
	if w.test(g.Start) {
		c.ok, c.ply, c.vari = true, 0, false
		return
	}
	var walk func(steps []*replay.Step, pos rules.Position, ply int) bool
	walk = func(steps []*replay.Step, pos rules.Position, ply int) bool {
		for _, s := range steps {
			for _, v := range s.Variations {
				if walk(v, pos.Clone(), ply) {
					return true
				}
			}
			pos.Play(s.Move)
			if !s.Info.KeepsTurn {
				ply++
			}
			if w.test(pos) {
				c.ok, c.ply, c.vari = true, ply, s.Depth > 0
				return true
			}
		}
		return false
	}
	walk(g.Main, g.Start.Clone(), 0)
}

// patBatch is a run of consecutive candidate games; the move lists are
// slices of arena. Batches are recycled.
type patBatch struct {
	seq   int
	cands []patternCand
	arena []byte
}

const patBatchGames = 256

// patternSearch scans the candidate games in id order: one goroutine reads
// the rows (id, start, final key, moves only), one worker per CPU tests
// whole batches of games, and this goroutine takes the answers in order,
// matches stale games from their records, and stops the scan once a page is
// full unless a count is asked. The hits' columns are read at the end, for
// the page only.
func (db *DB) patternSearch(ctx context.Context, q *Query, w where) (res Result, err error) {
	res = Result{Total: -1}
	g, err := rules.Lookup(q.Game)
	if err != nil {
		return res, err
	}
	if err := db.checkPattern(ctx, q.Pattern, g); err != nil { // pattern_check.go
		return res, err
	}
	m, err := q.Pattern.compile(g)
	if err != nil {
		return res, err
	}
	if q.Position != nil {
		ids, err := db.positionGames(ctx, saltKey(g.ID(), q.Position.Key()))
		if err != nil {
			return res, err
		}
		w.add("g.id IN (SELECT value FROM json_each(?))", jsonIDs(ids))
	}
	scan, cancel := context.WithCancel(ctx)
	defer cancel()
	rows, err := db.sql.QueryContext(scan, `SELECT g.id, g.fen, g.final, g.moves FROM games g WHERE `+w.String()+` ORDER BY g.id`, w.args...)
	if err != nil {
		return res, err
	}
	workers := max(runtime.GOMAXPROCS(0), 1)
	nbatch := 2*workers + 2
	free := make(chan *patBatch, nbatch)
	for range nbatch {
		free <- &patBatch{cands: make([]patternCand, 0, patBatchGames)}
	}
	todo := make(chan *patBatch, nbatch)
	done := make(chan *patBatch, nbatch) // never full: there are nbatch batches
	var readErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the reader
		defer wg.Done()
		defer close(todo)
		defer rows.Close()
		// The scan's destinations, allocated once.
		var id int64
		var fen sql.NullString
		var final sql.NullInt64
		var moves sql.RawBytes
		dst := []any{&id, &fen, &final, &moves}
		for seq := 0; ; seq++ {
			var b *patBatch
			select {
			case b = <-free:
			case <-scan.Done():
				return
			}
			b.seq, b.cands, b.arena = seq, b.cands[:0], b.arena[:0]
			more := true
			for len(b.cands) < patBatchGames {
				if more = rows.Next(); !more {
					break
				}
				if err := rows.Scan(dst...); err != nil {
					readErr = err
					return
				}
				start := len(b.arena)
				b.arena = append(b.arena, moves...)
				b.cands = append(b.cands, patternCand{id: id, fen: fen.String, final: final.Int64,
					moves: b.arena[start:]}) // sliced again below
			}
			// The arena may have moved while it grew: slice it again.
			off := 0
			for i := range b.cands {
				n := len(b.cands[i].moves)
				b.cands[i].moves = b.arena[off : off+n : off+n]
				off += n
			}
			if len(b.cands) > 0 {
				todo <- b // never blocks: there are nbatch batches
			}
			if !more {
				readErr = rows.Err()
				return
			}
		}
	}()
	var workWG sync.WaitGroup
	for range workers {
		workWG.Add(1)
		go func() {
			defer workWG.Done()
			pw := newPatWorker(g, m)
			for b := range todo {
				if scan.Err() == nil {
					for i := range b.cands {
						pw.matchGame(&b.cands[i])
					}
				}
				done <- b
			}
		}()
	}
	go func() {
		workWG.Wait()
		close(done)
	}()
	defer func() {
		cancel()
		for range done { // let the workers and the reader finish
		}
		wg.Wait()
	}()

	type match struct {
		id   int64
		ply  int
		vari bool
	}
	var page []match
	want := q.Offset + q.limit()
	matched := 0
	pending := map[int]*patBatch{}
	next := 0
	pw := newPatWorker(g, m) // for stale games
	var cache blockCache
	stopped := false
	for b := range done {
		if stopped {
			continue
		}
		pending[b.seq] = b
		for pending[next] != nil && !stopped {
			b := pending[next]
			delete(pending, next)
			next++
			for i := range b.cands {
				c := &b.cands[i]
				if c.stale && c.err == nil {
					rec, err := db.record(ctx, c.id, &cache)
					if err != nil {
						return res, fmt.Errorf("game %d: %w", c.id, err)
					}
					pw.matchRecord(rec, c)
				}
				if c.err != nil {
					return res, fmt.Errorf("game %d: %w", c.id, c.err)
				}
				if !c.ok {
					continue
				}
				matched++
				if matched > q.Offset && len(page) < q.limit() {
					page = append(page, match{c.id, c.ply, c.vari})
				}
				if !q.Count && matched >= want {
					stopped = true
					break
				}
			}
			free <- b
		}
		if stopped {
			cancel()
		}
	}
	wg.Wait()
	if !stopped {
		if readErr != nil {
			return res, readErr
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		res.Total = matched
	}
	// The hits' columns, for the page only.
	for len(page) > 0 {
		chunk := page[:min(len(page), 500)]
		page = page[len(chunk):]
		ids := make([]int64, len(chunk))
		for i, mt := range chunk {
			ids[i] = mt.id
		}
		rows, err := db.sql.QueryContext(ctx, `SELECT `+hitCols+` FROM `+hitJoin+` WHERE g.id IN (SELECT value FROM json_each(?)) ORDER BY g.id`, jsonIDs(ids))
		if err != nil {
			return res, err
		}
		k := 0
		for rows.Next() {
			h, err := scanHit(rows)
			if err != nil {
				rows.Close()
				return res, err
			}
			if k >= len(chunk) || h.ID != chunk[k].id {
				rows.Close()
				return res, fmt.Errorf("game %d vanished during the search", chunk[min(k, len(chunk)-1)].id)
			}
			h.Ply, h.Variation = chunk[k].ply, chunk[k].vari
			res.Hits = append(res.Hits, h)
			k++
		}
		err = errors.Join(rows.Err(), rows.Close())
		if err != nil {
			return res, err
		}
		if k != len(chunk) {
			return res, fmt.Errorf("game %d vanished during the search", chunk[k].id)
		}
	}
	return res, nil
}
