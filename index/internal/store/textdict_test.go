package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// recordText is the canonical text of a record like a generated one.
func recordText(i int) []byte {
	return fmt.Appendf(nil, "[Game \"ogi\"]\n[Event \"Open %d\"]\n[Site \"Ōsaka\"]\n[Date \"2026.%02d.%02d\"]\n[Round \"%d\"]\n[Sente \"Player %d\"]\n[Gote \"Player %d\"]\n[Result \"1-0\"]\n\n1. P-e4 P-d5 2. Bb2xg7+ Sf8xg7 %d. S*d4 K-e7 1-0\n\n",
		i%97, 1+i%12, 1+i%28, i%9, i%311, (i*7)%311, 3+i%40)
}

// openTextsDB is a database of texts and text_dicts.
func openTextsDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE texts(id INTEGER PRIMARY KEY, data BLOB NOT NULL);
		CREATE TABLE games(id INTEGER PRIMARY KEY, tblock INTEGER NOT NULL, toff INTEGER NOT NULL, tlen INTEGER NOT NULL);
		CREATE TABLE revisions(game INTEGER NOT NULL, rev INTEGER NOT NULL, tblock INTEGER, toff INTEGER, tlen INTEGER, PRIMARY KEY(game, rev)) WITHOUT ROWID; ` + DictTable); err != nil {
		t.Fatal(err)
	}
	return db
}

// storeTexts stores texts in one transaction of Texts and returns where
// each is (block, offset).
func storeTexts(t *testing.T, db *sql.DB, txt *Texts, texts [][]byte) [][2]int64 {
	t.Helper()
	ctx := context.Background()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if err := txt.Begin(ctx, tx); err != nil {
		t.Fatal(err)
	}
	var at [][2]int64
	for _, text := range texts {
		b, off := txt.Pos()
		at = append(at, [2]int64{b, int64(off)})
		if err := txt.Append(text); err != nil {
			t.Fatal(err)
		}
	}
	if err := txt.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := txt.Store(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return at
}

// addRefs stores a game (id i+1) for each text at at[i], and a revision
// of every tenth game naming the same text.
func addRefs(t *testing.T, db *sql.DB, texts [][]byte, at [][2]int64) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for i, text := range texts {
		if _, err := tx.Exec(`INSERT INTO games VALUES(?, ?, ?, ?)`, i+1, at[i][0], at[i][1], len(text)); err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 {
			if _, err := tx.Exec(`INSERT INTO revisions VALUES(?, 2, ?, ?, ?)`, i+1, at[i][0], at[i][1], len(text)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// checkTexts reads every game's text (game i+1: texts[i]) and every
// revision's back from their blocks.
func checkTexts(t *testing.T, db *sql.DB, texts [][]byte) {
	t.Helper()
	ctx := context.Background()
	rows, err := db.Query(`SELECT id, tblock, toff, tlen FROM games UNION ALL SELECT game, tblock, toff, tlen FROM revisions`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	blocks := map[int64][]byte{}
	n := 0
	for rows.Next() {
		var id, block, off, size int64
		if err := rows.Scan(&id, &block, &off, &size); err != nil {
			t.Fatal(err)
		}
		raw, ok := blocks[block]
		if !ok {
			var stored []byte
			if err := db.QueryRow(`SELECT data FROM texts WHERE id = ?`, block).Scan(&stored); err != nil {
				t.Fatal(err)
			}
			if raw, err = DecodeBlock(ctx, db, stored); err != nil {
				t.Fatalf("block %d: %v", block, err)
			}
			blocks[block] = raw
		}
		text := texts[id-1]
		if off+size > int64(len(raw)) || !bytes.Equal(raw[off:off+size], text) {
			t.Fatalf("game %d's text not at block %d offset %d", id, block, off)
		}
		n++
	}
	if n != len(texts)+(len(texts)+9)/10 {
		t.Errorf("%d texts read", n)
	}
}

// dictBlocks counts the stored blocks with and without a dictionary, and
// their bytes.
func dictBlocks(t *testing.T, db *sql.DB) (with, without, size int64) {
	t.Helper()
	rows, err := db.Query(`SELECT data FROM texts`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			t.Fatal(err)
		}
		if BlockDict(b) != 0 {
			with++
		} else {
			without++
		}
		size += int64(len(b))
	}
	return with, without, size
}

// TestTextDict: a database's first transaction of texts has no
// dictionary; the next makes one from the first DictSize bytes and
// compresses against it; every text reads back; Recompress compresses the
// first blocks against it too, in fewer bytes, and the texts read the same.
func TestTextDict(t *testing.T) {
	ctx := context.Background()
	db := openTextsDB(t)
	var texts [][]byte
	for i := range 3000 {
		texts = append(texts, recordText(i))
	}
	txt := NewTexts(testEnc)
	at := storeTexts(t, db, txt, texts[:1500])
	if with, without, _ := dictBlocks(t, db); with != 0 || without < DictSize/minBlock {
		t.Fatalf("first transaction: %d blocks with a dictionary, %d without", with, without)
	}
	at = append(at, storeTexts(t, db, txt, texts[1500:])...)
	d, err := LoadDict(ctx, db)
	if err != nil || d == nil || len(d.Data) != DictSize || d.ID < 1<<15 {
		t.Fatalf("dictionary %v, %v", d, err)
	}
	if want := bytes.Join(texts, nil)[:DictSize]; !bytes.Equal(d.Data, want) {
		t.Error("the dictionary is not the first texts")
	}
	with, without, before := dictBlocks(t, db)
	if with == 0 || without == 0 {
		t.Fatalf("second transaction: %d blocks with the dictionary, %d without", with, without)
	}
	addRefs(t, db, texts, at)
	checkTexts(t, db, texts)

	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	n, err := Recompress(ctx, tx, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	with2, without2, after := dictBlocks(t, db)
	if n != with2 || without2 != 0 || after >= before {
		t.Errorf("recompressed in %d blocks: %d with the dictionary, %d without, %d bytes (before %d)", n, with2, without2, after, before)
	}
	checkTexts(t, db, texts)
	t.Logf("%d texts: %d bytes with the first blocks alone, %d all against the dictionary", len(texts), before, after)
}

// TestTextDictSameID: two databases whose dictionaries have one id (a
// hash collision) each read their own blocks, whichever was read first.
func TestTextDictSameID(t *testing.T) {
	ctx := context.Background()
	const id = 1<<15 + 12345
	var blocks [2][]byte
	var dbs [2]*sql.DB
	var want [2][]byte
	for i := range 2 {
		dbs[i] = openTextsDB(t)
		// Random content: a block of it compresses only by referring to
		// the dictionary, and decodes wrong against the other one.
		rnd := rand.New(rand.NewPCG(uint64(i), 9))
		d := &TextDict{ID: id, Data: make([]byte, DictSize)}
		for j := range d.Data {
			d.Data[j] = byte(rnd.Uint32())
		}
		want[i] = d.Data[1000:9000]
		if _, err := dbs[i].Exec(`INSERT INTO text_dicts(id, data) VALUES(?, ?)`, d.ID, d.Data); err != nil {
			t.Fatal(err)
		}
		enc, err := d.Encoder()
		if err != nil {
			t.Fatal(err)
		}
		blocks[i] = enc.EncodeAll(want[i], nil)
		if len(blocks[i]) > len(want[i])/10 {
			t.Fatalf("a block of %d bytes: the dictionary is not used", len(blocks[i]))
		}
		enc.Close()
		if BlockDict(blocks[i]) != id {
			t.Fatalf("block names dictionary %d", BlockDict(blocks[i]))
		}
	}
	for _, i := range []int{0, 1, 0} {
		raw, err := DecodeBlock(ctx, dbs[i], blocks[i])
		if err != nil || !bytes.Equal(raw, want[i]) {
			t.Errorf("database %d: %d bytes, %v", i, len(raw), err)
		}
	}
}
