package index

import "testing"

// TestStoredKeys: the occurrences that the opening tree counts (main line,
// ply below TreeDepth) are stored under the salted key, the others apart,
// all under one key.
func TestStoredKeys(t *testing.T) {
	db := openTemp(t)
	if db.storedKey(5, TreeDepth-1, 0) != 5 || db.storedKey(5, TreeDepth, 0) == 5 || db.storedKey(5, 2, 1) == 5 || db.storedKey(5, 2, 1) != db.storedKey(5, TreeDepth, 0) {
		t.Error("stored keys do not separate the opening tree's occurrences")
	}
}
