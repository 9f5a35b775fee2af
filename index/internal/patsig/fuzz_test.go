package patsig

import (
	"bytes"
	"testing"
)

// FuzzParse: a signature of any bytes parses without a panic, bounds
// nothing or reads within itself, and a version-1 signature that Convert
// writes as version 2 bounds the same.
func FuzzParse(f *testing.F) {
	totals := make([]byte, 12)
	f.Add(append(append([]byte{Version1, 64, 0}, totals...), 1, 5, 0x12, 0x80, 1, 3, 0x01))
	f.Add(append(append([]byte{Version, 64, 0}, totals...), 1, 0x21, 0x12, 0x80, 0x0f, 0x01, 1, 0x01, 0x11))
	f.Add([]byte{Version, 64})
	var all [256]bool
	for i := range all {
		all[i] = true
	}
	slots := make([]bool, 256)
	for i := range slots {
		slots[i] = true
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Sig
		s.Parse(b)
		if !s.OK {
			return
		}
		lo, hi := s.BoardCount(&all)
		hlo, hhi := s.HandCount(slots)
		stood := s.Stood(&all, 0xff)
		if b[0] != Version1 {
			return
		}
		c := Convert(b)
		if bytes.Equal(c, b) {
			return // not in code order: kept
		}
		var v Sig
		v.Parse(c)
		if !v.OK || v.Squares != s.Squares || v.Board != s.Board || v.Hand != s.Hand {
			t.Fatalf("% x converted to % x: %+v, want %+v", b, c, v, s)
		}
		if l, h := v.BoardCount(&all); l != lo || h != hi {
			t.Fatalf("% x converted to % x: board %d-%d, want %d-%d", b, c, l, h, lo, hi)
		}
		if l, h := v.HandCount(slots); l != hlo || h != hhi {
			t.Fatalf("% x converted to % x: hand %d-%d, want %d-%d", b, c, l, h, hlo, hhi)
		}
		if v.Stood(&all, 0xff) != stood {
			t.Fatalf("% x converted to % x: stood differs", b, c)
		}
	})
}
