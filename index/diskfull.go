package index

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mattn/go-sqlite3"
)

// nameFull names the file of a SQLite "database or disk is full" error: the
// database (or its WAL beside it) could not grow. Errors of the text index
// already name their file (Go's *fs.PathError).
func (db *DB) nameFull(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && se.Code == sqlite3.ErrFull {
		return fmt.Errorf("no space left on device: %s (or its -wal) could not grow: %w", filepath.Join(db.dir, sqliteName), err)
	}
	return err
}
