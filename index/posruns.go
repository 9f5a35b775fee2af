package index

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"time"
)

// Position runs (layout 4). Every position of every valid game is an
// occurrence (key, at), at = packAt(game, ply, var). Occurrences are not
// rows of one B-tree (inserting a commit's keys, spread over the whole key
// space, rewrote most pages of that tree at every commit: import slowed as
// the database grew) but sorted runs, one per import commit, LSM-style:
//
//   - pos_runs(run, entries, level) lists the live runs; pos_blocks(run,
//     last, data) holds each run's occurrences in (key, at) order, in blocks
//     of about blockBytes, delta- and varint-coded, with the last key of each
//     block indexed by (run, last). A commit appends one run: a few thousand
//     sequential blob rows instead of millions of B-tree inserts.
//   - A lookup reads, in each run, the blocks holding the key (usually one),
//     and merges the runs in at order, dropping repeated occurrences; all in
//     one read transaction, so that it sees one set of runs. It skips the
//     runs whose filter rules the key out (posfilter.go).
//   - Runs are merged when maxRunsPerLevel runs of one size level exist
//     (level = log8 of the entries over 64Ki), so that a database holds a
//     few dozen runs at most: each occurrence is rewritten about once per
//     8× growth of the database. The swap is one transaction: new run in,
//     old runs out. During an import the merge is computed beside the
//     writer, which stores the new run's blocks as they come and swaps in
//     the transaction of the last ones (posmerge.go); elsewhere it is one
//     transaction of its own (compactPositions).
//   - An import ends with a tail merge (mergeTail, tailOf): the runs after
//     the first one, from the largest, that outweighs them together are
//     merged into one, so that each run left outweighs all the smaller
//     ones: two or three runs after an import of 1,000,000 Ōgi games,
//     whether into an empty database or into one of 1,000,000 (the level
//     merges alone left sixteen and two).
//   - The occurrences the opening-tree aggregate counts (main line, ply below
//     TreeDepth) are stored under the salted key, the others under the
//     salted key XOR the database's deep salt (DB.deepSalt), so that Tree
//     reads only the second list and a position search merges both. A new
//     database's deep salt is 1: the two keys of a position are neighbours,
//     in the same block of a run but once in a few hundred, and a lookup
//     reads one block a run, not two. A database made before keeps the
//     constant legacyDeepSalt (meta deep_salt absent), which spreads them.
//   - A deleted game's occurrences stay in their run until a merge drops
//     them (merges keep only games still stored and valid); every reader
//     joins the games table, which no longer holds it (ids are never reused).
//     A game stored again under its id (a tag edit) adds its occurrences
//     again: readers and merges drop the repeats.

// posDeletedKey is the meta entry counting the valid games deleted since
// the last merge of every run: while it is 0, every occurrence is of a
// stored game.
const posDeletedKey = "pos_deleted"

// The deep salt marks the stored key of the occurrences outside the tree
// aggregate: adjacentDeepSalt in databases made since it exists (meta
// deep_salt), legacyDeepSalt before.
const (
	legacyDeepSalt   = -0x61c8864680b583eb // 0x9e3779b97f4a7c15 as int64
	adjacentDeepSalt = 1
	deepSaltKey      = "deep_salt"
)

// posKey is the stored key of an occurrence of the salted key.
func posKey(salted int64, ply, vari int, deepSalt int64) int64 {
	if vari == 0 && ply < TreeDepth {
		return salted
	}
	return salted ^ deepSalt
}

const (
	blockBytes      = 3 << 10 // encoded bytes per block (a block row stays within a page, 4 KiB in older files)
	maxRunsPerLevel = 8
)

// runLevel is the size level of a run of n occurrences.
func runLevel(n int64) int {
	l := 0
	for n >= 64<<10 {
		n >>= 3
		l++
	}
	return l
}

// blockEncoder cuts a sorted stream of occurrences into blocks.
type blockEncoder struct {
	buf        []byte
	first      bool
	key, at    int64
	n          int64 // occurrences written
	emit       func(last int64, data []byte) error
	maxBlockSz int
	filter     *runFilter // nil: none
}

func newBlockEncoder(emit func(last int64, data []byte) error) *blockEncoder {
	return &blockEncoder{first: true, emit: emit, maxBlockSz: blockBytes, buf: make([]byte, 0, blockBytes+32)}
}

// add appends one occurrence; occurrences come in (key, at) order, a
// repeat of the previous one is dropped.
func (e *blockEncoder) add(key, at int64) error {
	if e.filter != nil && (e.n == 0 || key != e.key) {
		e.filter.add(key)
	}
	switch {
	case e.first:
		e.buf = binary.AppendVarint(e.buf, key)
		e.buf = appendUvarint(e.buf, uint64(at))
		e.first = false
	case key == e.key:
		if at == e.at {
			return nil
		}
		e.buf = append(e.buf, 0)
		e.buf = appendUvarint(e.buf, uint64(at-e.at))
	default:
		e.buf = appendUvarint(e.buf, uint64(key-e.key))
		e.buf = appendUvarint(e.buf, uint64(at))
	}
	e.key, e.at = key, at
	e.n++
	if len(e.buf) >= e.maxBlockSz {
		return e.flush()
	}
	return nil
}

func (e *blockEncoder) flush() error {
	if e.first {
		return nil
	}
	err := e.emit(e.key, e.buf)
	e.buf = e.buf[:0]
	e.first = true
	return err
}

// blockDecoder reads a block's occurrences in order.
type blockDecoder struct {
	data    []byte
	key, at int64
	started bool
	err     error
}

func (d *blockDecoder) reset(data []byte) { *d = blockDecoder{data: data} }

