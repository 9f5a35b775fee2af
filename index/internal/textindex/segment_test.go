package textindex

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/blevesearch/bleve/v2/document"
	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v16"
)

// TestSegmentAsZap: the segment segmentPlugin writes of docBuilder's
// documents is, persisted, the file zap's New makes of them, byte for
// byte, once each field's section entries are put in one order (zap
// writes them in a Go map's order); and its checksum holds. Batches of
// one document, a few, and more than 1024 holding one term (postings in
// several chunks), with empty fields, repeated words and every script of
// textTestDocs.
func TestSegmentAsZap(t *testing.T) {
	docs := textTestDocs(t, 2500)
	_, bd := testDocBuilder(t)
	// The documents as the index gives them to a plugin: _id added, analyzed.
	batch := func(ds []Doc) []bindex.Document {
		var out []bindex.Document
		for i := range ds {
			d := bd.build(&ds[i])
			d.AddIDField()
			d.VisitFields(func(f bindex.Field) { f.Analyze() })
			out = append(out, d)
		}
		return out
	}
	n := len(docs)
	dir := t.TempDir()
	for _, c := range []struct{ from, to int }{{0, 1}, {n - 1, n}, {0, 7}, {n - 6, n}, {0, n}, {100, 1300}} {
		results := batch(docs[c.from:c.to])
		if !writable(results) {
			t.Fatalf("documents %d to %d: not writable", c.from, c.to)
		}
		ours := persistSegment(t, &segmentPlugin{}, results, filepath.Join(dir, "ours"))
		theirs := persistSegment(t, &zap.ZapPlugin{}, results, filepath.Join(dir, "zap"))
		if sum := crc32.ChecksumIEEE(ours[:len(ours)-4]); sum != binary.BigEndian.Uint32(ours[len(ours)-4:]) {
			t.Errorf("documents %d to %d: checksum %08x, the file says %08x", c.from, c.to, sum, ours[len(ours)-4:])
		}
		a, b := sortSections(t, ours), sortSections(t, theirs)
		if !bytes.Equal(a[:len(a)-4], b[:len(b)-4]) {
			i := 0
			for i < min(len(a), len(b)) && a[i] == b[i] {
				i++
			}
			t.Errorf("documents %d to %d: %d bytes written, zap %d; first difference at byte %d", c.from, c.to,
				len(a), len(b), i)
		}
	}
}

// persistSegment writes the segment p makes of results to path and
// returns the file's bytes.
func persistSegment(t *testing.T, p interface {
	New([]bindex.Document) (segment.Segment, uint64, error)
}, results []bindex.Document, path string) []byte {
	t.Helper()
	s, _, err := p.New(results)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	if err := zap.PersistSegmentBase(s.(*zap.SegmentBase), path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sortSections returns a copy of a segment file with each field's section
// entries (a 2-byte id and an 8-byte address each) in the order of their
// ids.
func sortSections(t *testing.T, file []byte) []byte {
	t.Helper()
	b := slices.Clone(file)
	const footer = 52 // zap v16: 5 offsets of 8 bytes, chunk mode, version, checksum
	at := binary.BigEndian.Uint64(b[len(b)-footer+24:])
	fields, n := binary.Uvarint(b[at:])
	at += uint64(n)
	for f := uint64(0); f < fields; f++ {
		p := binary.BigEndian.Uint64(b[at+8*f:])
		l, n := binary.Uvarint(b[p:])
		p += uint64(n) + l
		k, n := binary.Uvarint(b[p:])
		p += uint64(n)
		entries := make([][]byte, k)
		for i := range entries {
			entries[i] = slices.Clone(b[p+10*uint64(i) : p+10*uint64(i+1)])
		}
		slices.SortFunc(entries, func(x, y []byte) int { return bytes.Compare(x[:2], y[:2]) })
		copy(b[p:], bytes.Join(entries, nil))
	}
	return b
}

// TestSegmentWritable: segmentPlugin writes only docBuilder's documents;
// any other goes to zap's New.
func TestSegmentWritable(t *testing.T) {
	m, bd := testDocBuilder(t)
	built := func() *document.Document {
		d := bd.build(&Doc{ID: 1, Game: "ogi", Players: "a ; b"})
		d.AddIDField()
		return d
	}
	if !writable([]bindex.Document{built()}) {
		t.Fatal("docBuilder's document: not writable")
	}
	mapped := document.NewDocument("2")
	if err := m.MapDocument(mapped, mappedDoc(Doc{ID: 2, Game: "ogi", Players: "a ; b"})); err != nil {
		t.Fatal(err)
	}
	mapped.AddIDField()
	noID := bd.build(&Doc{ID: 3, Game: "ogi"})
	stored := built()
	stored.AddField(document.NewTextFieldWithIndexingOptions("note", nil, []byte("x"), bindex.IndexField|bindex.StoreField))
	vectors := built()
	vectors.Fields[0] = document.NewTextFieldWithIndexingOptions("players", nil, []byte("a"), bindex.IndexField|bindex.IncludeTermVectors)
	composite := built()
	composite.AddField(document.NewCompositeField("_all", true, nil, nil))
	for i, d := range []*document.Document{mapped, noID, stored, vectors, composite} {
		if writable([]bindex.Document{built(), d}) {
			t.Errorf("case %d (%s): writable", i, strconv.Quote(d.ID()))
		}
	}
	if writable(nil) {
		t.Error("no document: writable")
	}
}
