package textindex

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	"github.com/blevesearch/vellum"
	zap "github.com/blevesearch/zapx/v16"
)

// segmentPlugin is Bleve's zap v16 segment plugin with its own New for
// batches of docBuilder's documents (segmentWriter), and zap's New for any
// other batch; segments are opened and merged by zap. It takes zap v16's
// place in Bleve's registry (init), so that every index of the process,
// old or new, writes and reads the same format as before: a segment made
// here holds the bytes zap's New makes of the same documents, but for the
// order of each field's two section entries, which zap takes from a Go
// map's iteration (TestSegmentAsZap).
//
// Why: zap's New costs per field of each document a dozen map look-ups
// and iterations (field names, token frequencies, its sections) and an
// interface call per step; the documents docBuilder makes hold their
// terms as slices, with field names known, so that a segment of them is
// written from flat arrays.
type segmentPlugin struct {
	zap.ZapPlugin
}

func init() {
	scorch.RegisterSegmentPlugin(&segmentPlugin{}, true)
}

// New makes a segment of results: segmentWriter's when every document is
// one docBuilder made, zap's otherwise.
func (p *segmentPlugin) New(results []bindex.Document) (segment.Segment, uint64, error) {
	if !writable(results) {
		return p.ZapPlugin.New(results)
	}
	w := writers.Get().(*segmentWriter)
	defer writers.Put(w)
	return w.write(results)
}

var writers = sync.Pool{New: func() any { return &segmentWriter{} }}

// zapChunkMode is the chunk mode of the postings segmentWriter writes:
// zap's default, whose chunk sizes chunkSize computes.
const zapChunkMode = 1026

// writable reports that segmentWriter can write results: zap's chunk mode
// is the one it knows, and each document is docBuilder's (textFields,
// none stored, no term vectors, no doc values) with the _id field the
// index added (stored, indexed whole), no composite field.
func writable(results []bindex.Document) bool {
	if zap.DefaultChunkMode != zapChunkMode || len(results) == 0 || len(results) > math.MaxInt32 {
		return false
	}
	for _, r := range results {
		d, ok := r.(*document.Document)
		if !ok || len(d.CompositeFields) > 0 || len(d.Fields) == 0 {
			return false
		}
		for i, f := range d.Fields {
			if _, ok := f.(*textField); ok {
				continue
			}
			id, ok := f.(*document.TextField)
			if !ok || i != len(d.Fields)-1 || id.Name() != "_id" || id.Options() != bindex.IndexField|bindex.StoreField ||
				len(id.ArrayPositions()) > 0 {
				return false
			}
		}
		if _, ok := d.Fields[len(d.Fields)-1].(*document.TextField); !ok {
			return false
		}
	}
	return true
}

// segmentWriter writes a zap v16 segment in memory; it is reused from one
// segment to the next.
type segmentWriter struct {
	out    []byte
	fields []segmentField
	byName map[string]int // field name → index in fields
	order  []int          // field ids → index in fields
	ids    []uint64       // each document's stored offset
	rb     *roaring.Bitmap
	rbBuf  bytes.Buffer
	fst    *vellum.Builder
	fstBuf bytes.Buffer
	data   []byte   // a term's frequencies and norms
	ends   []uint64 // a term's chunks' end offsets
	sorted []int32
	occ    []occurrence
}

// segmentField gathers the postings of one field: its terms in the order
// met, and its occurrences (a term in a document) in document order.
type segmentField struct {
	name  string
	pids  map[string]int32 // term → postings id
	terms []string         // by postings id
	count []int32          // occurrences by postings id
	last  []int32          // the last occurrence of each postings id, in occ
	occ   []occurrence
}

// occurrence is one term of one document's field: the term's frequency in
// the field and the field's length (zap's norm).
type occurrence struct {
	pid       int32
	doc       uint32
	freq, len uint32
}

func (w *segmentWriter) reset() {
	w.out = w.out[:0]
	for i := range w.fields {
		f := &w.fields[i]
		clear(f.pids)
		f.terms, f.count, f.last, f.occ = f.terms[:0], f.count[:0], f.last[:0], f.occ[:0]
	}
	w.fields = w.fields[:0]
	if w.byName == nil {
		w.byName = map[string]int{}
	}
	clear(w.byName)
}

func (w *segmentWriter) field(name string) *segmentField {
	i, ok := w.byName[name]
	if !ok {
		i = len(w.fields)
		if i < cap(w.fields) {
			w.fields = w.fields[:i+1]
		} else {
			w.fields = append(w.fields, segmentField{})
		}
		f := &w.fields[i]
		f.name = name
		if f.pids == nil {
			f.pids = map[string]int32{}
		}
		w.byName[name] = i
	}
	return &w.fields[i]
}

