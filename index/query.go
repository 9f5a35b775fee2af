package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Query selects games. Every criterion set must hold.
type Query struct {
	Game string // ruleset id ("ogi", "draughts", …)
	// Player is matched against either side's name, Players against one side
	// each (side 0 first); names match fuzzily (see MatchPlayers).
	Player  string
	Players [2]string
	// Opponent, with Player: games of Player against Opponent, either way round.
	Opponent string
	Event    string // case-insensitive substring
	Site     string // case-insensitive substring
	// DateFrom and DateTo bound the Date tag; a prefix such as "2026" or
	// "2026.07" covers the whole year or month.
	DateFrom, DateTo   string
	Result             string // exact Result value
	Termination        string // case-insensitive substring
	MinPlies, MaxPlies int    // 0 means no bound
	Tags               []record.Tag
	Text               string // a Bleve query string over names, event, site, annotator, comments
	// Position is an exact position: games where it occurs (main line or
	// variation), with the ply of each occurrence.
	Position rules.Position
	Pattern  *Pattern
	// Invalid selects invalid games instead of valid ones.
	Invalid bool
	// IDs restricts to these games.
	IDs []int64

	Limit, Offset int // Limit 0 means 50; negative means no limit
	// Count asks for the total number of matches (a pattern search then
	// scans every candidate game).
	Count bool
}

// Hit is one match.
type Hit struct {
	ID      int64
	Game    string
	Date    string
	Players [2]string
	Result  string
	Event   string
	Site    string
	Plies   int
	// Ply of the matching position (position and pattern searches); -1
	// otherwise.
	Ply       int
	Variation bool // the match is inside a variation
}

// Result is a page of hits.
type Result struct {
	Hits  []Hit
	Total int // total matches; -1 when not counted
}

func (q *Query) limit() int {
	switch {
	case q.Limit == 0:
		return 50
	case q.Limit < 0:
		return 1 << 62
	}
	return q.Limit
}

type where struct {
	conds []string
	args  []any
	nargs []int // the number of args of each condition
	// players are the ids Query.Player matched (without an Opponent): a
	// page of their games is read player by player (see playerPage);
	// playerCond is the index of their condition in conds.
	players    []int64
	playerCond int
	// pageWords, when not nil, are the name words (names.go) the page is
	// read by instead.
	pageWords []string
	// scanPlayers: the player indexes are out (bulk.go) and the page is
	// not read by word: the games table is scanned in id order.
	scanPlayers bool
}

// without returns the conditions and their arguments but the i-th.
func (w *where) without(i int) (string, []any) {
	var conds []string
	var args []any
	a := 0
	for k, c := range w.conds {
		n := w.nargs[k]
		if k != i {
			conds = append(conds, c)
			args = append(args, w.args[a:a+n]...)
		}
		a += n
	}
	if len(conds) == 0 {
		return "1", nil
	}
	return strings.Join(conds, " AND "), args
}

func (w *where) add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
	w.nargs = append(w.nargs, len(args))
}

func (w *where) String() string {
	if len(w.conds) == 0 {
		return "1"
	}
	return strings.Join(w.conds, " AND ")
}

// onlyValidGame reports conditions that every game with stored position
// occurrences meets: valid, of the position's ruleset (its stored key holds
// the ruleset).
func (w *where) onlyValidGame() bool {
	switch {
	case len(w.conds) == 0 || len(w.conds) > 2 || w.conds[0] != "g.valid = ?" || w.args[0] != true:
		return false
	case len(w.conds) == 2:
		return w.conds[1] == "g.game = ?"
	}
	return true
}

func jsonIDs(ids []int64) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

