package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"runtime/pprof"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
)

// BlockSize is the size of canonical text compressed together. Showing a
// game reads and decompresses its block up to the game: larger blocks
// compress better but make a game's page cost more (docs/storage.md).
const BlockSize = 16 << 10

// PackedBlock is the compressed size a block aims at: two blocks and
// their cells fit a 16 KiB page (a new database's, index.pageSize), and
// four a 4 KiB page's overflow chain less often than blocks of BlockSize
// would. A block is cut before BlockSize once its text, compressed at the
// ratio of the blocks compressed so far, reaches PackedBlock: a block of
// 16 KiB of Ōgi text compresses to 7.8–10 KB, over half a page, so that
// each took a page of its own, half empty (docs/storage.md).
const PackedBlock = 7000

// PackedBlock3 is the compressed size a block aims at when PackedBlock
// would take more text than BlockSize (text that compresses better, as
// against a dictionary does): three blocks of up to about 5,440 bytes and
// their cells fit a 16 KiB page, where two blocks of BlockSize would leave
// a third of it empty. Blocks vary around the size aimed at (the ratio is
// the average's): the aim is below the bound (docs/storage.md).
const PackedBlock3 = 4900

// minBlock bounds the cut from below, whatever the ratio.
const minBlock = 4 << 10

// Texts writes the canonical texts of a transaction's games into the
// texts table, zstd-compressed in blocks of at most about BlockSize (cut
// to pack pages: PackedBlock): a game's text
// is at an offset of a block (Pos before Append). A full block is
// compressed by a goroutine of its own while the writer goes on with the
// next games; Store inserts the compressed blocks before the commit.
type Texts struct {
	enc     func() (*zstd.Encoder, error)
	dict    *TextDict     // the database's dictionary (nil: none yet), read by Begin
	denc    *zstd.Encoder // the encoder against dict
	block   []byte
	id      int64 // the block being filled
	pending []pendingBlock
	limit   int // the text of the block being filled (cutAt)
	// The text and compressed bytes of the blocks compressed so far,
	// added by the compressing goroutines.
	raw, packed atomic.Int64
}

type pendingBlock struct {
	id   int64
	data chan []byte
}

// NewTexts returns a Texts whose blocks enc compresses.
func NewTexts(enc func() (*zstd.Encoder, error)) *Texts {
	return &Texts{enc: enc, limit: BlockSize}
}

// cutAt is the text a block holds before it is compressed: what
// compresses to PackedBlock at the ratio seen so far, within minBlock and
// BlockSize.
func (t *Texts) cutAt() int {
	raw, packed := t.raw.Load(), t.packed.Load()
	if packed == 0 {
		return BlockSize
	}
	for _, target := range []int64{PackedBlock, PackedBlock3} {
		if n := target * raw / packed; n <= BlockSize {
			return int(max(minBlock, n))
		}
	}
	return BlockSize
}

// Begin starts a transaction's texts: its first block follows the last
// stored, and its blocks are compressed against the database's text
// dictionary, made in tx from the texts stored when there is none yet
// (MakeDict). The dictionary is read again in every transaction: one
// made in a transaction rolled back is not used.
func (t *Texts) Begin(ctx context.Context, tx TxQueryer) error {
	t.block = t.block[:0]
	d, err := MakeDict(ctx, tx)
	if err != nil {
		return err
	}
	if d == nil {
		t.dict = nil
	} else if t.dict == nil || t.dict.ID != d.ID || !bytes.Equal(t.dict.Data, d.Data) {
		if t.denc, err = d.Encoder(); err != nil {
			return err
		}
		t.dict = d
	}
	return tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) + 1 FROM texts`).Scan(&t.id)
}

// Pos is where the next text Append takes goes: its block and offset.
func (t *Texts) Pos() (block int64, off int) { return t.id, len(t.block) }

// Append adds a game's text to the block, and hands the block to
// compression once it is full.
func (t *Texts) Append(text []byte) error {
	t.block = append(t.block, text...)
	if len(t.block) >= t.limit {
		return t.Flush()
	}
	return nil
}

// Flush hands the block being filled, if any, to a compressing goroutine.
func (t *Texts) Flush() error {
	if len(t.block) == 0 {
		return nil
	}
	enc := t.denc
	if t.dict == nil {
		var err error
		if enc, err = t.enc(); err != nil {
			return err
		}
	}
	raw := t.block
	done := make(chan []byte, 1)
	go pprof.Do(context.Background(), pprof.Labels("stage", "compress"), func(context.Context) {
		out := enc.EncodeAll(raw, make([]byte, 0, len(raw)/2))
		t.raw.Add(int64(len(raw)))
		t.packed.Add(int64(len(out)))
		done <- out
	})
	t.pending = append(t.pending, pendingBlock{t.id, done})
	t.id++
	t.limit = t.cutAt()
	t.block = make([]byte, 0, t.limit+4096)
	return nil
}

// Store waits for the compressed blocks and inserts them in tx.
func (t *Texts) Store(ctx context.Context, tx *sql.Tx) error {
	pending := t.pending
	t.pending = nil
	for i, b := range pending {
		data := <-b.data
		if _, err := tx.ExecContext(ctx, `INSERT INTO texts(id, data) VALUES(?, ?)`, b.id, data); err != nil {
			for _, b := range pending[i+1:] {
				<-b.data
			}
			return fmt.Errorf("store texts: %w", err)
		}
	}
	return nil
}

// Discard waits for the blocks being compressed and drops them (the
// transaction is rolled back).
func (t *Texts) Discard() {
	for _, b := range t.pending {
		<-b.data
	}
	t.pending = nil
}
