package store

import "strconv"

// JSONIDs is ids as a JSON array ("[]" for none), the one argument of a
// statement's `IN (SELECT value FROM json_each(?))`.
func JSONIDs(ids []int64) string {
	b := make([]byte, 0, 20*len(ids)+2)
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ']'))
}