func (d *blockDecoder) next() bool {
	if len(d.data) == 0 || d.err != nil {
		return false
	}
	if !d.started {
		// The first occurrence: key (signed) and at.
		first := d.varint()
		v := d.uvarint()
		if d.err != nil {
			return false
		}
		d.key, d.at, d.started = first, int64(v), true
		return true
	}
	// The others: the key's increase and, when it is 0, the at's
	// increase, else the at.
	dk, n := uvarint(d.data)
	if n <= 0 {
		d.err = errBadBlock
		return false
	}
	v, m := uvarint(d.data[n:])
	if m <= 0 {
		d.err = errBadBlock
		return false
	}
	d.data = d.data[n+m:]
	if dk == 0 {
		d.at += int64(v)
	} else {
		d.key += int64(dk)
		d.at = int64(v)
	}
	return true
}

// uvarint is binary.Uvarint, a byte's value inline.
func uvarint(b []byte) (uint64, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	return binary.Uvarint(b)
}

func (d *blockDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.data)
	if n <= 0 {
		d.err = errBadBlock
		return 0
	}
	d.data = d.data[n:]
	return v
}

func (d *blockDecoder) varint() int64 {
	v, n := binary.Varint(d.data)
	if n <= 0 {
		d.err = errBadBlock
		return 0
	}
	d.data = d.data[n:]
	return v
}

var errBadBlock = errors.New("position index: damaged block")

// runScratch is the memory that encodeRun uses again from one run to the
// next: the sort's scratch and the blocks' bytes. Allocating them afresh
// for every commit (72 MB and more for 50,000 Ōgi games) cost as much CPU
// as a third of the sort, clearing and faulting in new pages.
type runScratch struct {
	tmp    []dbPos
	arena  []byte
	blocks []encodedBlock
}

// cmpPos is the (key, at) order of occurrences.
func cmpPos(a, b dbPos) int {
	if c := cmp.Compare(a.key, b.key); c != 0 {
		return c
	}
	return cmp.Compare(a.at, b.at)
}

func lessPos(a, b dbPos) bool { return a.key < b.key || (a.key == b.key && a.at < b.at) }

// The radix sort's parameters (BenchmarkSortPositions: 4.5M occurrences).
const (
	sortSmall    = 256 // fewer occurrences: a comparison sort
	bucketLog    = 13  // the first pass aims at buckets of 2^bucketLog occurrences (128 KB), sorted in the caches (11: 79 ms, 13: 71, 14: 77)
	topBitsMax   = 12  // and takes at most this many bits
	subBitsMax   = 12  // bits of a bucket's pass, at most
	insertionMax = 24  // a bucket or part of one this small: insertion sort
)

// sortPositions sorts occurrences in (key, at) order, using s's scratch
// (s nil: a scratch of its own): a most-significant-digit radix sort on
// key, stable: one pass on the top bits of the key (those that vary)
// scatters the occurrences into buckets of a few thousand, and each
// bucket, while it is in the processor's caches, is scattered on its next
// bits back into place; what shares those bits (few, keys being hashes,
// or one key's list) is sorted by comparison, which also orders a key's
// ats unless all come in order (sortBucket). Two passes over the memory
// where the least-significant-digit sort took six on key, and three more
// on at when the ats were not all in order (an import's variations):
// BenchmarkSortPositions (4.5M occurrences, a commit of 50,000 games)
// about 71 ms of CPU against 170 (load 3, its scratch kept).
func sortPositions(ps []dbPos, s *runScratch) {
	n := len(ps)
	if n < sortSmall {
		slices.SortFunc(ps, cmpPos)
		return
	}
	if s == nil {
		s = &runScratch{}
	}
	if cap(s.tmp) < n {
		s.tmp = nil
		s.tmp = make([]dbPos, n+n/4) // commits vary in size
	}
	tmp := s.tmp[:n]
	// One read: are the ats in order, which key bits vary?
	k0, prev := ps[0].key, ps[0].at
	var diff uint64
	unsorted := false
	for i := range ps {
		diff |= uint64(ps[i].key ^ k0)
		unsorted = unsorted || ps[i].at < prev
		prev = ps[i].at
	}
	if diff == 0 {
		if unsorted {
			slices.SortFunc(ps, cmpPos)
		}
		return
	}
	// Key bits [0, top) vary; those above are the same in every key, the
	// sign bit included when top < 64, so the order of the bits below top
	// is the int64 order.
	top := bits.Len64(diff)
	b1 := min(top, topBitsMax, max(1, bits.Len(uint(n))-bucketLog))
	shift := uint(top - b1)
	mask := uint64(1)<<b1 - 1
	var count [1 << topBitsMax]int
	scatter(ps, tmp, shift, mask, count[:1<<b1])
	var sub [1 << subBitsMax]int32
	lo := 0
	for _, hi := range count[:1<<b1] {
		sortBucket(tmp[lo:hi], ps[lo:hi], shift, !unsorted, &sub)
		lo = hi
	}
}

// scatter is a radix pass: it moves the occurrences of src into dst in
// the order of their key's digit radixKey>>shift&mask, stably, counting in
// count (len: the digit's values), which it leaves holding the end of
// each digit's occurrences in dst.
func scatter[T int | int32](src, dst []dbPos, shift uint, mask uint64, count []T) {
	clear(count)
	for i := range src {
		count[radixKey(src[i].key)>>shift&mask]++
	}
	var sum T
	for d, x := range count {
		count[d] = sum
		sum += x
	}
	for i := range src {
		d := radixKey(src[i].key) >> shift & mask
		dst[count[d]] = src[i]
		count[d]++
	}
}

