package main

import (
	"slices"
	"testing"
)

func TestParseCurve(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
		ok   bool
	}{
		{"", nil, true},
		{"none", []int{}, true},
		{"10k, 100k,1M,3000000", []int{10_000, 100_000, 1_000_000, 3_000_000}, true},
		{"500,1000", []int{500, 1000}, true},
		{"100k,10k", nil, false},
		{"10k,10000", nil, false},
		{"0", nil, false},
		{"-5", nil, false},
		{"1.5M", nil, false},
		{"10k,", nil, false},
	} {
		got, err := parseCurve(c.in)
		if (err == nil) != c.ok || !slices.Equal(got, c.want) || (c.want != nil && got == nil) {
			t.Errorf("parseCurve(%q) = %v, %v; want %v (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
}