// filters turns the game-level criteria into SQL on games g. empty reports
// that no game can match (an unknown player).
func (db *DB) filters(ctx context.Context, q *Query) (w where, empty bool, err error) {
	w.add("g.valid = ?", !q.Invalid)
	if q.Game != "" {
		id := q.Game
		if g, err := rules.Lookup(q.Game); err == nil {
			id = g.ID()
		}
		w.add("g.game = ?", id)
	}
	if q.Player != "" {
		m, err := db.matchNames(ctx, q.Player)
		if err != nil {
			return w, false, err
		}
		ids := m.players
		if len(ids) == 0 {
			return w, true, nil
		}
		j := jsonIDs(ids)
		if q.Opponent != "" {
			opp, err := db.MatchPlayers(ctx, q.Opponent)
			if err != nil {
				return w, false, err
			}
			if len(opp) == 0 {
				return w, true, nil
			}
			o := jsonIDs(opp)
			w.add(`((g.p0 IN (SELECT value FROM json_each(?)) AND g.p1 IN (SELECT value FROM json_each(?)))
				OR (g.p1 IN (SELECT value FROM json_each(?)) AND g.p0 IN (SELECT value FROM json_each(?))))`, j, o, j, o)
		} else {
			w.playerCond = len(w.conds)
			w.add("(g.p0 IN (SELECT value FROM json_each(?)) OR g.p1 IN (SELECT value FROM json_each(?)))", j, j)
			w.players = ids
			// A bulk import leaves the player indexes out while it
			// runs (bulk.go): the page is then read by word, or scanned.
			byPlayer, err := db.playerIndexes(ctx)
			if err != nil {
				return w, false, err
			}
			if db.nameIndex && !q.Invalid {
				w.pageWords = m.pageWords(byPlayer)
			}
			w.scanPlayers = !byPlayer && w.pageWords == nil
		}
	}
	for side, name := range q.Players {
		if name == "" {
			continue
		}
		ids, err := db.MatchPlayers(ctx, name)
		if err != nil {
			return w, false, err
		}
		if len(ids) == 0 {
			return w, true, nil
		}
		w.add(fmt.Sprintf("g.p%d IN (SELECT value FROM json_each(?))", side), jsonIDs(ids))
	}
	if q.Event != "" {
		w.foldContains("g.event", q.Event) // fold.go
	}
	if q.Site != "" {
		w.foldContains("g.site", q.Site)
	}
	if q.DateFrom != "" {
		w.add("g.date >= ?", queryDate(q.DateFrom))
	}
	if q.DateTo != "" {
		w.add("g.date <= ?", queryDate(q.DateTo)+"~")
	}
	if q.Result != "" {
		w.add("g.result = ?", q.Result)
	}
	if q.Termination != "" {
		w.foldContains("g.termination", q.Termination)
	}
	if q.MinPlies > 0 {
		w.add("g.plies >= ?", q.MinPlies)
	}
	if q.MaxPlies > 0 {
		w.add("g.plies <= ?", q.MaxPlies)
	}
	for _, t := range q.Tags {
		t.Name = tagName(q.Game, t.Name) // names in any case (edit.go)
		switch t.Name {
		case "Date":
			w.add("g.date = ?", queryDate(t.Value))
		case "Event", "Site", "Result", "Termination":
			w.add("g."+strings.ToLower(t.Name)+" = ?", t.Value)
		case "Game":
			w.add("g.game = ?", strings.ToLower(t.Value))
		default:
			w.tag(q.Game, t)
		}
	}
	if q.IDs != nil {
		w.add("g.id IN (SELECT value FROM json_each(?))", jsonIDs(q.IDs))
	}
	if q.Text != "" {
		ids, err := db.TextSearch(ctx, q.Text, 1_000_000)
		if err != nil {
			return w, false, err
		}
		if len(ids) == 0 {
			return w, true, nil
		}
		w.add("g.id IN (SELECT value FROM json_each(?))", jsonIDs(ids))
	}
	return w, false, nil
}

// tag adds the condition of a tag that has no column of its own. A tag that
// names a side of the game's rules (Sente, White…) is that side's player
// column; the tags table holds the other tags.
func (w *where) tag(game string, t record.Tag) {
	var gs []rules.Game
	if g, err := rules.Lookup(game); err == nil {
		gs = []rules.Game{g}
	} else if game == "" {
		gs = rules.Games()
	}
	var sideOf [2][]any // rulesets where the tag names side 0, side 1
	var notSide []any   // known rulesets where it names no side
	for _, g := range gs {
		switch sides := g.Sides(); {
		case strings.EqualFold(t.Name, sides[0]):
			sideOf[0] = append(sideOf[0], g.ID())
		case strings.EqualFold(t.Name, sides[1]):
			sideOf[1] = append(sideOf[1], g.ID())
		default:
			notSide = append(notSide, g.ID())
		}
	}
	in := func(ids []any) string { return "g.game IN (?" + strings.Repeat(",?", len(ids)-1) + ")" }
	var conds []string
	var args []any
	for side, ids := range sideOf {
		if len(ids) > 0 {
			conds = append(conds, fmt.Sprintf("(%s AND g.p%d IN (SELECT id FROM players WHERE name = ?))", in(ids), side))
			args = append(append(args, ids...), t.Value)
		}
	}
	tagged := "EXISTS (SELECT 1 FROM tags t JOIN tag_names n ON n.id = t.tag WHERE n.name = ? COLLATE NOCASE AND t.value = ? AND t.game = g.id)"
	switch {
	case len(conds) == 0:
		w.add(tagged, t.Name, t.Value)
		return
	case len(notSide) > 0 && game == "":
		// Other rulesets, and games whose ruleset this program does not know.
		conds = append(conds, "(NOT "+in(append(append([]any{}, sideOf[0]...), sideOf[1]...))+" AND "+tagged+")")
		args = append(append(append(args, sideOf[0]...), sideOf[1]...), t.Name, t.Value)
	}
	w.add("("+strings.Join(conds, " OR ")+")", args...)
}

func likeEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

const hitCols = `g.id, g.game, g.date, a.name, b.name, g.result, g.event, g.site, g.plies`
const hitJoin = `games g LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1`

func scanHit(rows *sql.Rows, extra ...any) (Hit, error) {
	var h Hit
	var date, a, b, res, ev, site sql.NullString
	dst := append([]any{&h.ID, &h.Game, &date, &a, &b, &res, &ev, &site, &h.Plies}, extra...)
	err := rows.Scan(dst...)
	h.Date, h.Players, h.Result, h.Event, h.Site = date.String, [2]string{a.String, b.String}, res.String, ev.String, site.String
	h.Ply = -1
	return h, err
}

// Search finds games.
func (db *DB) Search(ctx context.Context, q Query) (Result, error) {
	if (q.Position != nil || q.Pattern != nil) && q.Game == "" {
		g, err := db.OnlyGame(ctx)
		if err != nil {
			return Result{}, err
		}
		q.Game = g
	}
	w, empty, err := db.filters(ctx, &q)
	if err != nil {
		return Result{}, err
	}
	if empty {
		return Result{Total: 0}, nil
	}
	if q.Pattern != nil {
		return db.patternSearch(ctx, &q, w)
	}
	if q.Position != nil {
		return db.positionSearch(ctx, &q, w)
	}
	res := Result{Total: -1}
	query, args := pageSQL(&w, q.limit(), q.Offset)
	if query == "" {
		ids, err := db.playerPage(ctx, &w, q.limit(), q.Offset)
		if err != nil {
			return res, err
		}
		query, args = `SELECT `+hitCols+` FROM `+hitJoin+` WHERE g.id IN (SELECT value FROM json_each(?)) ORDER BY g.id`, []any{jsonIDs(ids)}
	}
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return res, err
	}
	defer rows.Close()
	for rows.Next() {
		h, err := scanHit(rows)
		if err != nil {
			return res, err
		}
		res.Hits = append(res.Hits, h)
	}
	if err := rows.Err(); err != nil {
		return res, err
	}
	if q.Count {
		if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM games g WHERE `+w.String(), w.args...).Scan(&res.Total); err != nil {
			return res, err
		}
	}
	return res, nil
}

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
			` ORDER BY g.id LIMIT ? OFFSET ?`, append(append([]any{}, w.args...), limit, offset)
	}
	if w.scanPlayers || n > maxPlayerArms && (w.pageWords == nil || len(w.pageWords) > maxPlayerArms) {
		return `SELECT ` + hitCols + ` FROM games g NOT INDEXED LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1 WHERE ` + cond +
			` ORDER BY g.id LIMIT ? OFFSET ?`, append(append([]any{}, w.args...), limit, offset)
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
// not on how many games the players have (a popular player of a million
// games has tens of thousands), and only the games up to the page's last
// are read from the games table: a surname that 40 players share is 80
// arms by player (one by word), and testing the conditions on each arm's
// games (the index holds no other column) read four times the games of
// the page.
func (db *DB) playerPage(ctx context.Context, w *where, limit, offset int) ([]int64, error) {
	want := limit + offset
	cond, args := w.without(w.playerCond)
	// The arms: arm a is read by stmts[stmtOf[a]] from keys[a] (a player
	// and side, or a name word), with the statement's extra arguments.
	var stmts []*sql.Stmt
	var stmtOf []int
	var keys []int64
	var extra []any
	if w.pageWords != nil {
		words, err := db.wordIDs(ctx, w.pageWords)
		if err != nil {
			return nil, err
		}
		stmt, err := db.sql.PrepareContext(ctx, wordArmsQuery)
		if err != nil {
			return nil, err
		}
		defer stmt.Close()
		stmts = []*sql.Stmt{stmt}
		keys = words
		stmtOf = make([]int, len(words))
		extra = []any{jsonIDs(w.players)}
	} else {
		for side := range 2 {
			stmt, err := db.sql.PrepareContext(ctx, fmt.Sprintf(armsQuery, side, side))
			if err != nil {
				return nil, err
			}
			defer stmt.Close()
			stmts = append(stmts, stmt)
		}
		for _, p := range w.players {
			keys = append(keys, p, p)
			stmtOf = append(stmtOf, 0, 1)
		}
	}
	check, err := db.sql.PrepareContext(ctx, `SELECT g.id FROM games g
		WHERE g.id IN (SELECT value FROM json_each(?)) AND `+cond+` ORDER BY g.id`)
	if err != nil {
		return nil, err
	}
	defer check.Close()
	n := len(keys)
	last := make([]int64, n) // the last id read of each arm
	open := make([]bool, n)  // the arm may have more games
	for a := range open {
		open[a] = true
	}
	var ids []int64    // every id the arms gave, sorted
	var passed []int64 // those of ids[:checked] that meet cond
	checked := 0
	for k := max(4, 2*want/max(n, 1)+1); ; k *= 2 {
		got, err := readArms(ctx, stmts, stmtOf, keys, extra, last, open, k)
		if err != nil {
			return nil, err
		}
		for a, g := range got {
			if len(g) > 0 {
				ids = append(ids, g...)
				last[a] = g[len(g)-1]
			}
			open[a] = open[a] && len(g) == k
		}
		slices.Sort(ids)
		ids = slices.Compact(ids) // a game of two matched players
		final := len(ids)
		for a := range open {
			if open[a] {
				i, _ := slices.BinarySearch(ids, last[a]+1)
				final = min(final, i)
			}
		}
		// No arm adds an id below ids[final] any more: ids[:final] stay as
		// they are, and those already checked keep their places.
		for checked < final && len(passed) < want {
			end := min(final, checked+max(want-len(passed), joinBatch))
			var err error
			if passed, err = checkIDs(ctx, check, ids[checked:end], args, passed); err != nil {
				return nil, err
			}
			checked = end
		}
		if len(passed) >= want || !slices.Contains(open, true) {
			if offset >= len(passed) {
				return nil, nil
			}
			return passed[offset:min(len(passed), want)], nil
		}
	}
}

// armsQuery reads a side's arms of a player page in one statement: for
// each [player, last id] of the JSON array (the second parameter), the
// next ids (at most the first parameter) of the player's games on that
// side, from the index only. One statement for many arms instead of one
// each: at 10,000,000 Ōgi games, a search's 80 arms took 3.4 ms warm, most
// of it in the calls rather than in SQLite's seeks.
const armsQuery = `SELECT j.key, (SELECT group_concat(id) FROM (SELECT id FROM games INDEXED BY games_p%d
	WHERE p%d = j.value->>0 AND id > j.value->>1 ORDER BY id LIMIT ?)) FROM json_each(?) j`

// armReaders is how many arms statements a round of a player page runs at
// once, each on a connection of its own, with an even share of the arms.
// Reading an arm is a seek into an index: when the index is not in memory,
// a random read of the disk, which some devices serve several at a time
// (not the virtual disk of the figures: about 1,500 reads a second however
// many are asked at once; there, fewer arms is what helped: names.go).
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

func (db *DB) positionSearch(ctx context.Context, q *Query, w where) (Result, error) {
	res := Result{Total: -1}
	salted := saltKey(q.Game, q.Position.Key())
	want := q.Offset + q.limit()
	if want < 0 { // overflow: no limit
		want = 1 << 62
	}
	r, err := openPosReader(ctx, db)
	if err != nil {
		return res, err
	}
	defer r.close()
	// Hits in (game, ply, var) order; counting goes on past the page when
	// asked.
	n := 0
	err = r.joinGames(ctx, r.occurrences(ctx, db.positionKeys(salted)...), w.String(), w.args,
		`g.game, g.date, a.name, b.name, g.result, g.event, g.site, g.plies`,
		func(rows *sql.Rows) (int64, any, error) {
			h, err := scanHit(rows)
			return h.ID, h, err
		},
		func(at int64, row any) bool {
			if n >= q.Offset && n < want {
				h := row.(Hit)
				_, ply, v := unpackAt(at)
				h.Ply, h.Variation = ply, v == 1
				res.Hits = append(res.Hits, h)
			}
			n++
			return n < want || q.Count
		})
	if err != nil {
		return res, err
	}
	if q.Count {
		res.Total = n
	}
	return res, nil
}

// OnlyGame is the ruleset of the database when it holds only one; an error
// wrapping ErrQuery otherwise.
func (db *DB) OnlyGame(ctx context.Context) (string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT DISTINCT game FROM games WHERE valid = 1 LIMIT 2`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var gs []string
	for rows.Next() {
		var g string
		if err := rows.Scan(&g); err != nil {
			return "", err
		}
		gs = append(gs, g)
	}
	if len(gs) != 1 {
		return "", fmt.Errorf("%w: say which game the position is of (--game)", ErrQuery)
	}
	return gs[0], rows.Err()
}