// radixKey is a key's bits in int64 order (sign bit flipped).
func radixKey(k int64) uint64 { return uint64(k) ^ 1<<63 }

// sortBucket sorts into dst the occurrences of src, which differ only in
// the key bits below shift; when atSorted, those of a key come in at
// order (the sort being stable, they stay so), else the lists of equal
// keys are sorted (an import's ats are in order but for its variations:
// where a key's list is long, almost always in order already).
func sortBucket(src, dst []dbPos, shift uint, atSorted bool, count *[1 << subBitsMax]int32) {
	m := len(src)
	switch {
	case m == 0:
		return
	case m == 1 || shift == 0: // shift 0: one key
		copy(dst, src)
		if !atSorted {
			sortPart(dst)
		}
		return
	case m <= insertionMax:
		copy(dst, src)
		insertionSort(dst)
		return
	}
	b := min(bits.Len(uint(m)), subBitsMax, int(shift))
	shift -= uint(b)
	mask := uint64(1)<<b - 1
	c := count[:1<<b]
	scatter(src, dst, shift, mask, c)
	if shift == 0 && atSorted {
		return
	}
	lo := 0
	for _, hi := range c {
		if int(hi)-lo > 1 {
			sortPart(dst[lo:hi])
		}
		lo = int(hi)
	}
}

// sortPart sorts a part of a bucket: one key's list (often in order
// already) or keys alike in many bits.
func sortPart(p []dbPos) {
	switch {
	case len(p) <= insertionMax:
		insertionSort(p)
	case !slices.IsSortedFunc(p, cmpPos):
		slices.SortFunc(p, cmpPos)
	}
}

func insertionSort(p []dbPos) {
	for i := 1; i < len(p); i++ {
		x := p[i]
		j := i
		for ; j > 0 && lessPos(x, p[j-1]); j-- {
			p[j] = p[j-1]
		}
		p[j] = x
	}
}

// txer is what writing a run needs of a transaction.
type txer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// runWriter appends a new run in a transaction.
type runWriter struct {
	ctx context.Context
	tx  txer
	run int64
	ins *sql.Stmt
	enc *blockEncoder
}

