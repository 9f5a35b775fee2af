package main

import "testing"

// TestImportLimitFor: the import's Go limit is 256 MiB for files of up to
// about 170 MB (150,000 Ōgi games stay under 500 MB), 1.5 times their size
// beyond, and at most 1.5 GiB.
func TestImportLimitFor(t *testing.T) {
	for _, c := range []struct {
		bytes, want int64
	}{
		{0, 256 << 20},
		{163_521_625, 256 << 20}, // 150,000 Ōgi games
		{400 << 20, 600 << 20},
		{1_088_608_433, 1536 << 20}, // 1,000,000 Ōgi games
		{1 << 40, 1536 << 20},
	} {
		if got := importLimitFor(c.bytes); got != c.want {
			t.Errorf("%d bytes of files: limit %d, want %d", c.bytes, got, c.want)
		}
	}
}
