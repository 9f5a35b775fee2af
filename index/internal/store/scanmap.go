package store

import "database/sql"

// ScanMap reads the rows of a query of two columns, a key and its value,
// into a map, and closes them. It takes the query's results as they come,
// so that a call reads ScanMap[K, V](q.QueryContext(ctx, query, args...)).
func ScanMap[K comparable, V any](rows *sql.Rows, err error) (map[K]V, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[K]V{}
	for rows.Next() {
		var k K
		var v V
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}
