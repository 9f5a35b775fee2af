package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// DictTable holds the database's text dictionary (layout 16): the first
// DictSize bytes of canonical text it stored, which every text block
// compressed since is compressed against (a zstd raw-content dictionary,
// its id in the block's frame header). Small blocks compress poorly on
// their own: the tag names, players, events and move notation that
// recur in a collection are found in the dictionary instead. A block
// compressed without one (the first transaction's, or one of an older
// layout) has no dictionary id and decodes as before.
const DictTable = `CREATE TABLE IF NOT EXISTS text_dicts(id INTEGER PRIMARY KEY, data BLOB NOT NULL)`

// DictSize is the text a dictionary holds.
const DictSize = 64 << 10

// TextDict is a text dictionary: its zstd id and content.
type TextDict struct {
	ID   uint32
	Data []byte
}

// dictID is the id of a dictionary of content: a hash of it, in the range
// zstd leaves to applications (32768 up), never 0.
func dictID(content []byte) uint32 {
	h := fnv.New32a()
	h.Write(content)
	return 1<<15 + h.Sum32()%(1<<31-1<<15)
}

// LoadDict reads the database's text dictionary: nil when it has none.
func LoadDict(ctx context.Context, q Queryer) (*TextDict, error) {
	var id int64
	var data []byte
	err := q.QueryRowContext(ctx, `SELECT id, data FROM text_dicts ORDER BY id LIMIT 1`).Scan(&id, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &TextDict{ID: uint32(id), Data: data}, nil
}

// TxQueryer is what making a dictionary needs of a transaction.
type TxQueryer interface {
	Queryer
	Execer
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// MakeDict stores the database's text dictionary when it has none and
// its stored texts hold DictSize bytes: their first DictSize bytes, from
// the first blocks. It returns the dictionary (nil: none yet).
func MakeDict(ctx context.Context, tx TxQueryer) (*TextDict, error) {
	if d, err := LoadDict(ctx, tx); err != nil || d != nil {
		return d, err
	}
	var blocks int64
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM texts`).Scan(&blocks); err != nil || blocks < DictSize/minBlock {
		return nil, err // too few blocks to hold DictSize bytes (minBlock each at least, but a transaction's last)
	}
	rows, err := tx.QueryContext(ctx, `SELECT data FROM texts ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var text []byte
	for len(text) < DictSize && rows.Next() {
		var stored []byte
		if err := rows.Scan(&stored); err != nil {
			return nil, err
		}
		raw, err := DecodeBlock(ctx, tx, stored)
		if err != nil {
			return nil, fmt.Errorf("text dictionary: %w", err)
		}
		text = append(text, raw...)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if len(text) < DictSize {
		return nil, nil
	}
	d := &TextDict{Data: text[:DictSize:DictSize]}
	d.ID = dictID(d.Data)
	if _, err := tx.ExecContext(ctx, `INSERT INTO text_dicts(id, data) VALUES(?, ?)`, d.ID, d.Data); err != nil {
		return nil, err
	}
	return d, nil
}

// Encoder is a block encoder against d; EncodeAll may be called from
// several goroutines at once. Against a dictionary it is at zstd's fastest
// level: there the dictionary finds the matches, and the fastest level
// both compresses these blocks smaller than the default one and takes
// about half its time, the default level's larger tables being reset
// from the dictionary's at every block (docs/storage.md). Without one
// (d nil) it is at the default level, which compresses a block alone
// better than the fastest.
func (d *TextDict) Encoder() (*zstd.Encoder, error) {
	if d == nil {
		return zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
	}
	return zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderDictRaw(d.ID, d.Data))
}

// BlockDict is the dictionary id of a stored block (0: none).
func BlockDict(stored []byte) uint32 {
	var h zstd.Header
	if h.Decode(stored) != nil {
		return 0
	}
	return h.DictionaryID
}

// decoders are the block decoders by dictionary id (0: none), shared by
// every handle of the process: a dictionary's id is a hash of its
// content, and a block whose decoder fails is decoded again with the
// content its database holds under the id.
var decoders = struct {
	sync.Mutex
	m map[uint32]*dictDecoder
}{m: map[uint32]*dictDecoder{}}

type dictDecoder struct {
	data []byte
	dec  *zstd.Decoder
}

func newDictDecoder(id uint32, data []byte) (*dictDecoder, error) {
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(0)}
	if id != 0 {
		opts = append(opts, zstd.WithDecoderDictRaw(id, data))
	}
	dec, err := zstd.NewReader(nil, opts...)
	return &dictDecoder{data: data, dec: dec}, err
}

// DecodeBlock decodes a stored text block, against the dictionary of q's
// database that its frame names, if any.
func DecodeBlock(ctx context.Context, q Queryer, stored []byte) ([]byte, error) {
	id := BlockDict(stored)
	decoders.Lock()
	d := decoders.m[id]
	decoders.Unlock()
	if d == nil {
		var data []byte
		if id != 0 {
			if err := q.QueryRowContext(ctx, `SELECT data FROM text_dicts WHERE id = ?`, id).Scan(&data); err != nil {
				return nil, fmt.Errorf("text dictionary %d: %w", id, err)
			}
		}
		nd, err := newDictDecoder(id, data)
		if err != nil {
			return nil, err
		}
		decoders.Lock()
		if d = decoders.m[id]; d == nil {
			decoders.m[id], d = nd, nd
		}
		decoders.Unlock()
	}
	out, err := d.dec.DecodeAll(stored, nil)
	if err == nil || id == 0 {
		return out, err
	}
	// Another database's dictionary under the same id: this one's.
	var data []byte
	if qerr := q.QueryRowContext(ctx, `SELECT data FROM text_dicts WHERE id = ?`, id).Scan(&data); qerr != nil || bytes.Equal(data, d.data) {
		return nil, err
	}
	nd, nerr := newDictDecoder(id, data)
	if nerr != nil {
		return nil, nerr
	}
	defer nd.dec.Close()
	return nd.dec.DecodeAll(stored, nil)
}

// textRef is where a text is: its block, offset and length.
type textRef struct{ block, off, n int64 }

// Recompress writes every text that a game or a revision names again, in
// new blocks compressed against d (nil: none), in tx: the texts in their
// stored order, cut as an import cuts them (Texts), into a new texts table,
// and the games' and revisions' references moved to them. The old
// table's pages are freed whole, for the caller to give back; a text no
// game or revision names is dropped. It holds every reference in memory
// (about 100 bytes a game). It returns the blocks written.
func Recompress(ctx context.Context, tx *sql.Tx, d *TextDict) (int64, error) {
	for _, q := range []string{
		`DROP TABLE IF EXISTS texts_old`,
		`ALTER TABLE texts RENAME TO texts_old`,
		`CREATE TABLE texts(id INTEGER PRIMARY KEY, data BLOB NOT NULL)`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return 0, err
		}
	}
	refs, err := textRefs(ctx, tx)
	if err != nil {
		return 0, err
	}
	moved, blocks, err := rewriteTexts(ctx, tx, d, refs)
	if err != nil {
		return 0, err
	}
	if err := moveRefs(ctx, tx, moved); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DROP TABLE texts_old`); err != nil {
		return 0, err
	}
	return blocks, nil
}

// textRefs are the texts that games and revisions (when the database has
// the table) name, in stored order, once each.
func textRefs(ctx context.Context, tx *sql.Tx) ([]textRef, error) {
	q := `SELECT tblock, toff, tlen FROM games ORDER BY 1, 2, 3`
	if ok, err := hasRevisions(ctx, tx); err != nil {
		return nil, err
	} else if ok {
		q = `SELECT tblock, toff, tlen FROM games UNION SELECT tblock, toff, tlen FROM revisions ORDER BY 1, 2, 3`
	}
	rows, err := tx.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var refs []textRef
	for rows.Next() {
		var r textRef
		if err := rows.Scan(&r.block, &r.off, &r.n); err != nil {
			return nil, err
		}
		refs = append(refs, r)
	}
	return refs, rows.Err()
}

// rewriteTexts writes the texts of refs into the new texts table and
// returns where each went.
func rewriteTexts(ctx context.Context, tx *sql.Tx, d *TextDict, refs []textRef) (map[textRef][2]int64, int64, error) {
	t := NewTexts(nil)
	t.id = 1
	if d != nil {
		enc, err := d.Encoder()
		if err != nil {
			return nil, 0, err
		}
		defer enc.Close()
		t.dict, t.denc = d, enc
	} else {
		enc, err := d.Encoder()
		if err != nil {
			return nil, 0, err
		}
		defer enc.Close()
		t.enc = func() (*zstd.Encoder, error) { return enc, nil }
	}
	defer t.Discard()
	moved := make(map[textRef][2]int64, len(refs))
	block, raw := int64(-1), []byte(nil)
	for _, r := range refs {
		if r.block != block {
			var stored []byte
			if err := tx.QueryRowContext(ctx, `SELECT data FROM texts_old WHERE id = ?`, r.block).Scan(&stored); err != nil {
				return nil, 0, fmt.Errorf("text block %d: %w", r.block, err)
			}
			var err error
			if raw, err = DecodeBlock(ctx, tx, stored); err != nil {
				return nil, 0, fmt.Errorf("text block %d: %w", r.block, err)
			}
			block = r.block
		}
		if r.off < 0 || r.n < 0 || r.off+r.n > int64(len(raw)) {
			return nil, 0, fmt.Errorf("text block %d: bad reference", r.block)
		}
		b, off := t.Pos()
		moved[r] = [2]int64{b, int64(off)}
		if err := t.Append(raw[r.off : r.off+r.n]); err != nil {
			return nil, 0, err
		}
		if len(t.pending) >= 256 {
			if err := t.Store(ctx, tx); err != nil {
				return nil, 0, err
			}
		}
	}
	if err := t.Flush(); err != nil {
		return nil, 0, err
	}
	return moved, t.id - 1, t.Store(ctx, tx)
}

// moveRefs points the games and revisions at their texts' new places.
func moveRefs(ctx context.Context, tx *sql.Tx, moved map[textRef][2]int64) error {
	if err := moveTable(ctx, tx, moved, `SELECT id, 0, tblock, toff, tlen FROM games`,
		`UPDATE games SET tblock = ?, toff = ? WHERE id = ?`); err != nil {
		return err
	}
	if ok, err := hasRevisions(ctx, tx); err != nil || !ok {
		return err
	}
	return moveTable(ctx, tx, moved, `SELECT game, rev, tblock, toff, tlen FROM revisions`,
		`UPDATE revisions SET tblock = ?, toff = ? WHERE game = ? AND rev = ?`)
}

// moveTable moves the references that sel reads (a row's key of one or
// two columns, then its reference) with upd (new block and offset, then
// the key).
func moveTable(ctx context.Context, tx *sql.Tx, moved map[textRef][2]int64, sel, upd string) error {
	type update struct{ k1, k2, block, off int64 }
	var ups []update
	rows, err := tx.QueryContext(ctx, sel)
	if err != nil {
		return err
	}
	for rows.Next() {
		var u update
		var r textRef
		if err := rows.Scan(&u.k1, &u.k2, &r.block, &r.off, &r.n); err != nil {
			rows.Close()
			return err
		}
		to, ok := moved[r]
		if !ok {
			rows.Close()
			return fmt.Errorf("text %v not moved", r)
		}
		u.block, u.off = to[0], to[1]
		ups = append(ups, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	st, err := tx.PrepareContext(ctx, upd)
	if err != nil {
		return err
	}
	defer st.Close()
	two := strings.Count(upd, "?") == 4
	for _, u := range ups {
		args := []any{u.block, u.off, u.k1}
		if two {
			args = append(args, u.k2)
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return err
		}
	}
	return nil
}

// hasRevisions reports whether the database has the revisions table (a
// layout-7 database, in the upgrades' tests, has not).
func hasRevisions(ctx context.Context, tx *sql.Tx) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'revisions'`).Scan(&n)
	return n > 0, err
}
