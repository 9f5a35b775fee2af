package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"
)

var testEnc = sync.OnceValues(func() (*zstd.Encoder, error) { return zstd.NewWriter(nil) })

// TestTexts: each text is found at the block and offset Pos gave before
// its Append, in the blocks Store inserted (numbered after those already
// stored); a block is full at BlockSize; Discard leaves nothing to store.
func TestTexts(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE texts(id INTEGER PRIMARY KEY, data BLOB); INSERT INTO texts VALUES(7, x'00'); ` + DictTable); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	tx1 := NewTexts(testEnc)
	if err := tx1.Begin(ctx, tx); err != nil {
		t.Fatal(err)
	}
	type at struct {
		block int64
		off   int
		text  []byte
	}
	var ats []at
	for i := range 1000 {
		text := []byte(fmt.Sprintf("game %d: %s\n", i, bytes.Repeat([]byte("x"), i%97)))
		b, off := tx1.Pos()
		ats = append(ats, at{b, off, text})
		if err := tx1.Append(text); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx1.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := tx1.Store(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[int64][]byte{}
	for _, a := range ats {
		if a.block < 8 {
			t.Fatalf("text at block %d, not after the stored block 7", a.block)
		}
		if a.off >= BlockSize {
			t.Fatalf("text at offset %d of block %d, past BlockSize", a.off, a.block)
		}
		raw, ok := blocks[a.block]
		if !ok {
			var data []byte
			if err := db.QueryRow(`SELECT data FROM texts WHERE id = ?`, a.block).Scan(&data); err != nil {
				t.Fatalf("block %d: %v", a.block, err)
			}
			if raw, err = dec.DecodeAll(data, nil); err != nil {
				t.Fatal(err)
			}
			blocks[a.block] = raw
		}
		if end := a.off + len(a.text); end > len(raw) || !bytes.Equal(raw[a.off:end], a.text) {
			t.Fatalf("block %d offset %d: not the text appended", a.block, a.off)
		}
	}
	if len(blocks) < 2 {
		t.Fatalf("%d blocks, want several", len(blocks))
	}

	tx2 := NewTexts(testEnc)
	if err := tx2.Begin(ctx, db); err != nil {
		t.Fatal(err)
	}
	if b, off := tx2.Pos(); b != ats[len(ats)-1].block+1 || off != 0 {
		t.Fatalf("next transaction starts at block %d offset %d", b, off)
	}
	tx2.Append(bytes.Repeat([]byte("y"), BlockSize))
	tx2.Discard()
	if len(tx2.pending) != 0 {
		t.Fatal("Discard left blocks to store")
	}
}

// TestTextsCutAt: a block is cut where its text compresses to
// PackedBlock at the ratio seen so far, within minBlock and BlockSize.
func TestTextsCutAt(t *testing.T) {
	for _, c := range []struct {
		name        string
		raw, packed int64
		want        int
	}{
		{"nothing compressed yet", 0, 0, BlockSize},
		{"ratio 1", 10000, 10000, PackedBlock},
		{"ratio 2", 20000, 10000, 2 * PackedBlock},
		{"ratio 2.5: three blocks a page", 25000, 10000, PackedBlock3 * 5 / 2},
		{"ratio 3: three blocks a page", 30000, 10000, 3 * PackedBlock3},
		{"ratio 10", 100000, 10000, BlockSize},
		{"expanding", 5000, 10000, minBlock},
	} {
		tx := NewTexts(testEnc)
		tx.raw.Store(c.raw)
		tx.packed.Store(c.packed)
		if got := tx.cutAt(); got != c.want {
			t.Errorf("%s: cut at %d, want %d", c.name, got, c.want)
		}
	}
}

// TestTextsPacked: texts that do not compress are cut in blocks of about
// PackedBlock once a block has been compressed, not BlockSize.
func TestTextsPacked(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE texts(id INTEGER PRIMARY KEY, data BLOB); ` + DictTable); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	txt := NewTexts(testEnc)
	if err := txt.Begin(ctx, tx); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	const textLen = 500
	for range 400 {
		text := make([]byte, textLen)
		for i := range text {
			text[i] = byte(rnd.Uint32())
		}
		if err := txt.Append(text); err != nil {
			t.Fatal(err)
		}
		if len(txt.pending) == 1 {
			// The first block compressed: a ratio known.
			data := <-txt.pending[0].data
			txt.pending[0].data <- data
			txt.limit = txt.cutAt()
		}
	}
	if err := txt.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := txt.Store(ctx, tx); err != nil {
		t.Fatal(err)
	}
	rows, err := tx.Query(`SELECT id, length(data) FROM texts ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id, size int
		if err := rows.Scan(&id, &size); err != nil {
			t.Fatal(err)
		}
		n++
		if id > 1 && size > PackedBlock+textLen+64 {
			t.Errorf("block %d: %d bytes compressed, want at most about %d", id, size, PackedBlock+textLen)
		}
	}
	if n < 20 {
		t.Errorf("%d blocks of 200,000 bytes that do not compress, want about 200,000/%d", n, PackedBlock)
	}
}