// MatchPlayers returns the ids of the players whose name matches text:
// compared without case, accents or punctuation, every word of text must be
// a prefix of a word of the name, or within edit distance 1 of it (2 for
// words of 8 letters or more) (matchNames, names.go).
func (db *DB) MatchPlayers(ctx context.Context, text string) ([]int64, error) {
	m, err := db.matchNames(ctx, text)
	if err != nil {
		return nil, err
	}
	return m.players, nil
}

// playerEntry is a player's id and the words of its folded name (indexes
// into db.words).
type playerEntry struct {
	id    int64
	words []int32
}

// playerList is the folded names of every player, read once and extended
// as players are added (ids only grow), and their distinct words.
func (db *DB) playerList(ctx context.Context) ([]playerEntry, nameWords, error) {
	db.pmu.Lock()
	defer db.pmu.Unlock()
	var last int64
	if n := len(db.players); n > 0 {
		last = db.players[n-1].id
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT id, folded FROM players WHERE id > ? ORDER BY id`, last)
	if err != nil {
		return nil, nameWords{}, err
	}
	defer rows.Close()
	for rows.Next() {
		var e playerEntry
		var f string
		if err := rows.Scan(&e.id, &f); err != nil {
			return nil, nameWords{}, err
		}
		for _, w := range strings.Fields(f) {
			e.words = append(e.words, db.words.add(w))
		}
		db.players = append(db.players, e)
	}
	// The slices as they are now: later words are appended past them.
	words := nameWords{text: db.words.text, runes: db.words.runes}
	return db.players, words, rows.Err()
}

// editWithin reports whether the Levenshtein distance of a and b is at
// most d. It runs for every word of every player's name on each player
// search: only the cells of the table within d of its diagonal are
// computed (the others exceed d), in buffers on the stack for words of up
// to 32 letters.
func editWithin(a, b []rune, d int) bool {
	if abs(len(a)-len(b)) > d {
		return false
	}
	big := d + 1 // any value over d: the band's edges
	var bufP, bufC [33]int
	prev, cur := bufP[:0], bufC[:0]
	if len(b)+1 > len(bufP) {
		prev, cur = make([]int, 0, len(b)+1), make([]int, 0, len(b)+1)
	}
	prev, cur = prev[:len(b)+1], cur[:len(b)+1]
	for j := range prev {
		prev[j] = min(j, big)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-d), min(len(b), i+d)
		if lo == 1 {
			cur[0] = min(i, big)
		} else {
			cur[lo-1] = big
		}
		best := cur[lo-1]
		for j := lo; j <= hi; j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c, big)
			best = min(best, cur[j])
		}
		if hi < len(b) {
			cur[hi+1] = big
		}
		if best > d {
			return false
		}
		prev, cur = cur, prev
	}
	return prev[len(b)] <= d
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Records calls fn with the canonical text of every game of the query, in
// id order (Limit applies; use a negative Limit for all).
func (db *DB) Records(ctx context.Context, q Query, fn func(id int64, text []byte) error) error {
	res, err := db.Search(ctx, q)
	if err != nil {
		return err
	}
	seen := map[int64]bool{}
	var cache blockCache
	for _, h := range res.Hits {
		if seen[h.ID] {
			continue
		}
		seen[h.ID] = true
		text, err := db.recordText(ctx, h.ID, &cache)
		if err != nil {
			return err
		}
		if err := fn(h.ID, text); err != nil {
			return err
		}
	}
	return nil
}

// Text is the canonical record text of a game.
func (db *DB) Text(ctx context.Context, id int64) ([]byte, error) {
	return db.recordText(ctx, id, &blockCache{})
}

// blockCache keeps the last text block read.
type blockCache struct {
	id   int64
	data []byte
}

func (db *DB) recordText(ctx context.Context, id int64, c *blockCache) ([]byte, error) {
	var block, off, n int64
	err := db.sql.QueryRowContext(ctx, `SELECT tblock, toff, tlen FROM games WHERE id = ?`, id).Scan(&block, &off, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	if c.data == nil || c.id != block {
		var stored []byte
		if err := db.sql.QueryRowContext(ctx, `SELECT data FROM texts WHERE id = ?`, block).Scan(&stored); err != nil {
			return nil, fmt.Errorf("game %d text: %w", id, err)
		}
		data, err := decompress(stored)
		if err != nil {
			return nil, fmt.Errorf("game %d text: %w", id, err)
		}
		c.id, c.data = block, data
	}
	if off < 0 || off+n > int64(len(c.data)) {
		return nil, fmt.Errorf("game %d text: bad block reference", id)
	}
	return c.data[off : off+n], nil
}

// TreeMove is one move of an opening tree.
type TreeMove struct {
	Move   string
	Games  int        // occurrences in main lines
	Scored int        // of which with a scored result
	Score  [2]float64 // points of each side (side 0 first) over the scored games
	First  string     // earliest date
	Last   string     // latest date
	Top    []PlayerCount
}

// PlayerCount is a player and how often they played a move.
type PlayerCount struct {
	Name  string
	Games int
}

// Tree lists the moves played from a position in the main lines of the
// games of a ruleset, most played first.
func (db *DB) Tree(ctx context.Context, game string, pos rules.Position) ([]TreeMove, error) {
	rg, err := rules.Lookup(game)
	if err != nil {
		return nil, err
	}
	game = rg.ID()
	key := saltKey(game, pos.Key())
	moves := map[string]*TreeMove{}
	tops := map[string]map[string]int{}
	// The aggregate and the occurrences it does not count are read in one
	// snapshot, on a kept read connection, under the quiet context (the
	// lookups' reasons, posruns.go readConn and quiet).
	r, err := openPosReader(ctx, db)
	if err != nil {
		return nil, err
	}
	defer r.close()
	q := quiet(ctx)
	// The aggregate's rows, each with its top players (treetop.go).
	st, err := r.stmt(q, `SELECT move, n, scored, s0, s1, first, last, top FROM tree WHERE key = ?`)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(q, key)
	if err != nil {
		return nil, err
	}
	stored := map[string][]topEntry{}
	var ids []int64
	for rows.Next() {
		m := &TreeMove{}
		var blob []byte
		if err := rows.Scan(&m.Move, &m.Games, &m.Scored, &m.Score[0], &m.Score[1], &m.First, &m.Last, &blob); err != nil {
			rows.Close()
			return nil, err
		}
		moves[m.Move] = m
		t, err := decodeTop(nil, blob)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("opening tree %s: %w", m.Move, err)
		}
		stored[m.Move] = t
		for _, e := range t {
			ids = append(ids, e.player)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(ids) > 0 {
		slices.Sort(ids)
		names := map[int64]string{}
		st, err := r.stmt(q, `SELECT id, name FROM players WHERE id IN (SELECT value FROM json_each(?))`)
		if err != nil {
			return nil, err
		}
		prow, err := st.QueryContext(q, jsonIDs(slices.Compact(ids)))
		if err != nil {
			return nil, err
		}
		for prow.Next() {
			var id int64
			var name string
			if err := prow.Scan(&id, &name); err != nil {
				prow.Close()
				return nil, err
			}
			names[id] = name
		}
		prow.Close()
		if err := prow.Err(); err != nil {
			return nil, err
		}
		for mv, t := range stored {
			for _, e := range t {
				if name, ok := names[e.player]; ok {
					if tops[mv] == nil {
						tops[mv] = map[string]int{}
					}
					tops[mv][name] += int(e.n)
				}
			}
		}
	}
	// The occurrences the aggregate does not count: main-line ones from
	// TreeDepth on.
	type liveRow struct {
		plies           int
		res, date, a, b sql.NullString
		blob            []byte
		fen             sql.NullString
	}
	mover := int(pos.ToMove())
	err = r.joinGames(ctx, r.occurrences(ctx, key^db.deepSalt), `1`, nil,
		`g.plies, g.result, g.date, a.name, b.name, g.moves, g.fen`,
		func(rows *sql.Rows) (int64, any, error) {
			var id int64
			var l liveRow
			err := rows.Scan(&id, &l.plies, &l.res, &l.date, &l.a, &l.b, &l.blob, &l.fen)
			return id, &l, err
		},
		func(at int64, row any) bool {
			_, ply, v := unpackAt(at)
			l := row.(*liveRow)
			if v != 0 || ply < TreeDepth || ply >= l.plies {
				return true
			}
			ml, err := decodeMoves(l.blob)
			if err != nil {
				return true
			}
			start, err := rg.NewPosition(l.fen.String)
			if err != nil {
				return true
			}
			text, ok := mainText(ml, start, ply)
			if !ok {
				return true
			}
			res, date, a, b := l.res, l.date, l.a, l.b
			m := moves[text]
			if m == nil {
				m = &TreeMove{Move: text, First: date.String, Last: date.String}
				moves[text] = m
			}
			m.Games++
			if s0, s1, ok := scores(res.String); ok {
				m.Scored++
				m.Score[0] += s0
				m.Score[1] += s1
			}
			if d := date.String; d != "" {
				if m.First == "" || d < m.First {
					m.First = d
				}
				if d > m.Last {
					m.Last = d
				}
			}
			if name := [2]string{a.String, b.String}[mover]; name != "" {
				if tops[text] == nil {
					tops[text] = map[string]int{}
				}
				tops[text][name]++
			}
			return true
		})
	if err != nil {
		return nil, err
	}
	out := make([]TreeMove, 0, len(moves))
	for _, m := range moves {
		for name, n := range tops[m.Move] {
			m.Top = append(m.Top, PlayerCount{name, n})
		}
		sort.Slice(m.Top, func(i, j int) bool {
			if m.Top[i].Games != m.Top[j].Games {
				return m.Top[i].Games > m.Top[j].Games
			}
			return m.Top[i].Name < m.Top[j].Name
		})
		if len(m.Top) > 3 {
			m.Top = m.Top[:3]
		}
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Games != out[j].Games {
			return out[i].Games > out[j].Games
		}
		return out[i].Move < out[j].Move
	})
	return out, nil
}

// ErrorEntry is an invalid game and why.
type ErrorEntry struct {
	ID     int64
	Game   string
	File   string
	Line   int // of the error (0 if unknown)
	Col    int
	Ply    int
	Move   string
	Rule   string
	Err    string
	Record int // line where the record starts
}

// Errors lists the invalid games, in import order.
func (db *DB) Errors(ctx context.Context, limit, offset int) ([]ErrorEntry, int, error) {
	if limit <= 0 {
		limit = 1 << 62
	}
	var total int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE valid = 0`).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT g.id, g.game, s.path, g.err_line, g.err_col, g.err_ply, g.err_move, g.err_rule, g.err, g.line
		FROM games g LEFT JOIN sources s ON s.id = g.source WHERE g.valid = 0 ORDER BY g.id LIMIT ? OFFSET ?`, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []ErrorEntry
	for rows.Next() {
		var e ErrorEntry
		var file, mv, rule, msg sql.NullString
		var line, col, ply, rline sql.NullInt64
		if err := rows.Scan(&e.ID, &e.Game, &file, &line, &col, &ply, &mv, &rule, &msg, &rline); err != nil {
			return nil, 0, err
		}
		e.File, e.Line, e.Col, e.Ply = file.String, int(line.Int64), int(col.Int64), int(ply.Int64)
		e.Move, e.Rule, e.Err, e.Record = mv.String, rule.String, msg.String, int(rline.Int64)
		out = append(out, e)
	}
	return out, total, rows.Err()
}

// GameCount is the number of games of one ruleset.
type GameCount struct {
	Game           string
	Valid, Invalid int
	Plies          int64
}

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

// Info counts what the database holds (the games per ruleset from the
// counts the last import stored and the games added since: gameCounts).
func (db *DB) Info(ctx context.Context) (Info, error) {
	in := Info{Dir: db.dir}
	c, err := db.gameCounts(ctx)
	if err != nil {
		return Info{Dir: db.dir}, err
	}
	in.Games = c.Games
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM players`).Scan(&in.Players); err != nil {
		return Info{Dir: db.dir}, err
	}
	var sb sql.NullInt64
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*), SUM(size) FROM sources`).Scan(&in.Sources, &sb); err != nil {
		return Info{Dir: db.dir}, err
	}
	in.SourceBytes = sb.Int64
	if in.TextIndexed, err = db.metaInt(ctx, db.sql, "text_hw"); err != nil {
		return Info{Dir: db.dir}, err
	}
	if in.PositionRuns, err = db.PositionRuns(ctx); err != nil {
		return Info{Dir: db.dir}, err
	}
	if err := db.sql.QueryRowContext(ctx, `SELECT f.freelist_count * s.page_size FROM pragma_freelist_count f, pragma_page_size s`).Scan(&in.FreeBytes); err != nil {
		return Info{Dir: db.dir}, err
	}
	in.SQLiteBytes = dirSize(db.dir, func(name string) bool { return strings.HasPrefix(name, sqliteName) })
	in.TextBytes = dirSize(db.textPath(), nil)
	return in, nil
}

// PositionRuns is the number of runs of the position index: a lookup
// reads a block of each.
func (db *DB) PositionRuns(ctx context.Context) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs`).Scan(&n)
	return n, err
}

