package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// maxPlayerArms is how many matched players a page is read player by
// player for (two arms each, read by armsQuery). Beyond, so many players have so many games that reading the games table
// in id order finds a page at once.
var maxPlayerArms = 200

// pageSQL is the query of a page of games matching w, in id order, or ""
// when the page is to be read player by player (playerPage).
func pageSQL(w *where, limit, offset int) (string, []any) {
	cond := w.String()
	n := len(w.players)
	if n == 0 || limit < 0 || offset+limit > 10000 {
		return `SELECT ` + hitCols + ` FROM ` + hitJoin + ` WHERE ` + cond +
			` ORDER BY g.id LIMIT ? OFFSET ?`, append(append([]any{}, w.Args()...), limit, offset)
	}
	if w.scanPlayers || n > maxPlayerArms && (w.pageWords == nil || len(w.pageWords) > maxPlayerArms) {
		return `SELECT ` + hitCols + ` FROM games g NOT INDEXED LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1 WHERE ` + cond +
			` ORDER BY g.id LIMIT ? OFFSET ?`, append(append([]any{}, w.Args()...), limit, offset)
	}
	return "", nil
}

// playerPage returns the ids of a page of games matching w, whose players
// are w.players, in id order. The games are read from indexes whose
// entries are in id order for a key: each key is an arm, read k ids at a
// time from the index only (readArms: one statement for many arms, a few
// at once). The keys are the name words w.pageWords (name_games, entries
// of the matched players only: names.go), or else each matched player and
// side (games_p0 and games_p1). Where an arm may have more games, they are
// above the last it gave, so the merged ids up to the smallest such last
// id are final; the other conditions of w (valid, ruleset, date…) are then
// tested on those final ids in order, one statement a batch, until the
// page is full; while it is not, the open arms are read further with k
// doubled. The cost thus depends on the page and on the number of arms,
// not on how many games the players have (a popular player may have tens
// of thousands), and only the games up to the page's last are read from
// the games table: testing the conditions on each arm's games instead (the
// index holds no other column) read several times the games of the page
// (docs/queries.md).
func (db *DB) playerPage(ctx context.Context, w *where, limit, offset int) ([]int64, error) {
	want := limit + offset
	arms, err := db.openArms(ctx, w)
	if err != nil {
		return nil, err
	}
	defer arms.close()
	cond, args := w.Without(w.playerCond)
	check, err := db.sql.PrepareContext(ctx, `SELECT g.id FROM games g
		WHERE g.id IN (SELECT value FROM json_each(?)) AND `+cond+` ORDER BY g.id`)
	if err != nil {
		return nil, err
	}
	defer check.Close()
	var ids []int64    // every id the arms gave, sorted
	var passed []int64 // those of ids[:checked] that meet cond
	checked := 0
	for k := max(4, 2*want/max(len(arms.keys), 1)+1); ; k *= 2 {
		var final int
		if ids, final, err = arms.read(ctx, ids, k); err != nil {
			return nil, err
		}
		// No arm adds an id below ids[final] any more: ids[:final] stay as
		// they are, and those already checked keep their places.
		for checked < final && len(passed) < want {
			end := min(final, checked+max(want-len(passed), joinBatch))
			if passed, err = checkIDs(ctx, check, ids[checked:end], args, passed); err != nil {
				return nil, err
			}
			checked = end
		}
		if len(passed) >= want || !slices.Contains(arms.open, true) {
			if offset >= len(passed) {
				return nil, nil
			}
			return passed[offset:min(len(passed), want)], nil
		}
	}
}

// pageArms are the arms of a player page: arm a is read by
// stmts[stmtOf[a]] from keys[a] (a player and side, or a name word), with
// the statements' extra arguments.
type pageArms struct {
	stmts  []*sql.Stmt
	stmtOf []int
	keys   []int64
	extra  []any
	last   []int64 // the last id read of each arm
	open   []bool  // the arm may have more games
}

// openArms prepares the arms of w's page: a word arm for each of
// w.pageWords, or else two arms (one a side) for each of w.players.
func (db *DB) openArms(ctx context.Context, w *where) (*pageArms, error) {
	a := &pageArms{}
	prepare := func(query string) error {
		stmt, err := db.sql.PrepareContext(ctx, query)
		if err == nil {
			a.stmts = append(a.stmts, stmt)
		}
		return err
	}
	if w.pageWords != nil {
		words, err := db.wordIDs(ctx, w.pageWords)
		if err == nil {
			err = prepare(wordArmsQuery)
		}
		if err != nil {
			a.close()
			return nil, err
		}
		a.keys, a.stmtOf, a.extra = words, make([]int, len(words)), []any{jsonIDs(w.players)}
	} else {
		for side := range 2 {
			if err := prepare(fmt.Sprintf(armsQuery, side, side)); err != nil {
				a.close()
				return nil, err
			}
		}
		for _, p := range w.players {
			a.keys = append(a.keys, p, p)
			a.stmtOf = append(a.stmtOf, 0, 1)
		}
	}
	a.last, a.open = make([]int64, len(a.keys)), make([]bool, len(a.keys))
	for i := range a.open {
		a.open[i] = true
	}
	return a, nil
}

