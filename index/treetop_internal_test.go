package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMergeTop: merging a stored top with the best new counts of the
// players whose count grew gives the top of the new counts, counted by
// brute force, whatever the counts, ties and order of updates.
func TestMergeTop(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 20000 {
		players := 1 + r.IntN(8)
		counts := make([]int64, players)
		var stored []byte // as the tree row holds it
		for range 1 + r.IntN(5) {
			// One commit: some players gain games.
			var cand []topEntry
			for p := range players {
				if r.IntN(3) == 0 {
					counts[p] += 1 + int64(r.IntN(3))
					cand = topInsert(cand, topEntry{int64(p), counts[p]})
				}
			}
			if len(cand) == 0 {
				continue
			}
			stored = sqlTop3(any(stored), any(encodeTop(nil, cand)))
			if stored == nil {
				t.Fatal("empty top")
			}
			var want []topEntry
			for p, n := range counts {
				if n > 0 {
					want = append(want, topEntry{int64(p), n})
				}
			}
			slices.SortFunc(want, topCmp)
			want = want[:min(len(want), topLen)]
			got, err := decodeTop(nil, stored)
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("trial %d: counts %v: top %v (%v), want %v", trial, counts, got, err, want)
			}
		}
	}
}

// TestTopBlob: a top reads back as written; a truncated blob is an error.
func TestTopBlob(t *testing.T) {
	top := []topEntry{{300, 70000}, {1, 5}, {1 << 40, 5}}
	b := encodeTop(nil, top)
	got, err := decodeTop(nil, b)
	if err != nil || !slices.Equal(got, top) {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := decodeTop(nil, b[:len(b)-1]); err == nil {
		t.Error("a truncated blob decodes")
	}
	if encodeTop(nil, nil) != nil {
		t.Error("an empty top is not NULL")
	}
}