func newRunWriter(ctx context.Context, tx txer) (*runWriter, error) {
	run, err := nextRunID(ctx, tx)
	if err != nil {
		return nil, err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO pos_blocks(run, last, data) VALUES(?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	rw := &runWriter{ctx: ctx, tx: tx, run: run, ins: ins}
	rw.enc = newBlockEncoder(rw.insert)
	return rw, nil
}

// insert stores one block of the run.
func (rw *runWriter) insert(last int64, data []byte) error {
	_, err := rw.ins.ExecContext(rw.ctx, rw.run, last, data)
	return err
}

// list lists the run with its n occurrences (none: not listed) and closes
// the writer.
func (rw *runWriter) list(n int64) (int64, error) {
	defer rw.ins.Close()
	if n == 0 {
		return 0, nil
	}
	_, err := rw.tx.ExecContext(rw.ctx, `INSERT INTO pos_runs(run, entries, level) VALUES(?, ?, ?)`, rw.run, n, runLevel(n))
	return rw.run, err
}

// writeRun sorts occurrences and stores them as a new run.
func writeRun(ctx context.Context, tx txer, ps []dbPos) error {
	return storeRun(ctx, tx, encodeRun(ps, nil))
}

// encodedRun is a run's blocks, encoded before its transaction stores
// them: the writer sorts and encodes a commit's occurrences in a goroutine
// of their own while it stores the commit's other rows (flushRows).
type encodedRun struct {
	blocks []encodedBlock
	n      int64      // occurrences
	filter *runFilter // nil: none
}

type encodedBlock struct {
	last int64
	data []byte
	end  int // data's end in the run's bytes, while encoding
}

// encodeRun sorts occurrences (in place) and encodes them as a run's
// blocks, as blockEncoder does (TestEncodeRun), into s's memory (s nil:
// memory of its own): the run is valid until the next encodeRun with s.
func encodeRun(ps []dbPos, s *runScratch) encodedRun {
	if s == nil {
		s = &runScratch{}
	}
	sortPositions(ps, s)
	// The blocks are written one after the other in arena, their ends
	// noted in blocks and sliced at the end (arena may move as it grows).
	buf := s.arena[:0]
	if cap(buf) < 12*len(ps) { // about 11 bytes an occurrence at most, keys being hashes
		s.arena = nil
		buf = make([]byte, 0, 12*len(ps)+len(ps)/4+blockBytes)
	}
	blocks := s.blocks[:0]
	filter := filterFor(int64(len(ps)))
	var n int64
	var key, at int64
	start := 0
	first := true
	for _, p := range ps {
		if filter != nil && (n == 0 || p.key != key) {
			filter.add(p.key)
		}
		switch {
		case first:
			buf = binary.AppendVarint(buf, p.key)
			buf = appendUvarint(buf, uint64(p.at))
			first = false
		case p.key == key:
			if p.at == at {
				continue
			}
			buf = append(buf, 0)
			buf = appendUvarint(buf, uint64(p.at-at))
		default:
			buf = appendUvarint(buf, uint64(p.key-key))
			buf = appendUvarint(buf, uint64(p.at))
		}
		key, at = p.key, p.at
		n++
		if len(buf)-start >= blockBytes {
			blocks = append(blocks, encodedBlock{last: key, end: len(buf)})
			start = len(buf)
			first = true
		}
	}
	if !first {
		blocks = append(blocks, encodedBlock{last: key, end: len(buf)})
	}
	start = 0
	for i := range blocks {
		b := &blocks[i]
		b.data = buf[start:b.end:b.end]
		start = b.end
	}
	s.arena, s.blocks = buf, blocks
	return encodedRun{blocks: blocks, n: n, filter: filter}
}

// appendUvarint is binary.AppendUvarint, room made once.
func appendUvarint(buf []byte, v uint64) []byte {
	if v < 0x80 {
		return append(buf, byte(v))
	}
	n := len(buf)
	if cap(buf)-n < binary.MaxVarintLen64 {
		buf = slices.Grow(buf, binary.MaxVarintLen64)
	}
	b := buf[n : n+binary.MaxVarintLen64]
	i := 0
	for ; v >= 0x80 && i < len(b)-1; i++ {
		b[i] = byte(v) | 0x80
		v >>= 7
	}
	b[i] = byte(v)
	return buf[:n+i+1]
}

// storeRun stores an encoded run as a new run; an empty run is not
// listed.
func storeRun(ctx context.Context, tx txer, r encodedRun) error {
	if r.n == 0 {
		return nil
	}
	rw, err := newRunWriter(ctx, tx)
	if err != nil {
		return err
	}
	for _, b := range r.blocks {
		if err := rw.insert(b.last, b.data); err != nil {
			rw.ins.Close()
			return err
		}
	}
	run, err := rw.list(r.n)
	if err != nil {
		return err
	}
	return storeFilter(ctx, tx, run, r.filter)
}

// storeFilter stores the filter of a run just listed (none: nil), in
// place of any row of its id.
func storeFilter(ctx context.Context, tx txer, run int64, f *runFilter) error {
	if f == nil {
		_, err := tx.ExecContext(ctx, `DELETE FROM pos_filters WHERE run = ?`, run)
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO pos_filters(run, data) VALUES(?, ?)`, run, f.encode())
	return err
}

// runCursor reads the blocks of one run in order: from the block that
// may hold a key (seek), or every block (scan).
type runCursor struct {
	ctx      context.Context
	r        *posReader  // its seekQuery and contQuery (nil when scanning)
	rows     *sql.Rows   // a scan's blocks
	pager    *blockPager // a merge's blocks, read a page at a time (posmerge.go)
	run      int64
	last, id int64 // the current block
	dec      blockDecoder
	done     bool
}

const (
	// seekQuery finds the first block whose last key is at least a key;
	// after a block ending with the key, the list goes on in the next
	// block: contQuery one of the same last key (a key's list can span
	// many blocks), else seekQuery's with last past the key.
	seekQuery = `SELECT id, last, data FROM pos_blocks WHERE run = ? AND last >= ? ORDER BY last, id LIMIT 1`
	contQuery = `SELECT id, last, data FROM pos_blocks WHERE run = ? AND last = ? AND id > ? ORDER BY id LIMIT 1`
	scanQuery = `SELECT id, last, data FROM pos_blocks WHERE run = ? ORDER BY last, id`
)

// nextBlock loads the next block; false at the end of the run or, when
// seeking key, past the blocks that can hold it.
func (c *runCursor) nextBlock(key int64) (bool, error) {
	if c.done {
		return false, nil
	}
	var data []byte
	var err error
	switch {
	case c.pager != nil:
		b, ok, err := c.pager.next(c.ctx)
		if err != nil || !ok {
			c.done = true
			return false, err
		}
		c.id, c.last = b.id, b.last
		c.dec.reset(b.data)
		return true, nil
	case c.rows != nil:
		if !c.rows.Next() {
			c.done = true
			return false, c.rows.Err()
		}
		// The block is read before the next Next: its bytes need no
		// copy.
		var raw sql.RawBytes
		err = c.rows.Scan(&c.id, &c.last, &raw)
		data = raw
	case c.last == key:
		if err := c.r.prepareSeeks(c.ctx); err != nil {
			return false, err
		}
		err = c.r.cont.QueryRowContext(c.ctx, c.run, key, c.id).Scan(&c.id, &c.last, &data)
		if errors.Is(err, sql.ErrNoRows) && key < 1<<63-1 {
			err = c.r.seek.QueryRowContext(c.ctx, c.run, key+1).Scan(&c.id, &c.last, &data)
		}
	default: // the block's last key is past key
		c.done = true
		return false, nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		c.done = true
		return false, nil
	}
	if err != nil {
		return false, err
	}
	c.dec.reset(data)
	return true, nil
}

// keyStream streams the ats of one key in one run.
type keyStream struct {
	cur   runCursor
	key   int64
	at    int64 // current
	ended bool
}

// advance moves to the key's next at; false at the end of the key.
func (s *keyStream) advance() (bool, error) {
	if s.ended {
		return false, nil
	}
	for {
		for s.cur.dec.next() {
			if s.cur.dec.key < s.key {
				continue
			}
			if s.cur.dec.key > s.key {
				s.ended = true
				return false, nil
			}
			s.at = s.cur.dec.at
			return true, nil
		}
		if s.cur.dec.err != nil {
			return false, fmt.Errorf("run %d: %w", s.cur.run, s.cur.dec.err)
		}
		ok, err := s.cur.nextBlock(s.key)
		if err != nil || !ok {
			s.ended = true
			return false, err
		}
	}
}

// posReader reads occurrences in one read snapshot of the database: a
// BEGIN DEFERRED on one of the handle's read connections (readConn).
type posReader struct {
	db         *DB
	q          txer // the snapshot's connection
	rc         *readConn
	seek, cont *sql.Stmt
	runs       []int64
	own        []*sql.Stmt // statements of this snapshot only, to close
	blocks     int         // the blocks its lookups sought (tests)
}

// readConn is a connection that a handle keeps for read snapshots, with
// the statements prepared on it. A snapshot is a BEGIN DEFERRED on it,
// not a database/sql transaction: a transaction, and each query run in
// one, starts a goroutine that waits for its context to end, five a
// position lookup. On two processors busy with an import, waking the
// threads that run them held a lookup up by 3–5 ms about once in a
// hundred (a CPU profile and the scheduler's switches of the query's
// thread, in a throw-away harness): the slow lookups slept once, in the
// Go scheduler, not in SQLite. Statements prepared on a kept connection
// are prepared once, not once a snapshot (a handle opened read-only
// prepared its statements once; a writable one, once a lookup).
type readConn struct {
	conn            *sql.Conn
	begin, rollback *sql.Stmt // a snapshot's ends
	stmts           map[string]*sql.Stmt
	idle            time.Time // since it was put back
}

// readConns are the read connections a handle keeps: at most
// maxReadConns idle ones (fewer under a bounded pool, put); more lookups
// at once take more, which go back to database/sql's pool after their
// snapshot.
type readConns struct {
	mu     sync.Mutex
	free   []*readConn // the last put back last
	closed bool
	sweep  *time.Timer // closes the connections idle for readConnIdle
}

// readConnIdle is how long a kept read connection may stay idle before it
// is closed and its page cache freed (as a server's pool closes its idle
// connections).
var readConnIdle = 30 * time.Second

const (
	maxReadConns = 4
	// maxReadStmts bounds the statements kept on a read connection (the
	// searches' joins differ by their filters): past it, a statement is
	// prepared for its snapshot only.
	maxReadStmts = 64
)

// take returns an idle read connection, or a new one.
func (p *readConns) take(ctx context.Context, db *sql.DB) (*readConn, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		rc := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return rc, nil
	}
	p.mu.Unlock()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	rc := &readConn{conn: conn, stmts: map[string]*sql.Stmt{}}
	ctx = quiet(ctx)
	rc.begin, err = conn.PrepareContext(ctx, `BEGIN DEFERRED`)
	if err == nil {
		rc.rollback, err = conn.PrepareContext(ctx, `ROLLBACK`)
	}
	if err != nil {
		rc.close()
		return nil, err
	}
	return rc, nil
}

// put keeps rc for the next snapshot, or closes it. Under a bound on
// db's open connections (a server bounds its pool), a read connection kept
// idle counts as open: two at least are left, one to the queries that do
// not read positions and one to the fence loader.
func (p *readConns) put(rc *readConn, db *sql.DB) {
	keep := maxReadConns
	if max := db.Stats().MaxOpenConnections; max > 0 {
		keep = min(keep, max-2)
	}
	p.mu.Lock()
	if !p.closed && len(p.free) < keep {
		rc.idle = time.Now()
		p.free = append(p.free, rc)
		if p.sweep == nil {
			p.sweep = time.AfterFunc(readConnIdle, p.closeIdle)
		}
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	rc.close()
}

// closeIdle closes the connections idle for readConnIdle, and comes back
// for the others.
func (p *readConns) closeIdle() {
	p.mu.Lock()
	var old []*readConn
	for len(p.free) > 0 && time.Since(p.free[0].idle) >= readConnIdle {
		old = append(old, p.free[0])
		p.free = p.free[1:]
	}
	p.sweep = nil
	if len(p.free) > 0 && !p.closed {
		p.sweep = time.AfterFunc(readConnIdle-time.Since(p.free[0].idle), p.closeIdle)
	}
	p.mu.Unlock()
	for _, rc := range old {
		rc.close()
	}
}

// close closes the idle connections; those in use close when put back.
func (p *readConns) close() {
	p.mu.Lock()
	free := p.free
	p.free, p.closed = nil, true
	if p.sweep != nil {
		p.sweep.Stop()
	}
	p.mu.Unlock()
	for _, rc := range free {
		rc.close()
	}
}

func (rc *readConn) close() {
	for _, st := range rc.stmts {
		st.Close()
	}
	for _, st := range []*sql.Stmt{rc.begin, rc.rollback} {
		if st != nil {
			st.Close()
		}
	}
	rc.conn.Close()
}

// openPosReader starts a read snapshot (BEGIN DEFERRED: a writable
// handle's transactions take the write lock, BEGIN IMMEDIATE) on a read
// connection of the handle. The caller runs its other queries of the same
// snapshot on r.q and calls close.
func openPosReader(ctx context.Context, db *DB) (*posReader, error) {
	rc, err := db.reads.take(ctx, db.sql)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		db.reads.put(rc, db.sql)
		return nil, err
	}
	if _, err := rc.begin.ExecContext(quiet(ctx)); err != nil {
		rc.close()
		return nil, err
	}
	return &posReader{db: db, q: rc.conn, rc: rc}, nil
}

// stmt is query prepared on the snapshot's connection, once for the
// connection's life.
func (r *posReader) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st := r.rc.stmts[query]; st != nil {
		return st, nil
	}
	st, err := r.rc.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if len(r.rc.stmts) < maxReadStmts {
		r.rc.stmts[query] = st
	} else {
		r.own = append(r.own, st)
	}
	return st, nil
}

// loadRuns lists the live runs.
func (r *posReader) loadRuns(ctx context.Context) error {
	st, err := r.stmt(ctx, runsQuery)
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(ctx)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var run, entries int64
		if err := rows.Scan(&run, &entries); err != nil {
			return err
		}
		r.runs = append(r.runs, run)
	}
	return rows.Err()
}

// prepareSeeks prepares the statements of blocks after the first.
func (r *posReader) prepareSeeks(ctx context.Context) error {
	if r.seek != nil {
		return nil
	}
	var err error
	if r.seek, err = r.stmt(ctx, seekQuery); err != nil {
		return err
	}
	r.cont, err = r.stmt(ctx, contQuery)
	return err
}

// firstBlocks finds, in one statement, the first block that may hold a
// key in every run, for each of up to two keys.
const firstBlocks = `SELECT r.run, ks.k, b.id, b.last, b.data
	FROM pos_runs r, (SELECT ?1 AS k UNION ALL SELECT ?2) ks
	JOIN pos_blocks b ON b.id = (SELECT id FROM pos_blocks WHERE run = r.run AND last >= ks.k ORDER BY last, id LIMIT 1)`

func (r *posReader) close() {
	for _, st := range r.own {
		st.Close()
	}
	// A connection whose snapshot did not end is not kept.
	if _, err := r.rc.rollback.ExecContext(context.Background()); err != nil {
		r.rc.close()
		return
	}
	r.db.reads.put(r.rc, r.db.sql)
}

// openStream appends to streams the stream of key in run from its block
// (id, last, data), unless the key has no at from there on.
func (r *posReader) openStream(ctx context.Context, streams []*keyStream, run, key, id, last int64, data []byte) ([]*keyStream, error) {
	s := &keyStream{cur: runCursor{ctx: ctx, r: r, run: run, id: id, last: last}, key: key}
	s.cur.dec.reset(data)
	more, err := s.advance()
	if err != nil || !more {
		return streams, err
	}
	return append(streams, s), nil
}

// occIter merges the ats of some keys over every run, in at order, each
// at once.
type occIter struct {
	streams []*keyStream
	at      int64
	prev    int64
	err     error
	done    context.Context // the caller's: checked every checkEvery ats
	n       int
}

// checkEvery is how often an occIter checks its caller's context: its
// statements run without the context's end (quiet).
const checkEvery = 256

// quiet is ctx without its end, for a snapshot's statements: under a
// context that can end, database/sql starts a goroutine for each query
// (to close its rows when the context ends) and go-sqlite3 runs each Exec
// in a goroutine of its own (to interrupt it).
// The statements of a lookup are short (a block, a batch of games): its
// loops check the caller's context instead (occIter.next, joinGames).
func quiet(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// occurrences iterates the ats stored under the given stored keys (one or
// two).
func (r *posReader) occurrences(done context.Context, keys ...int64) *occIter {
	it := &occIter{prev: -1, done: done}
	if it.err = done.Err(); it.err != nil {
		return it
	}
	ctx := quiet(done)
	if len(keys) == 1 {
		keys = append(keys, keys[0])
	}
	if streams, ok, err := r.fencedStreams(ctx, keys); err != nil || ok {
		it.streams, it.err = streams, err
		return it
	}
	st, err := r.stmt(ctx, firstBlocks)
	if err != nil {
		it.err = err
		return it
	}
	rows, err := st.QueryContext(ctx, keys[0], keys[1])
	if err != nil {
		it.err = err
		return it
	}
	defer rows.Close()
	seen := map[[2]int64]bool{}
	for rows.Next() {
		var run, key, id, last int64
		var data []byte
		if err := rows.Scan(&run, &key, &id, &last, &data); err != nil {
			it.err = err
			return it
		}
		if seen[[2]int64{run, key}] { // the same key twice
			continue
		}
		seen[[2]int64{run, key}] = true
		if it.streams, it.err = r.openStream(ctx, it.streams, run, key, id, last, data); it.err != nil {
			return it
		}
	}
	if err := rows.Err(); err != nil {
		it.err = err
	}
	return it
}

// next moves to the next at (in packAt order: game, ply, var).
func (it *occIter) next() bool {
	if it.n++; it.n%checkEvery == 0 && it.err == nil {
		it.err = it.done.Err()
	}
	for it.err == nil && len(it.streams) > 0 {
		m := 0
		for i, s := range it.streams[1:] {
			if s.at < it.streams[m].at {
				m = i + 1
			}
		}
		s := it.streams[m]
		at := s.at
		ok, err := s.advance()
		if err != nil {
			it.err = err
			return false
		}
		if !ok {
			it.streams = append(it.streams[:m], it.streams[m+1:]...)
		}
		if at == it.prev {
			continue
		}
		it.prev, it.at = at, at
		return true
	}
	return false
}

// mergeRuns merges the runs of a level that has maxRunsPerLevel of them
// into one, in one transaction, keeping only the occurrences of games
// still stored and valid. It reports whether it merged.
func mergeRuns(ctx context.Context, tx txer, db *DB) (bool, error) {
	runs, err := mergeLevel(ctx, tx)
	if err != nil || runs == nil {
		return false, err
	}
	return true, mergeRunsOf(ctx, tx, db, runs)
}

// tailFactor bounds the tail merge of an import's end: the runs merged
// hold at most tailFactor times the occurrences the import stored (0: no
// tail merge, for tests that want the runs an import leaves).
var tailFactor int64 = 4

// mergeTail merges, in one transaction, the tail of the runs into one: in
// the runs ordered from the largest, the runs after the first one that
// outweighs them all (tailOf). An import ends with it (compactPositions),
// so that a lookup reads a few blocks, not one per run that the import's
// last level merges happened to leave (sixteen after one import of
// 1,000,000 Ōgi games into an empty database; four after 10,000,000: a
// cold lookup 1.3 ms p50 instead of 0.65 with two), at a cost bounded by
// what the import wrote (budget: tailFactor times its occurrences). It
// reports whether it merged.
func mergeTail(ctx context.Context, tx txer, db *DB, budget int64) (bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT run, entries FROM pos_runs ORDER BY entries DESC, run`)
	if err != nil {
		return false, err
	}
	var runs, entries []int64
	for rows.Next() {
		var run, n int64
		if err := rows.Scan(&run, &n); err != nil {
			rows.Close()
			return false, err
		}
		runs, entries = append(runs, run), append(entries, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, err
	}
	k := tailOf(entries, budget)
	if k < 0 {
		return false, nil
	}
	tail := runs[k+1:]
	slices.Sort(tail)
	return true, mergeRunsOf(ctx, tx, db, tail)
}

// tailOf chooses the tail merge of runs of entries occurrences, ordered
// from the largest: the runs after the first run k that holds at least as
// many occurrences as they do together, when they are two or more and
// hold at most budget; -1: none. The runs left then each outweigh all the
// smaller ones, so that there are at most log2 of the largest's size in
// all, and in practice two to four.
func tailOf(entries []int64, budget int64) int {
	var sum int64
	for _, n := range entries {
		sum += n
	}
	for k, n := range entries {
		sum -= n // the runs after k
		if len(entries)-k-1 < 2 {
			return -1
		}
		if sum <= n && sum <= budget {
			return k
		}
	}
	return -1
}

// mergeRunsOf merges runs into one, in tx, keeping only the occurrences of
// games still stored and valid.
func mergeRunsOf(ctx context.Context, tx txer, db *DB, runs []int64) error {
	deleted, err := db.metaInt(ctx, tx, posDeletedKey)
	if err != nil {
		return err
	}
	// The ids of the valid games, as a bitmap: a merge drops the
	// occurrences of deleted games (none while pos_deleted is 0).
	live, err := liveGames(ctx, tx, deleted)
	if err != nil {
		return err
	}
	m, err := newRunMerge(ctx, tx, runs)
	if err != nil {
		return err
	}
	defer m.close()
	// The sources' blocks are deleted as the merge passes them (see
	// runMerge.release), so that the merged run's blocks take their pages.
	del, err := tx.PrepareContext(ctx, `DELETE FROM pos_blocks WHERE id IN (SELECT value FROM json_each(?))`)
	if err != nil {
		return err
	}
	defer del.Close()
	m.releasing(func(ids []int64) error {
		_, err := del.ExecContext(ctx, jsonIDs(ids))
		return err
	})
	rw, err := newRunWriter(ctx, tx)
	if err != nil {
		return err
	}
	defer rw.ins.Close()
	bound, err := runsEntries(ctx, tx, runs)
	if err != nil {
		return err
	}
	rw.enc.filter = filterFor(bound)
	if err := m.encode(live, rw.enc); err != nil {
		return err
	}
	if err := rw.enc.flush(); err != nil {
		return err
	}
	return swapMerged(ctx, db, tx, &posMerge{run: rw.run, srcs: runs, deleted: deleted, n: rw.enc.n, filter: rw.enc.filter})
}

// runsEntries is the occurrences of runs together: a bound on those of
// their merge.
func runsEntries(ctx context.Context, q txer, runs []int64) (int64, error) {
	var n int64
	err := q.QueryRowContext(ctx, `SELECT COALESCE(SUM(entries), 0) FROM pos_runs WHERE run IN (SELECT value FROM json_each(?))`, jsonIDs(runs)).Scan(&n)
	return n, err
}

// idSet is a bitmap of game ids.
type idSet []uint64

func (s idSet) has(id int64) bool {
	i := uint64(id) >> 6
	return i < uint64(len(s)) && s[i]&(1<<(uint64(id)&63)) != 0
}

// liveGames is the set of games whose occurrences a merge keeps: nil, every
// occurrence, when no valid game was deleted since every run was merged
// (pos_deleted, read in the same transaction or before the merge's reads,
// is 0: the runs hold only games stored and valid), else validGames.
// Reading the ids of 10,000,000 games and testing every occurrence
// against them took about 8% of the CPU of an import of that size, in
// merges that had nothing to drop.
func liveGames(ctx context.Context, q txer, deleted int64) (idSet, error) {
	if deleted == 0 {
		return nil, nil
	}
	return validGames(ctx, q)
}

// validGames reads the ids of the stored games from an index (SQLite scans
// the smallest that covers them) and takes the invalid ones off (their
// partial index): reading "valid = 1" scanned the games table itself, row
// by row with its moves, in every merge (3,000,000 Ōgi games: 10.4 s from
// a cold cache, against 0.5 s for the index).
func validGames(ctx context.Context, q txer) (idSet, error) {
	var maxID int64
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM games`).Scan(&maxID); err != nil {
		return nil, err
	}
	s := make(idSet, maxID>>6+1)
	for _, query := range []string{`SELECT id FROM games`, `SELECT id FROM games WHERE valid = 0`} {
		invalid := query != `SELECT id FROM games`
		rows, err := q.QueryContext(ctx, query)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			if invalid {
				s[uint64(id)>>6] &^= 1 << (uint64(id) & 63)
			} else {
				s[uint64(id)>>6] |= 1 << (uint64(id) & 63)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// compactPositions merges runs while a level holds maxRunsPerLevel of
// them, one merge a transaction, then, with a tailBudget, the runs but the
// largest (mergeTail), unless another writer holds the merge lock.
func (db *DB) compactPositions(ctx context.Context, tailBudget int64) error {
	lock, err := db.tryMergeLock()
	if err != nil || lock == nil {
		return err // nil: another writer merges (mergelock.go)
	}
	defer lock.release()
	for {
		var merged bool
		err := db.inTx(ctx, func(tx txer) error { // compact.go
			var err error
			merged, err = mergeRuns(ctx, tx, db)
			return err
		})
		if err != nil {
			return fmt.Errorf("merge position runs: %w", err)
		}
		if !merged {
			break
		}
	}
	if tailBudget <= 0 {
		return nil
	}
	err = db.inTx(ctx, func(tx txer) error {
		_, err := mergeTail(ctx, tx, db, tailBudget)
		return err
	})
	if err != nil {
		return fmt.Errorf("merge position runs: %w", err)
	}
	return nil
}

// runMerge reads whole runs merged in (key, at) order, each occurrence
// once.
type runMerge struct {
	all     []*mergeSrc // to close
	srcs    []*mergeSrc // not at their end
	key, at int64
	started bool
	err     error
	// release, when set (releasing), is given the ids of the sources' blocks that the
	// merge has read to their end, releaseBatch at a time (encode) and the
	// last at the end of encode. A merge in one transaction (mergeRuns)
	// deletes them there: SQLite then reuses their pages for the merged
	// run's blocks in the same transaction, instead of the file growing by
	// the whole merged run and keeping the sources' pages free after the
	// commit (at 10,000,000 Ōgi games, the import's last merge left
	// 9.9 GiB of free pages in a file of 34.4 GiB). The sources' cursors
	// read in (last, id) order, ahead of the blocks deleted.
	release func(ids []int64) error
	spent   []int64
}

// releaseBatch is how many read blocks a merge deletes at a time (about
// 3 MiB of blocks; a variable for tests).
var releaseBatch = 1024

type mergeSrc struct {
	cur     runCursor
	key, at int64
	spent   *[]int64 // nil, or where the ids of its read blocks go
}

func (s *mergeSrc) advance() (bool, error) {
	for {
		if s.cur.dec.next() {
			s.key, s.at = s.cur.dec.key, s.cur.dec.at
			return true, nil
		}
		if s.cur.dec.err != nil {
			return false, fmt.Errorf("run %d: %w", s.cur.run, s.cur.dec.err)
		}
		if s.spent != nil && s.cur.id != 0 {
			*s.spent = append(*s.spent, s.cur.id) // read to its end
		}
		ok, err := s.cur.nextBlock(0)
		if err != nil || !ok {
			return false, err
		}
	}
}

func newRunMerge(ctx context.Context, q txer, runs []int64) (*runMerge, error) {
	m := &runMerge{}
	for _, run := range runs {
		rows, err := q.QueryContext(ctx, scanQuery, run)
		if err != nil {
			m.close()
			return nil, err
		}
		if err := m.add(&mergeSrc{cur: runCursor{ctx: ctx, rows: rows, run: run}}); err != nil {
			m.close()
			return nil, err
		}
	}
	return m, nil
}

// add makes s one of the merge's sources, at its first occurrence.
func (m *runMerge) add(s *mergeSrc) error {
	m.all = append(m.all, s)
	ok, err := s.advance()
	if ok {
		m.srcs = append(m.srcs, s)
	}
	return err
}

// encode writes the merged occurrences of the live games (every one when
// live is nil: liveGames) to enc (not flushed).
func (m *runMerge) encode(live idSet, enc *blockEncoder) error {
	for m.next() {
		if g, _, _ := unpackAt(m.at); live == nil || live.has(g) {
			if err := enc.add(m.key, m.at); err != nil {
				return err
			}
		}
		if len(m.spent) >= releaseBatch {
			if err := m.releaseSpent(); err != nil {
				return err
			}
		}
	}
	if m.err != nil {
		return m.err
	}
	return m.releaseSpent()
}

// releasing sets release and has the sources note their read blocks.
func (m *runMerge) releasing(release func(ids []int64) error) {
	m.release = release
	for _, s := range m.all {
		s.spent = &m.spent
	}
}

// releaseSpent gives the blocks read to their end to release, if set.
func (m *runMerge) releaseSpent() error {
	if m.release == nil || len(m.spent) == 0 {
		m.spent = m.spent[:0]
		return nil
	}
	err := m.release(m.spent)
	m.spent = m.spent[:0]
	return err
}

func (m *runMerge) close() {
	for _, s := range m.all {
		if s.cur.rows != nil {
			s.cur.rows.Close()
		}
	}
}

func (m *runMerge) next() bool {
	for m.err == nil && len(m.srcs) > 0 {
		i := 0
		for j, s := range m.srcs[1:] {
			if s.key < m.srcs[i].key || (s.key == m.srcs[i].key && s.at < m.srcs[i].at) {
				i = j + 1
			}
		}
		s := m.srcs[i]
		key, at := s.key, s.at
		ok, err := s.advance()
		if err != nil {
			m.err = err
			return false
		}
		if !ok {
			m.srcs = append(m.srcs[:i], m.srcs[i+1:]...)
		}
		if m.started && key == m.key && at == m.at {
			continue
		}
		m.started, m.key, m.at = true, key, at
		return true
	}
	return false
}

// ScanPositions calls fn for every stored occurrence of a position in a
// valid game (main lines and variations), in (stored key, at) order, with
// the salted key (the rules' key mixed with the ruleset). It reads the
// whole index: for tests and consistency checks.
func (db *DB) ScanPositions(ctx context.Context, fn func(key, game int64, ply, vari int) error) error {
	r, err := openPosReader(ctx, db)
	if err != nil {
		return err
	}
	defer r.close()
	live, err := validGames(ctx, r.q)
	if err != nil {
		return err
	}
	if err := r.loadRuns(ctx); err != nil {
		return err
	}
	m, err := newRunMerge(ctx, r.q, r.runs)
	if err != nil {
		return err
	}
	defer m.close()
	for m.next() {
		g, ply, v := unpackAt(m.at)
		if !live.has(g) {
			continue
		}
		key := m.key
		if v != 0 || ply >= TreeDepth {
			key ^= db.deepSalt
		}
		if err := fn(key, g, ply, v); err != nil {
			return err
		}
	}
	return m.err
}