func (a *pageArms) close() {
	for _, st := range a.stmts {
		st.Close()
	}
}

// read reads up to k more ids of each open arm into ids (sorted, without
// repeats: a game of two matched players) and returns them with final,
// the number of them that no arm can add to below: ids up to the
// smallest last id of an open arm.
func (a *pageArms) read(ctx context.Context, ids []int64, k int) ([]int64, int, error) {
	got, err := readArms(ctx, a.stmts, a.stmtOf, a.keys, a.extra, a.last, a.open, k)
	if err != nil {
		return ids, 0, err
	}
	for i, g := range got {
		if len(g) > 0 {
			ids = append(ids, g...)
			a.last[i] = g[len(g)-1]
		}
		a.open[i] = a.open[i] && len(g) == k
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	final := len(ids)
	for i := range a.open {
		if a.open[i] {
			j, _ := slices.BinarySearch(ids, a.last[i]+1)
			final = min(final, j)
		}
	}
	return ids, final, nil
}

// armsQuery reads a side's arms of a player page in one statement: for
// each [player, last id] of the JSON array (the second parameter), the
// next ids (at most the first parameter) of the player's games on that
// side, from the index only. One statement for many arms instead of one
// each: most of the cost of many arms was in the calls rather than in
// SQLite's seeks (docs/queries.md).
const armsQuery = `SELECT j.key, (SELECT group_concat(id) FROM (SELECT id FROM games INDEXED BY games_p%d
	WHERE p%d = j.value->>0 AND id > j.value->>1 ORDER BY id LIMIT ?)) FROM json_each(?) j`

// armReaders is how many arms statements a round of a player page runs at
// once, each on a connection of its own, with an even share of the arms.
// Reading an arm is a seek into an index: when the index is not in memory,
// a random read of the disk, which some devices serve several at a time
// (not every one: on a disk that serves one at a time, fewer arms is what
// helps: names.go, docs/queries.md).
const armReaders = 4

// readArms reads up to k more ids of each open arm (keys[a], after
// last[a], by stmts[stmtOf[a]]) and returns them by arm, in id order.
func readArms(ctx context.Context, stmts []*sql.Stmt, stmtOf []int, keys []int64, extra []any, last []int64, open []bool, k int) ([][]int64, error) {
	arms := make([][]int, len(stmts))
	nopen := 0
	for a := range open {
		if open[a] {
			arms[stmtOf[a]] = append(arms[stmtOf[a]], a)
			nopen++
		}
	}
	type task struct {
		stmt int
		arms []int
	}
	per := max(1, (nopen+armReaders-1)/armReaders)
	var tasks []task
	for st := range arms {
		for l := arms[st]; len(l) > 0; {
			n := min(per, len(l))
			tasks = append(tasks, task{st, l[:n]})
			l = l[n:]
		}
	}
	got := make([][]int64, len(open))
	errs := make([]error, len(tasks))
	var wg sync.WaitGroup
	for i, t := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = readArmTask(ctx, stmts[t.stmt], keys, last, t.arms, k, extra, got)
		}()
	}
	wg.Wait()
	return got, errors.Join(errs...)
}

// readArmTask runs an arms statement for arms, storing each one's ids in
// got[arm].
func readArmTask(ctx context.Context, stmt *sql.Stmt, keys, last []int64, arms []int, k int, extra []any, got [][]int64) error {
	var b []byte
	b = append(b, '[')
	for i, a := range arms {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, keys[a], 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, last[a], 10)
		b = append(b, ']')
	}
	b = append(b, ']')
	rows, err := stmt.QueryContext(ctx, append([]any{k, string(b)}, extra...)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var i int
		var list sql.NullString
		if err := rows.Scan(&i, &list); err != nil {
			return err
		}
		if i < 0 || i >= len(arms) {
			return fmt.Errorf("player page: arm %d of %d", i, len(arms))
		}
		a := arms[i]
		for f := range strings.SplitSeq(list.String, ",") {
			if f == "" {
				continue
			}
			id, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return fmt.Errorf("player page: %w", err)
			}
			got[a] = append(got[a], id)
		}
		slices.Sort(got[a])
	}
	return rows.Err()
}

// checkIDs appends to dst the ids (in order) that the prepared statement
// check keeps.
func checkIDs(ctx context.Context, check *sql.Stmt, ids []int64, args []any, dst []int64) ([]int64, error) {
	rows, err := check.QueryContext(ctx, append([]any{jsonIDs(ids)}, args...)...)
	if err != nil {
		return dst, err
	}
	defer rows.Close()
	for rows.Next() {
		var g int64
		if err := rows.Scan(&g); err != nil {
			return dst, err
		}
		dst = append(dst, g)
	}
	return dst, rows.Err()
}