// add records the terms of one document's field of n tokens; a term
// already recorded for the document (a field given in two parts) adds its
// frequency to it.
func (f *segmentField) add(doc uint32, terms []termFreq, n int) {
	for _, t := range terms {
		pid, ok := f.pids[t.term]
		if !ok {
			pid = int32(len(f.terms))
			f.pids[t.term] = pid
			f.terms = append(f.terms, t.term)
			f.count = append(f.count, 0)
			f.last = append(f.last, -1)
		} else if l := f.last[pid]; f.occ[l].doc == doc {
			f.occ[l].freq += t.freq
			continue
		}
		f.count[pid]++
		f.last[pid] = int32(len(f.occ))
		f.occ = append(f.occ, occurrence{pid: pid, doc: doc, freq: t.freq, len: uint32(n)})
	}
}

// write writes the segment of results (writable) and returns it.
func (w *segmentWriter) write(results []bindex.Document) (*zap.SegmentBase, uint64, error) {
	w.reset()
	w.field("_id")
	var idTerm [1]termFreq
	for i, r := range results {
		d := r.(*document.Document)
		for _, f := range d.Fields {
			switch f := f.(type) {
			case *textField:
				sf, n := w.field(f.name), f.AnalyzedLength()
				sf.add(uint32(i), f.a.terms, n)
				if f.b != nil {
					sf.add(uint32(i), f.b.terms, n)
				}
			case *document.TextField: // _id
				idTerm[0] = termFreq{term: string(f.Value()), freq: 1}
				w.fields[0].add(uint32(i), idTerm[:], 1)
			}
		}
	}
	// Field ids: _id first, then the names in order.
	w.order = w.order[:0]
	for i := range w.fields {
		w.order = append(w.order, i)
	}
	sort.Slice(w.order[1:], func(a, b int) bool {
		return w.fields[w.order[1+a]].name < w.fields[w.order[1+b]].name
	})
	storedIndex := w.writeStored(results)
	addrs := make([]uint64, len(w.order))
	for id, i := range w.order {
		a, err := w.writeField(&w.fields[i], len(results))
		if err != nil {
			return nil, 0, err
		}
		addrs[id] = a
	}
	sections := w.writeFieldsSection(addrs)
	mem := slices.Clone(w.out)
	sb, err := zap.InitSegmentBase(mem, crc32.ChecksumIEEE(mem), zapChunkMode, uint64(len(results)),
		storedIndex, sections)
	return sb, uint64(len(mem)), err
}

// writeStored writes each document's stored fields (its _id alone), as
// zap does, and the index of their offsets, whose offset it returns.
func (w *segmentWriter) writeStored(results []bindex.Document) uint64 {
	w.ids = w.ids[:0]
	for _, r := range results {
		d := r.(*document.Document)
		id := d.Fields[len(d.Fields)-1].Value()
		w.ids = append(w.ids, uint64(len(w.out)))
		meta := uvarintLen(uint64(len(id)))
		// meta: the _id's length; data: the other stored fields (none),
		// snappy-compressed: one zero byte.
		w.out = binary.AppendUvarint(w.out, uint64(meta))
		w.out = binary.AppendUvarint(w.out, uint64(len(id)+1))
		w.out = binary.AppendUvarint(w.out, uint64(len(id)))
		w.out = append(w.out, id...)
		w.out = append(w.out, 0)
	}
	at := uint64(len(w.out))
	for _, o := range w.ids {
		w.out = binary.BigEndian.AppendUint64(w.out, o)
	}
	return at
}

// writeField writes the postings of a field's terms in term order, its
// dictionary and its section entry, whose offset it returns.
func (w *segmentWriter) writeField(f *segmentField, docs int) (uint64, error) {
	// Occurrences grouped by postings id, each group in document order.
	start := make([]int32, len(f.terms)+1)
	for pid, c := range f.count {
		start[pid+1] = start[pid] + c
	}
	w.occ = slices.Grow(w.occ[:0], len(f.occ))[:len(f.occ)]
	next := slices.Clone(start[:len(f.terms)])
	for _, o := range f.occ {
		w.occ[next[o.pid]] = o
		next[o.pid]++
	}
	w.sorted = w.sorted[:0]
	for pid := range f.terms {
		w.sorted = append(w.sorted, int32(pid))
	}
	slices.SortFunc(w.sorted, func(a, b int32) int {
		if f.terms[a] < f.terms[b] {
			return -1
		}
		return 1
	})
	if err := w.resetFST(); err != nil {
		return 0, err
	}
	for _, pid := range w.sorted {
		at, err := w.writePostings(w.occ[start[pid]:start[pid+1]], docs)
		if err != nil {
			return 0, err
		}
		if err := w.fst.Insert([]byte(f.terms[pid]), at); err != nil {
			return 0, err
		}
	}
	if err := w.fst.Close(); err != nil {
		return 0, err
	}
	dict := uint64(len(w.out))
	w.out = binary.AppendUvarint(w.out, uint64(w.fstBuf.Len()))
	w.out = append(w.out, w.fstBuf.Bytes()...)
	addr := uint64(len(w.out))
	// No doc values: both their offsets are zap's "not uninverted".
	w.out = binary.AppendUvarint(w.out, math.MaxUint64)
	w.out = binary.AppendUvarint(w.out, math.MaxUint64)
	w.out = binary.AppendUvarint(w.out, dict)
	return addr, nil
}

