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
