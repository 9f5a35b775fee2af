package store

import "testing"

func TestJSONIDs(t *testing.T) {
	for _, c := range []struct {
		ids  []int64
		want string
	}{
		{nil, "[]"},
		{[]int64{7}, "[7]"},
		{[]int64{3, 1, -40, 9007199254740993}, "[3,1,-40,9007199254740993]"},
	} {
		if got := JSONIDs(c.ids); got != c.want {
			t.Errorf("JSONIDs(%v) = %s, want %s", c.ids, got, c.want)
		}
	}
}
