package patsig

import (
	"bytes"
	"testing"
)

// TestConvert: a version-1 signature and its version-2 form parse to the
// same bounds; what Convert cannot
// read or did not write stays as it is.
func TestConvert(t *testing.T) {
	totals := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	v1 := func(codes, slots []byte) []byte {
		b := append([]byte{Version1, 64, 0}, totals...)
		b = append(append(b, byte(len(codes)/3)), codes...)
		return append(append(b, byte(len(slots)/2)), slots...)
	}
	for _, c := range []struct {
		name         string
		codes, slots []byte
	}{
		{"nothing", nil, nil},
		{"codes", []byte{1, 0x12, 0x80, 9, 0x0f, 0x01, 63, 0x11, 0xff}, nil},
		{"slots", nil, []byte{0, 0x01, 7, 0x23, 13, 0xff}},
		{"both", []byte{2, 0x12, 0x80, 200, 0x0f, 0x01, 255, 0x01, 0x02}, []byte{255, 0x01}},
	} {
		old := v1(c.codes, c.slots)
		got := Convert(old)
		if got[0] != Version {
			t.Errorf("%s: % x converted to % x", c.name, old, got)
		}
		var a, b Sig
		a.Parse(old)
		b.Parse(got)
		a.written()
		b.written()
		if !a.OK || !b.OK || a.Squares != b.Squares || a.Board != b.Board || a.Hand != b.Hand ||
			!bytes.Equal(a.codes, b.codes) || !bytes.Equal(a.slots, b.slots) {
			t.Errorf("%s: % x parses to %+v, its version 2 % x to %+v", c.name, old, a, got, b)
		}
	}
	for _, b := range [][]byte{nil, {Version, 1, 2}, v1([]byte{9, 1, 1, 3, 1, 1}, nil), {Version1, 64, 0, 1}} {
		if got := Convert(b); !bytes.Equal(got, b) {
			t.Errorf("Convert(% x) = % x, want it unchanged", b, got)
		}
	}
}

// TestParse2Short: a version-2 signature cut anywhere, or with bytes
// after it, bounds nothing.
func TestParse2Short(t *testing.T) {
	b := append([]byte{Version, 64, 0}, make([]byte, 12)...)
	b = append(b, 2, 0x03, 0x01, 0x11, 0x80, 0x22, 0x40, 0x12, 0x04, 1, 0x05, 0x33, 0x44)
	var s Sig
	s.Parse(b)
	if s.written(); !s.OK || len(s.codes) != 9 || len(s.slots) != 4 {
		t.Fatalf("% x: %+v", b, s)
	}
	for n := range len(b) {
		if s.Parse(b[:n]); s.OK {
			t.Errorf("% x cut to %d bytes parses", b, n)
		}
	}
	if s.Parse(append(b, 0)); s.OK {
		t.Error("a byte after the slots parses")
	}
}
