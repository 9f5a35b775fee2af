package players

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/plateau/plateau/index/internal/store"
)

// PageBy is how player pages are read: PageAuto (the fewer seeks),
// PageByPlayer or PageByWord (tests and benchmarks compare them).
type PageBy int

const (
	PageAuto PageBy = iota
	PageByPlayer
	PageByWord
)

// maxArms is how many matched players a page is read player by player
// for (two arms each, read by armsQuery). Beyond, so many players have so
// many games that reading the games table in id order finds a page at
// once. pageBy forces how pages are read. Both change only in tests
// (SetMaxArms, SetPageBy).
var (
	maxArms = 200
	pageBy  = PageAuto
)

// SetMaxArms sets maxArms until restore is called; for tests.
func SetMaxArms(n int) (restore func()) {
	old := maxArms
	maxArms = n
	return func() { maxArms = old }
}

// SetPageBy makes every page read by by until restore is called; for
// tests and benchmarks.
func SetPageBy(by PageBy) (restore func()) {
	old := pageBy
	pageBy = by
	return func() { pageBy = old }
}

// Read is how a page of games is read.
type Read int

const (
	// ByID: the caller reads the games matching its conditions in id
	// order, as for any query.
	ByID Read = iota
	// Scan: the caller reads the games table in id order, not through
	// the player indexes (they are out, or too many players match).
	Scan
	// ByArms: ReadPage reads the page's ids.
	ByArms
)

// How tells how a page (limit games from offset) of the games of players
// matched players is read: words are the name words it would be read by
// (nil: by player and side), and scan tells that the player indexes are
// out and no words serve.
func How(players int, words []string, scan bool, limit, offset int) Read {
	if players == 0 || limit < 0 || offset+limit > 10000 {
		return ByID
	}
	if scan || players > maxArms && (words == nil || len(words) > maxArms) {
		return Scan
	}
	return ByArms
}

// DB is what reading a page needs: the database handle (the arms are read
// on several connections at once).
type DB interface {
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Page is the games a page is read from: those of Players, listed under
// the name words Words, or (Words nil) under each player and side.
type Page struct {
	Players []int64
	Words   []string
}

// ReadPage returns the ids of a page (limit games from offset) of p's
// games that meet cond (SQL on games g, with args), in id order. Each key
// of p is an arm, read k ids at a time from the index only (one statement
// for many arms, a few at once). Where an arm may have more games, they
// are above the last it gave, so the merged ids up to the smallest such
// last id are final; cond is then tested on those final ids in order, one
// statement a batch, until the page is full; while it is not, the open
// arms are read further with k doubled. The cost thus depends on the page
// and on the number of arms, not on how many games the players have (a
// popular player may have tens of thousands), and only the games up to
// the page's last are read from the games table: testing the conditions
// on each arm's games instead (the index holds no other column) read
// several times the games of the page (docs/queries.md).
func ReadPage(ctx context.Context, db DB, p Page, cond string, args []any, limit, offset int) ([]int64, error) {
	want := limit + offset
	arms, err := openArms(ctx, db, p)
	if err != nil {
		return nil, err
	}
	defer arms.close()
	check, err := db.PrepareContext(ctx, `SELECT g.id FROM games g
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
			end := min(final, checked+max(want-len(passed), checkBatch))
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

// checkBatch is the fewest ids whose conditions are tested in one
// statement (as many as the position search joins at first).
const checkBatch = 64

// arms are the arms of a player page: arm a is read by
// stmts[stmtOf[a]] from keys[a] (a player and side, or a name word), with
// the statements' extra arguments.
type arms struct {
	stmts  []*sql.Stmt
	stmtOf []int
	keys   []int64
	extra  []any
	last   []int64 // the last id read of each arm
	open   []bool  // the arm may have more games
}

// openArms prepares the arms of p: a word arm for each of p.Words, or
// else two arms (one a side) for each of p.Players.
func openArms(ctx context.Context, db DB, p Page) (*arms, error) {
	a := &arms{}
	prepare := func(query string) error {
		stmt, err := db.PrepareContext(ctx, query)
		if err == nil {
			a.stmts = append(a.stmts, stmt)
		}
		return err
	}
	if p.Words != nil {
		words, err := wordIDs(ctx, db, p.Words)
		if err == nil {
			err = prepare(wordArmsQuery)
		}
		if err != nil {
			a.close()
			return nil, err
		}
		a.keys, a.stmtOf, a.extra = words, make([]int, len(words)), []any{store.JSONIDs(p.Players)}
	} else {
		for side := range 2 {
			if err := prepare(fmt.Sprintf(armsQuery, side, side)); err != nil {
				a.close()
				return nil, err
			}
		}
		for _, pl := range p.Players {
			a.keys = append(a.keys, pl, pl)
			a.stmtOf = append(a.stmtOf, 0, 1)
		}
	}
	a.last, a.open = make([]int64, len(a.keys)), make([]bool, len(a.keys))
	for i := range a.open {
		a.open[i] = true
	}
	return a, nil
}

func (a *arms) close() {
	for _, st := range a.stmts {
		st.Close()
	}
}

// read reads up to k more ids of each open arm into ids (sorted, without
// repeats: a game of two matched players) and returns them with final,
// the number of them that no arm can add to below: ids up to the
// smallest last id of an open arm.
func (a *arms) read(ctx context.Context, ids []int64, k int) ([]int64, int, error) {
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

// wordArmsQuery reads arms that are name words: for each [word, last id]
// of the JSON array (the second parameter), the next games (at most the
// first parameter) listed under the word for one of the players of the
// third parameter, in the index only.
const wordArmsQuery = `SELECT j.key, (SELECT group_concat(game) FROM (SELECT DISTINCT game FROM name_games
	WHERE word = j.value->>0 AND game > j.value->>1 AND player IN (SELECT value FROM json_each(?3)) ORDER BY game LIMIT ?1))
	FROM json_each(?2) j`

// wordIDs returns the name_words ids of words (those the table has).
func wordIDs(ctx context.Context, db DB, words []string) ([]int64, error) {
	j, err := json.Marshal(words)
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT id FROM name_words WHERE word IN (SELECT value FROM json_each(?)) ORDER BY id`, string(j))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// armReaders is how many arms statements a round of a player page runs at
// once, each on a connection of its own, with an even share of the arms.
// Reading an arm is a seek into an index: when the index is not in memory,
// a random read of the disk, which some devices serve several at a time
// (not every one: on a disk that serves one at a time, fewer arms is what
// helps: docs/queries.md).
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
	rows, err := check.QueryContext(ctx, append([]any{store.JSONIDs(ids)}, args...)...)
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
