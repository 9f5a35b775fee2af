package record

import "testing"

// The bit masks of isSpace and isDelim hold the bytes the package doc names.
func TestDelimMasks(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		sp := b == ' ' || b == '\t' || b == '\v' || b == '\f' || b == 0
		de := sp
		switch b {
		case '[', ']', '{', '}', '(', ')', '"', ';', '$':
			de = true
		}
		if isSpace(b) != sp || isDelim(b) != de {
			t.Errorf("%d: %v %v", c, isSpace(b), isDelim(b))
		}
	}
}

// tagRank agrees with tagOrder.
func TestTagRank(t *testing.T) {
	for i, n := range tagOrder {
		if r := tagRank(n); r != i {
			t.Errorf("tagRank(%q) = %d, want %d", n, r, i)
		}
	}
	for _, n := range []string{"", "game", "Annotator", "Termination", "GameType", "Results"} {
		if r := tagRank(n); r != -1 {
			t.Errorf("tagRank(%q) = %d, want -1", n, r)
		}
	}
}