// Cross is one player's line of a crosstable.
type Cross struct {
	Player string
	Games  int
	Score  float64
	// Against[j] is the score against player j of the table, and Met[j]
	// the number of games.
	Against []float64
	Met     []int
}

// Crosstable scores the valid games of a query (typically an event)
// player against player, with the points of the Result (Dejarik points
// included). Players are sorted by score.
func (db *DB) Crosstable(ctx context.Context, q Query) ([]Cross, error) {
	return db.CrosstableProgress(ctx, q, nil)
}

// CrosstableProgress is Crosstable calling progress from time to time with
// the games read and an upper bound of those to read (the highest game id).
func (db *DB) CrosstableProgress(ctx context.Context, q Query, progress func(done, total int)) ([]Cross, error) {
	w, empty, err := db.filters(ctx, &q)
	if err != nil || empty {
		return nil, err
	}
	var maxID int
	if progress != nil {
		db.sql.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM games`).Scan(&maxID)
	}
	read := 0
	rows, err := db.sql.QueryContext(ctx, `SELECT a.name, b.name, g.result FROM `+hitJoin+` WHERE `+w.String()+` AND g.p0 IS NOT NULL AND g.p1 IS NOT NULL`, w.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type pair struct{ a, b string }
	score := map[pair]float64{}
	met := map[pair]int{}
	players := map[string]*Cross{}
	for rows.Next() {
		var a, b, res sql.NullString
		if err := rows.Scan(&a, &b, &res); err != nil {
			return nil, err
		}
		if read++; progress != nil && read%4096 == 0 {
			progress(read, max(read, maxID))
		}
		s0, s1, ok := scores(res.String)
		if !ok {
			continue
		}
		for _, n := range []string{a.String, b.String} {
			if players[n] == nil {
				players[n] = &Cross{Player: n}
			}
		}
		players[a.String].Games++
		players[b.String].Games++
		players[a.String].Score += s0
		players[b.String].Score += s1
		score[pair{a.String, b.String}] += s0
		score[pair{b.String, a.String}] += s1
		met[pair{a.String, b.String}]++
		met[pair{b.String, a.String}]++
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]Cross, 0, len(players))
	for _, c := range players {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Player < out[j].Player
	})
	for i := range out {
		out[i].Against = make([]float64, len(out))
		out[i].Met = make([]int, len(out))
		for j := range out {
			p := pair{out[i].Player, out[j].Player}
			out[i].Against[j], out[i].Met[j] = score[p], met[p]
		}
	}
	return out, nil
}

// Position resolves text to a position of the ruleset game: a position in
// its notation, or a list of moves from the start (move numbers allowed),
// or "" for the start.
func Position(game, text string) (rules.Position, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrQuery, err)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return g.NewPosition("")
	}
	pos, perr := g.NewPosition(text)
	if perr == nil {
		return pos, nil
	}
	pos, err = positionAfter(g, text)
	if err != nil {
		return nil, fmt.Errorf("%w: %q is neither a position (%s) nor moves from the start (%s)", ErrQuery,
			record.Clip(text, 80), record.ClipWords(perr.Error(), 80), record.ClipWords(err.Error(), 80))
	}
	return pos, nil
}

// PositionAfter is the position after moves (space-separated, move numbers
// allowed) from the start of the ruleset game.
func PositionAfter(game, moves string) (rules.Position, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrQuery, err)
	}
	pos, err := positionAfter(g, moves)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrQuery, err)
	}
	return pos, nil
}

// positionAfter plays moves from the start of g; its error names the move
// that cannot be played and its number.
func positionAfter(g rules.Game, moves string) (rules.Position, error) {
	pos, err := g.NewPosition("")
	if err != nil {
		return nil, err
	}
	n := 0
	for _, tok := range strings.Fields(moves) {
		if n := strings.TrimRight(tok, "."); isNumber(n) {
			continue
		}
		n++
		m, err := pos.ParseMove(tok)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", n, tok, err)
		}
		pos.Play(m)
	}
	return pos, nil
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && s != ""
}
