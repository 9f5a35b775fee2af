package ogi

import (
	"slices"
	"testing"
)

// TestCopyIntoClone: a clone shares its source's history array; a copy
// made into the clone's memory, and the moves played on it, must leave the
// source's history alone.
func TestCopyIntoClone(t *testing.T) {
	p, err := Parse("")
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		legal := p.Legal(nil)
		p.Play(legal[len(legal)/2])
	}
	p.since = 0 // make every entry count, whatever the moves were
	want := slices.Clone(p.hist)
	q, _ := Parse("")
	c := p.Clone().(*Position)
	d := q.CopyInto(c, 0).(*Position)
	for range 6 {
		legal := d.Legal(nil)
		d.Play(legal[0])
	}
	if !slices.Equal(p.hist, want) {
		t.Fatalf("the source's history changed: %v, want %v", p.hist, want)
	}
	// A position that CopyInto made is reused, and stays independent.
	e := p.CopyInto(d, 4).(*Position)
	if e != d || len(e.hist) != len(p.hist) || &e.hist[0] == &p.hist[0] {
		t.Fatalf("CopyInto did not reuse its own copy, or shares the source's history")
	}
	e.Play(e.Legal(nil)[0])
	if !slices.Equal(p.hist, want) {
		t.Fatalf("the source's history changed: %v, want %v", p.hist, want)
	}
}