func (w *segmentWriter) resetFST() error {
	w.fstBuf.Reset()
	if w.fst == nil {
		b, err := vellum.New(&w.fstBuf, nil)
		w.fst = b
		return err
	}
	return w.fst.Reset(&w.fstBuf)
}

// writePostings writes the postings of one term, its occurrences in
// document order, as zap's New does: the frequencies and norms in chunks,
// no locations, the bitmap of its documents; it returns their offset.
func (w *segmentWriter) writePostings(occ []occurrence, docs int) (uint64, error) {
	size := chunkSize(uint64(len(occ)), uint64(docs))
	chunks := (uint64(docs)-1)/size + 1
	w.data, w.ends = w.data[:0], w.ends[:0]
	i := 0
	for c := uint64(0); c < chunks; c++ {
		for ; i < len(occ) && uint64(occ[i].doc)/size == c; i++ {
			o := occ[i]
			if o.freq > 0 {
				w.data = binary.AppendUvarint(w.data, uint64(o.freq)<<1)
				w.data = binary.AppendUvarint(w.data, uint64(o.len))
			} else {
				w.data = binary.AppendUvarint(w.data, 0)
			}
		}
		w.ends = append(w.ends, uint64(len(w.data)))
	}
	tf := uint64(len(w.out))
	w.out = binary.AppendUvarint(w.out, chunks)
	for _, e := range w.ends {
		w.out = binary.AppendUvarint(w.out, e)
	}
	w.out = append(w.out, w.data...)
	at := uint64(len(w.out))
	w.out = binary.AppendUvarint(w.out, tf)
	w.out = binary.AppendUvarint(w.out, 0) // no locations
	if w.rb == nil {
		w.rb = roaring.New()
	}
	w.rb.Clear()
	for _, o := range occ {
		w.rb.Add(o.doc)
	}
	w.rbBuf.Reset()
	if _, err := w.rb.WriteTo(&w.rbBuf); err != nil {
		return 0, err
	}
	w.out = binary.AppendUvarint(w.out, uint64(w.rbBuf.Len()))
	w.out = append(w.out, w.rbBuf.Bytes()...)
	return at, nil
}

// chunkSize is zap's chunk size for a term of card documents in a segment
// of docs (chunk mode 1026): the fewest chunks of at most 1024 of its
// documents, spread over the segment.
func chunkSize(card, docs uint64) uint64 {
	return max(docs/(card/1024+1), 1)
}

// zap's section ids: the inverted index (the terms) and the synonyms
// (none here).
const (
	sectionInverted = 0
	sectionSynonyms = 2
)

// writeFieldsSection writes each field's name and sections' addresses,
// then their index, whose offset it returns.
func (w *segmentWriter) writeFieldsSection(addrs []uint64) uint64 {
	offsets := make([]uint64, len(w.order))
	for id, i := range w.order {
		offsets[id] = uint64(len(w.out))
		name := w.fields[i].name
		w.out = binary.AppendUvarint(w.out, uint64(len(name)))
		w.out = append(w.out, name...)
		w.out = binary.AppendUvarint(w.out, 2)
		w.out = binary.BigEndian.AppendUint16(w.out, sectionInverted)
		w.out = binary.BigEndian.AppendUint64(w.out, addrs[id])
		w.out = binary.BigEndian.AppendUint16(w.out, sectionSynonyms)
		w.out = binary.BigEndian.AppendUint64(w.out, 0)
	}
	at := uint64(len(w.out))
	w.out = binary.AppendUvarint(w.out, uint64(len(offsets)))
	for _, o := range offsets {
		w.out = binary.BigEndian.AppendUint64(w.out, o)
	}
	return at
}

func uvarintLen(x uint64) int {
	n := 1
	for ; x >= 0x80; x >>= 7 {
		n++
	}
	return n
}
