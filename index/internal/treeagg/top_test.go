package treeagg

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMergeTop: merging a stored top with the new counts of the players
// whose count grew gives the top of the new counts, counted by
// brute force, whatever the counts, ties and order of updates.
func TestMergeTop(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 20000 {
		players := 1 + r.IntN(8)
		counts := make([]int64, players)
		var stored []byte // as the tree row holds it
		for range 1 + r.IntN(5) {
			// One commit: some players gain games.
			var grown []Count
			for p := range players {
				if r.IntN(3) == 0 {
					counts[p] += 1 + int64(r.IntN(3))
					grown = append(grown, Count{int64(p), counts[p]})
				}
			}
			if len(grown) == 0 {
				continue
			}
			r.Shuffle(len(grown), func(i, j int) { grown[i], grown[j] = grown[j], grown[i] })
			old, err := DecodeTop(nil, stored)
			if err != nil {
				t.Fatal(err)
			}
			stored = encodeTop(nil, mergeTop(nil, old, grown))
			if stored == nil {
				t.Fatal("empty top")
			}
			var want []Count
			for p, n := range counts {
				if n > 0 {
					want = append(want, Count{int64(p), n})
				}
			}
			slices.SortFunc(want, TopCmp)
			want = want[:min(len(want), TopLen)]
			got, err := DecodeTop(nil, stored)
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("trial %d: counts %v: top %v (%v), want %v", trial, counts, got, err, want)
			}
		}
	}
}

// TestTopBlob: a top reads back as written; a truncated blob is an error.
func TestTopBlob(t *testing.T) {
	top := []Count{{300, 70000}, {1, 5}, {1 << 40, 5}}
	b := encodeTop(nil, top)
	got, err := DecodeTop(nil, b)
	if err != nil || !slices.Equal(got, top) {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := DecodeTop(nil, b[:len(b)-1]); err == nil {
		t.Error("a truncated blob decodes")
	}
	if encodeTop(nil, nil) != nil {
		t.Error("an empty top is not NULL")
	}
}

// TestChunk: a chunk reads back as written (ids at both ends of the chunk,
// large counts); a truncated blob or a player beyond the chunk is an error.
func TestChunk(t *testing.T) {
	c := int64(7)
	es := []Count{{c << chunkBits, 1}, {c<<chunkBits + 1, 300}, {c<<chunkBits + 200, 1 << 40}, {(c+1)<<chunkBits - 1, 2}}
	b := encodeChunk(nil, c, es)
	got, err := decodeChunk(nil, c, b)
	if err != nil || !slices.Equal(got, es) {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := decodeChunk(nil, c, b[:len(b)-1]); err == nil {
		t.Error("a truncated chunk decodes")
	}
	over := encodeChunk(nil, c, append(es, Count{(c + 1) << chunkBits, 1}))
	if _, err := decodeChunk(nil, c, over); err == nil {
		t.Error("a chunk with a player of the next chunk decodes")
	}
}

// TestAddCounts: adding a commit's counts to stored ones (both in player
// order) sums the common players, keeps the others in order, and reports
// the new counts of the added players and how many were new.
func TestAddCounts(t *testing.T) {
	stored := []Count{{1, 5}, {4, 2}, {9, 1}}
	add := []Count{{0, 1}, {4, 3}, {10, 2}}
	var grown []Count
	got, fresh := addCounts(nil, stored, add, &grown)
	want := []Count{{0, 1}, {1, 5}, {4, 5}, {9, 1}, {10, 2}}
	if !slices.Equal(got, want) || fresh != 2 || !slices.Equal(grown, []Count{{0, 1}, {4, 5}, {10, 2}}) {
		t.Errorf("got %v fresh %d grown %v", got, fresh, grown)
	}
}
