package index

import (
	"bytes"
	"context"
	"fmt"
	"github.com/plateau/plateau/index/internal/patsig"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/players"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/index/internal/treeagg"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// GenText makes n generated games of a ruleset as record text (for the
// tests of this package, inside and outside it).
func GenText(t testing.TB, game string, n int, seed uint64) []byte {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, seed)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(context.Background(), &b, n, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// StoredPositions counts the valid games of a ruleset and the positions a
// pattern search visits in them (the start of every game and the position
// after every stored move, main lines and variations), from the stored move
// lists.
func StoredPositions(ctx context.Context, db *DB, game string) (games, positions int64, err error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT moves FROM games WHERE valid = 1 AND game = ?`, game)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return 0, 0, err
		}
		ml, err := movelist.Decode(b)
		if err != nil {
			return 0, 0, err
		}
		games++
		positions += int64(1 + len(ml.Steps))
	}
	return games, positions, rows.Err()
}

// SetMaxPlayerArms changes how many players a page is read player by
// player for (players.SetMaxArms); the returned function restores it.
func SetMaxPlayerArms(n int) (restore func()) { return players.SetMaxArms(n) }

// TreePlayers is every tree move's players: "key move player-name" → games.
func TreePlayers(ctx context.Context, db *DB) (map[string]int, error) {
	all, err := treeagg.Counts(ctx, db.sql)
	if err != nil {
		return nil, err
	}
	names := map[int64]string{}
	rows, err := db.sql.QueryContext(ctx, `SELECT id, name FROM players`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var n string
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		names[id] = n
	}
	out := map[string]int{}
	for k, es := range all {
		for _, e := range es {
			out[fmt.Sprint(k.Pos, k.Move, names[e.Player])] = int(e.N)
		}
	}
	return out, rows.Err()
}

// CheckTreeTops compares the top players stored in every tree row with
// the best three of its players' counts (n descending, player id
// ascending), computed by brute force, and checks np and the chunks
// (treeagg.Counts); it returns how many rows hold a top.
func CheckTreeTops(ctx context.Context, db *DB) (withTop int, err error) {
	want, err := treeagg.Counts(ctx, db.sql)
	if err != nil {
		return 0, err
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT key, move, top FROM tree`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var bad []string
	for rows.Next() {
		var k treeagg.Key
		var blob []byte
		if err := rows.Scan(&k.Pos, &k.Move, &blob); err != nil {
			return 0, err
		}
		got, err := treeagg.DecodeTop(nil, blob)
		if err != nil {
			return 0, err
		}
		w := want[k]
		sort.Slice(w, func(i, j int) bool { return treeagg.TopCmp(w[i], w[j]) < 0 })
		w = w[:min(len(w), treeagg.TopLen)]
		if fmt.Sprint(got) != fmt.Sprint(w) {
			bad = append(bad, fmt.Sprintf("%d %s: stored top %v, players %v", k.Pos, k.Move, got, w))
		}
		if len(got) > 0 {
			withTop++
		}
	}
	if len(bad) > 0 {
		return withTop, fmt.Errorf("%d tree rows with a wrong top, e.g. %s", len(bad), bad[0])
	}
	return withTop, rows.Err()
}

// TreeTopsScan is the top players of each move of a position's tree
// ranked from all its players' counts (the three best by count, then
// player id), ordered by count, then name.
func TreeTopsScan(ctx context.Context, db *DB, game string, pos rules.Position) (map[string][]PlayerCount, error) {
	all, err := treeagg.Counts(ctx, db.sql)
	if err != nil {
		return nil, err
	}
	key := saltKey(game, pos.Key())
	out := map[string][]PlayerCount{}
	for k, es := range all {
		if k.Pos != key {
			continue
		}
		es = slices.Clone(es)
		slices.SortFunc(es, treeagg.TopCmp)
		for _, e := range es[:min(len(es), treeagg.TopLen)] {
			var name string
			if err := db.sql.QueryRowContext(ctx, `SELECT name FROM players WHERE id = ?`, e.Player).Scan(&name); err != nil {
				return nil, err
			}
			out[k.Move] = append(out[k.Move], PlayerCount{Name: name, Games: int(e.N)})
		}
	}
	for _, t := range out {
		sort.Slice(t, func(i, j int) bool {
			if t[i].Games != t[j].Games {
				return t[i].Games > t[j].Games
			}
			return t[i].Name < t[j].Name
		})
	}
	return out, nil
}

// DowngradeToLayout5 rewrites the opening tree's players of a database as
// layout 5 kept them (a tree_players row per key, move and player; no
// tree.np) and marks it layout 5, for the upgrade's tests.
func DowngradeToLayout5(ctx context.Context, db *DB) error {
	if err := downgradeTree(ctx, db); err != nil {
		return err
	}
	all, err := treeagg.Counts(ctx, db.sql)
	if err != nil {
		return err
	}
	if err := downgradeBlocks(ctx, db); err != nil {
		return err
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE tp5(
		key INTEGER NOT NULL, move TEXT NOT NULL, player INTEGER NOT NULL, n INTEGER NOT NULL,
		PRIMARY KEY(key, move, player)) WITHOUT ROWID`); err != nil {
		return err
	}
	for k, es := range all {
		for _, e := range es {
			if _, err := tx.ExecContext(ctx, `INSERT INTO tp5 VALUES(?, ?, ?, ?)`, k.Pos, k.Move, e.Player, e.N); err != nil {
				return err
			}
		}
	}
	for _, q := range []string{`DROP TABLE tree_players`, `ALTER TABLE tp5 RENAME TO tree_players`, `ALTER TABLE tree DROP COLUMN np`,
		`DROP TABLE name_games`, `DROP TABLE name_words`, dropW0, dropW1} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if err := setMeta(ctx, tx, "schema", 5); err != nil {
		return err
	}
	return tx.Commit()
}

// SetPageBy makes player pages read by "word", by "player", or the
// cheaper ("") until the returned function is called.
func SetPageBy(by string) func() {
	return players.SetPageBy(map[string]players.PageBy{"": players.PageAuto, "player": players.PageByPlayer, "word": players.PageByWord}[by])
}

// DowngradeToLayout6 drops the name index and the tree's wins of a
// database and marks it layout 6, for the upgrade's tests.
func DowngradeToLayout6(ctx context.Context, db *DB) error {
	if err := downgradeTree(ctx, db); err != nil {
		return err
	}
	for _, q := range []string{`DROP TABLE name_games`, `DROP TABLE name_words`, dropW0, dropW1} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if err := downgradeBlocks(ctx, db); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 6)
}

// DowngradeToLayout7 drops the revisions and the gone occurrences of a
// database (which must have none) and the tree's wins, and marks it
// layout 7, for the upgrade's tests.
func DowngradeToLayout7(ctx context.Context, db *DB) error {
	if err := downgradeTree(ctx, db); err != nil {
		return err
	}
	for _, q := range []string{`DROP TABLE revisions`, `DROP TABLE pos_gone`, dropW0, dropW1} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if err := downgradeBlocks(ctx, db); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 7)
}

// dropW0 and dropW1 take the tree's wins out (layout 8 had none).
const (
	dropW0 = `ALTER TABLE tree DROP COLUMN w0`
	dropW1 = `ALTER TABLE tree DROP COLUMN w1`
)

// DowngradeToLayout8 drops the tree's wins (w0, w1) of a database and
// marks it layout 8, for the upgrade's tests.
func DowngradeToLayout8(ctx context.Context, db *DB) error {
	if err := downgradeTree(ctx, db); err != nil {
		return err
	}
	for _, q := range []string{dropW0, dropW1, `DROP TABLE tree_months`} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if err := downgradeBlocks(ctx, db); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 8)
}

// SetTreeLineGames sets the most games of a selection whose opening lines
// a filtered tree reads (-1: none, every tree read from the occurrences).
func SetTreeLineGames(db *DB, n int) { db.lineGames = n }

// DowngradeToLayout9 makes db's layout 9: no tree_months.
func DowngradeToLayout9(ctx context.Context, db *DB) error {
	if err := downgradeTree(ctx, db); err != nil {
		return err
	}
	if _, err := db.sql.ExecContext(ctx, `DROP TABLE tree_months`); err != nil {
		return err
	}
	if err := downgradeBlocks(ctx, db); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 9)
}

// DowngradeToLayout10 turns db into a layout-10 database: no opening names
// (the tables of internal/openings dropped).
func DowngradeToLayout10(ctx context.Context, db *DB) error {
	if err := downgradeTree(ctx, db); err != nil {
		return err
	}
	for _, q := range []string{`DROP TABLE game_openings`, `DROP TABLE openings`, `DELETE FROM meta WHERE k = 'opening_hw'`} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if err := downgradeBlocks(ctx, db); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 10)
}

// MonthRows is every row of tree_months, as text by key, month and move.
func MonthRows(ctx context.Context, db *DB) (map[string]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT key, month, move, n, scored, s0, s1, w0, w1, first, last FROM tree_months`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var key, n, scored, w0, w1 int64
		var month, move, first, last string
		var s0, s1 float64
		if err := rows.Scan(&key, &month, &move, &n, &scored, &s0, &s1, &w0, &w1, &first, &last); err != nil {
			return nil, err
		}
		out[fmt.Sprint(key, " ", month, " ", move)] = fmt.Sprint(n, " ", scored, " ", s0, " ", s1, " ", w0, " ", w1, " ", first, " ", last)
	}
	return out, rows.Err()
}

// NameEntries is every row of name_games as "word game player", sorted.
func NameEntries(ctx context.Context, db *DB) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT w.word, n.game, n.player FROM name_games n JOIN name_words w ON w.id = n.word ORDER BY 1, 2, 3`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var w string
		var g, p int64
		if err := rows.Scan(&w, &g, &p); err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprint(w, " ", g, " ", p))
	}
	return out, rows.Err()
}

// CheckNameIndex compares name_games with what the games and players
// tables give: every valid game under each distinct word of each of its
// players' folded names.
func CheckNameIndex(ctx context.Context, db *DB) error {
	got, err := NameEntries(ctx, db)
	if err != nil {
		return err
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT g.id, p.id, p.folded FROM games g JOIN players p ON p.id IN (g.p0, g.p1) WHERE g.valid = 1`)
	if err != nil {
		return err
	}
	defer rows.Close()
	set := map[string]bool{}
	for rows.Next() {
		var g, p int64
		var f string
		if err := rows.Scan(&g, &p, &f); err != nil {
			return err
		}
		for _, w := range strings.Fields(f) {
			set[fmt.Sprint(w, " ", g, " ", p)] = true
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	want := slices.Sorted(maps.Keys(set))
	slices.Sort(got)
	if !slices.Equal(got, want) {
		i := firstDiff(got, want)
		return fmt.Errorf("name index: %d entries, the games give %d (they differ from entry %d: %q against %q)",
			len(got), len(want), i, got[i:min(i+1, len(got))], want[i:min(i+1, len(want))])
	}
	return nil
}

// TreeRows is every tree row as "key move" → "n scored w0 w1 np top".
func TreeRows(ctx context.Context, db *DB) (map[string]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT key, move, n, scored, w0, w1, np, top FROM tree`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k treeagg.Key
		var n, scored, w0, w1, np int64
		var top []byte
		if err := rows.Scan(&k.Pos, &k.Move, &n, &scored, &w0, &w1, &np, &top); err != nil {
			return nil, err
		}
		out[fmt.Sprint(k.Pos, " ", k.Move)] = fmt.Sprint(n, " ", scored, " ", w0, " ", w1, " ", np, " ", top)
	}
	return out, rows.Err()
}

// SlowCompaction makes db's CompactPositions store a block a transaction
// and wait d before each merged block, for a test that kills it midway.
func SlowCompaction(db *DB, d time.Duration) {
	db.pos.Tuning.CompactTx = 1
	db.pos.Tuning.BeforeMergeBlock = func(context.Context) error { time.Sleep(d); return nil }
}

// SetBulk sets the least bytes of a bulk import (internal/writer's
// Tuning.BulkMinBytes), and a function told, in a bulk import, when the
// deferred indexes are out; it returns a function restoring both.
func SetBulk(minBytes int64, dropped func()) (restore func()) {
	old, oldHook := writeTuning.BulkMinBytes, writeTuning.BulkDropped
	writeTuning.BulkMinBytes, writeTuning.BulkDropped = minBytes, dropped
	return func() { writeTuning.BulkMinBytes, writeTuning.BulkDropped = old, oldHook }
}

// MissingIndexes returns the deferred indexes (store.Deferred) db lacks.
func MissingIndexes(ctx context.Context, db *DB) ([]string, error) {
	return store.Missing(ctx, db.sql)
}

// DropDeferred drops the deferred indexes, as a bulk import does.
func DropDeferred(ctx context.Context, db *DB) error {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return store.DropDeferred(ctx, conn)
}

// HoldImportLock takes the import lock of db's directory, as an import
// does; nil if someone holds it.
func HoldImportLock(db *DB) (release func(), err error) {
	l, err := db.tryLock(importLockName)
	if err != nil || l == nil {
		return nil, err
	}
	return l.release, nil
}

// DowngradeToLayout11 turns db into a layout-11 database: the opening
// names without their folded form and its index.
func DowngradeToLayout11(ctx context.Context, db *DB) error {
	if err := downgradeTree(ctx, db); err != nil {
		return err
	}
	for _, q := range []string{`DROP INDEX openings_folded`, `ALTER TABLE openings DROP COLUMN folded`} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if err := downgradeBlocks(ctx, db); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 11)
}

// OpeningFolds is the stored folded form of each opening name, by name.
func OpeningFolds(ctx context.Context, db *DB) (map[string]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT name, folded FROM openings`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, folded string
		if err := rows.Scan(&name, &folded); err != nil {
			return nil, err
		}
		out[name] = folded
	}
	return out, rows.Err()
}

// DowngradeToLayout13 turns db into a layout-13 database: no pattern
// signatures (internal/patsig) and no games_fen.
func DowngradeToLayout13(ctx context.Context, db *DB) error {
	if err := downgradeTree(ctx, db); err != nil {
		return err
	}
	for _, q := range []string{`DROP TABLE pattern_sigs`, `DROP INDEX games_fen`} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if err := downgradeBlocks(ctx, db); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 13)
}

// PatternSigs is every game's pattern signature, by game id.
func PatternSigs(ctx context.Context, db *DB) (map[int64]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT block, sigs FROM pattern_sigs`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var block int64
		var blob []byte
		if err := rows.Scan(&block, &blob); err != nil {
			return nil, err
		}
		if !patsig.Entries(block, blob, func(id int64, sig []byte) { out[id] = string(sig) }) {
			return nil, fmt.Errorf("block %d does not parse", block)
		}
	}
	return out, rows.Err()
}

// PatternSigsUsed reports whether db's pattern scans read signatures.
func PatternSigsUsed(db *DB) bool { return db.patSigs }

// NoPatternSigs makes db's pattern scans test every game, as a read-only
// handle on layout 13 does.
func NoPatternSigs(db *DB) { db.patSigs = false }

// SchemaVersion is the layout a writable open brings a database to.
const SchemaVersion = schemaVersion
