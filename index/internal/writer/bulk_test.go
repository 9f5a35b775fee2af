package writer

import "testing"

// TestIsBulk: an import is bulk when its files weigh at least the least
// bytes of a bulk import and a KiB for each game already stored.
func TestIsBulk(t *testing.T) {
	for _, c := range []struct {
		bytes, games int64
		want         bool
	}{
		{bulkMinBytes, 0, true},
		{bulkMinBytes - 1, 0, false}, // too small
		{0, 0, false},                // size not given
		{bulkMinBytes, bulkMinBytes / bulkBytesPerGame, true}, // as large as the database
		{bulkMinBytes, bulkMinBytes/bulkBytesPerGame + 1, false},
		{1 << 40, 1 << 20, true},
	} {
		if got := isBulk(c.bytes, c.games, bulkMinBytes); got != c.want {
			t.Errorf("isBulk(%d bytes, %d games) = %v, want %v", c.bytes, c.games, got, c.want)
		}
	}
	if !isBulk(1, 0, 1) {
		t.Error("a test's least bytes of 1 (Tuning.BulkMinBytes): a file of 1 byte is not bulk")
	}
}
