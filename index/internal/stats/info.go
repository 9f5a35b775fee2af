package stats

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"

	"github.com/plateau/plateau/index/internal/store"
)

// Info describes a database.
type Info struct {
	Dir         string
	Games       []GameCount
	Players     int
	Sources     int
	SourceBytes int64 // size of the imported files
	SQLiteBytes int64
	TextBytes   int64
	TextIndexed int64 // high-water mark of the text index (game id)
	// PositionRuns is the number of runs of the position index (a lookup
	// reads a block of each: CompactPositions makes them one), and
	// FreeBytes the file's free pages (freed by merges, reused by later
	// writes).
	PositionRuns int
	FreeBytes    int64
}

// Files are where a database lies: its directory, the name of its SQLite
// file (its WAL and other files start with it) and its text index.
type Files struct {
	Dir, SQLite, Text string
}

// Describe counts what the database holds (the games per ruleset:
// GameCounts), but for its position runs, which are the position
// engine's to count. On an error, the Info has its Dir only.
func Describe(ctx context.Context, q Querier, f Files, editsKey string) (Info, error) {
	in := Info{Dir: f.Dir}
	c, err := GameCounts(ctx, q, editsKey)
	if err != nil {
		return Info{Dir: f.Dir}, err
	}
	in.Games = c.Games
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM players`).Scan(&in.Players); err != nil {
		return Info{Dir: f.Dir}, err
	}
	var sb sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*), SUM(size) FROM sources`).Scan(&in.Sources, &sb); err != nil {
		return Info{Dir: f.Dir}, err
	}
	in.SourceBytes = sb.Int64
	if in.TextIndexed, err = store.MetaInt(ctx, q, "text_hw"); err != nil {
		return Info{Dir: f.Dir}, err
	}
	if err := q.QueryRowContext(ctx, `SELECT f.freelist_count * s.page_size FROM pragma_freelist_count f, pragma_page_size s`).Scan(&in.FreeBytes); err != nil {
		return Info{Dir: f.Dir}, err
	}
	in.SQLiteBytes = DirSize(f.Dir, func(name string) bool { return strings.HasPrefix(name, f.SQLite) })
	in.TextBytes = DirSize(f.Text, nil)
	return in, nil
}

// DirSize is the size of the files under path whose name keep keeps (nil:
// every file).
func DirSize(path string, keep func(name string) bool) int64 {
	var n int64
	filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if keep != nil && !keep(d.Name()) {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			n += fi.Size()
		}
		return nil
	})
	return n
}
