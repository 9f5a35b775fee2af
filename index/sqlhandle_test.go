package index

import "database/sql"

// SQL exposes the SQLite handle to the tests (of this package and of
// index_test), which read and damage the tables directly.
func (db *DB) SQL() *sql.DB { return db.sql }
