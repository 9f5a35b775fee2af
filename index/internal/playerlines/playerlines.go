// Package playerlines stores what the opening tree of a player's games
// reads of each of them, so that the tree's first read of a player's games
// takes a range of small rows instead of the games' rows: per player and
// side, each valid game's opening line (the main line's moves before ply
// gamerows.TreeDepth, the huffs among them included), its result, date,
// start position when not the standard one, the opponent, the event and
// both sides' ratings: every criterion of a player's tree but the text's
// is answered from the lines (Filter).
//
// Decisions:
//
//   - One table clustered by (player, side, game), WITHOUT ROWID: the
//     games of a player as one side are one range of it, read in game
//     order a few hundred to a page, where the games table gives one of
//     them a page. A game has a line for each side that names a player
//     (two when both do, even for one player on both sides).
//   - A row is a chunk of up to MaxChunk lines of one player and side, in
//     game order, under its first game: the games a transaction stores
//     make a chunk per player and side. A reader steps through a row per
//     chunk, not per game (a row costs a reader far more than a line's
//     decoding); a game deleted rewrites its chunk.
//   - The moves are stored as their values, not with the keys of the
//     positions they are played from: the reader replays them (a few
//     plies), keys would triple a row's size.
//   - The ruleset, the result and the date, as the games table holds
//     them, are coded in a few bytes when they have the usual forms (a
//     ruleset of a fixed list, a result of 1-0, 0-1, 1/2-1/2 or *, a date of
//     YYYY.MM.DD with ?? parts), and are kept as written otherwise: a line
//     decodes to exactly the games row's values. The ruleset is kept
//     because a player's selection holds their games of every ruleset, and
//     two rulesets may share keys (dames and dames-brigand).
//   - The event is an id of the table event_names (EventsTable), which
//     holds each event's name once: a line takes a byte or two for it,
//     and an event criterion (a part of the name) is matched against the
//     names once, then against the ids. It is the line's first value, so
//     that Put, which looks the names up in the transaction, writes it in
//     front of a line encoded without it.
//   - The ratings are the values of the tags named after the sides with
//     Elo (SenteElo, WhiteElo…), as the tags table holds them: a whole
//     number is coded as its value, anything else kept as written, so
//     that a rating band reads them as criteria's SQL does.
//   - The writer stores a game's rows in the game's transaction and
//     deletes them with it (Forget); an upgrade fills the table from the
//     stored games (Fill).
package playerlines

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/rules"
)

// Table is the table of the lines: chunks of the lines of a player's
// games as one side, each under its first game (chunks.go).
const Table = `CREATE TABLE IF NOT EXISTS player_lines(
	player INTEGER NOT NULL, side INTEGER NOT NULL, game INTEGER NOT NULL, lines BLOB NOT NULL,
	PRIMARY KEY(player, side, game)) WITHOUT ROWID`

// EventsTable holds the names of the lines' events, each once.
const EventsTable = `CREATE TABLE IF NOT EXISTS event_names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)`

// ErrCorrupt: a stored line does not decode.
var ErrCorrupt = errors.New("player line: corrupt")

// Line is what a player's tree reads of a game.
type Line struct {
	Game     string // the ruleset
	Opponent int64  // the other side's player id; 0: none
	Result   string // the games row's result ("" for none)
	Date     string // the games row's date ("" for none)
	FEN      string // the start position when not the standard one
	Event    int64  // the event's id in event_names; 0: none
	// Elo are the sides' ratings (side 0 first), as the tags table holds
	// them; "" for none.
	Elo [2]string
	// Moves are the main line's moves before ply gamerows.TreeDepth, the
	// huffs among them included, as the game plays them.
	Moves []rules.Move
}

// The flags of a line's second value (after the event): a start
// position follows, ratings follow, the result's code (results) and the
// ruleset's (games).
const (
	flagFEN     = 1
	flagRated   = 2
	resultShift = 2
	resultBits  = 3
	resultRaw   = 7 // the result follows as written
	gameShift   = resultShift + resultBits
	gameRaw     = 0 // the ruleset follows as written
)

// results are the results coded by their index (0: none).
var results = [...]string{"", "1-0", "0-1", "1/2-1/2", "*"}

// games are the rulesets coded by their index (0: gameRaw). The list is
// part of the stored form: a ruleset added later is appended.
var games = [...]string{"", "ogi", "dames", "dames-brigand", "loup-moutons", "jetan", "dejarik", "sauts", "draughts",
	"antidraughts", "brazilian", "breakthrough", "canadian", "checkers", "czech", "frisian", "frysk", "italian",
	"pool", "portuguese", "russian", "spanish", "spantsiretti", "thai", "turkish"}

// Append appends the encoded l to dst.
func Append(dst []byte, l *Line) []byte {
	code := uint64(resultRaw)
	if i := slices.Index(results[:], l.Result); i >= 0 {
		code = uint64(i)
	}
	game := uint64(max(0, slices.Index(games[:], l.Game)))
	flags := code<<resultShift | game<<gameShift
	if l.FEN != "" {
		flags |= flagFEN
	}
	rated := l.Elo != [2]string{}
	if rated {
		flags |= flagRated
	}
	dst = binary.AppendUvarint(dst, uint64(l.Event))
	dst = binary.AppendUvarint(dst, flags)
	if game == gameRaw {
		dst = appendString(dst, l.Game)
	}
	if l.FEN != "" {
		dst = appendString(dst, l.FEN)
	}
	if code == resultRaw {
		dst = appendString(dst, l.Result)
	}
	dst = appendDate(dst, l.Date)
	if rated {
		dst = appendElo(appendElo(dst, l.Elo[0]), l.Elo[1])
	}
	dst = binary.AppendUvarint(dst, uint64(l.Opponent))
	dst = binary.AppendUvarint(dst, uint64(len(l.Moves)))
	for _, m := range l.Moves {
		dst = binary.AppendUvarint(dst, uint64(m))
	}
	return dst
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// A date is coded 0 for none, 1 followed by its text when it is not of
// the packed form, and 2+packDate otherwise.
const (
	dateNone = 0
	dateRaw  = 1
	datePack = 2
)

// The packed form of YYYY.MM.DD: months 00–12 and days 00–31, ?? as
// unknownMonth and unknownDay.
const (
	unknownMonth = 13
	unknownDay   = 32
)

// packDate packs a date of the form YYYY.MM.DD (digits or ?? for month and
// day); false when it is not of that form or would not read back as
// written.
func packDate(s string) (uint64, bool) {
	if len(s) != 10 || s[4] != '.' || s[7] != '.' {
		return 0, false
	}
	y, err := strconv.ParseUint(s[:4], 10, 16)
	if err != nil {
		return 0, false
	}
	part := func(p string, unknown, most uint64) (uint64, bool) {
		if p == "??" {
			return unknown, true
		}
		v, err := strconv.ParseUint(p, 10, 8)
		return v, err == nil && v <= most
	}
	m, ok1 := part(s[5:7], unknownMonth, 12)
	d, ok2 := part(s[8:10], unknownDay, 31)
	v := (y*(unknownMonth+1)+m)*(unknownDay+1) + d
	if !ok1 || !ok2 || unpackDate(v) != s {
		return 0, false
	}
	return v, true
}

// unpackDate is the text of a packed date.
func unpackDate(v uint64) string {
	d := v % (unknownDay + 1)
	v /= unknownDay + 1
	m, y := v%(unknownMonth+1), v/(unknownMonth+1)
	b := make([]byte, 10)
	b[4], b[7] = '.', '.'
	two := func(at int, v, unknown uint64) {
		if v == unknown {
			b[at], b[at+1] = '?', '?'
			return
		}
		b[at], b[at+1] = byte('0'+v/10), byte('0'+v%10)
	}
	two(0, y/100%100, 100)
	two(2, y%100, 100)
	two(5, m, unknownMonth)
	two(8, d, unknownDay)
	return string(b)
}

func appendDate(dst []byte, s string) []byte {
	if s == "" {
		return binary.AppendUvarint(dst, dateNone)
	}
	if v, ok := packDate(s); ok {
		return binary.AppendUvarint(dst, datePack+v)
	}
	dst = binary.AppendUvarint(dst, dateRaw)
	return appendString(dst, s)
}

// A rating is coded 0 for none, 1 followed by its text when it is not a
// whole number written as strconv writes it, and 2+its value otherwise.
const (
	eloNone = 0
	eloRaw  = 1
	eloPack = 2
)

func appendElo(dst []byte, s string) []byte {
	if s == "" {
		return binary.AppendUvarint(dst, eloNone)
	}
	if v, err := strconv.ParseUint(s, 10, 62); err == nil && isFormatted(v, s) {
		return binary.AppendUvarint(dst, eloPack+v)
	}
	dst = binary.AppendUvarint(dst, eloRaw)
	return appendString(dst, s)
}

// isFormatted reports whether s is v as strconv writes it (without
// allocating the text).
func isFormatted(v uint64, s string) bool {
	var b [20]byte
	return string(strconv.AppendUint(b[:0], v, 10)) == s
}

func (d *decoder) elo() string {
	switch v := d.uvarint(); v {
	case eloNone:
		return ""
	case eloRaw:
		return d.string()
	default:
		return strconv.FormatUint(v-eloPack, 10)
	}
}

// decoder reads a line's values.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = ErrCorrupt
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) string() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = ErrCorrupt
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// Decode decodes a line into l (its Moves' memory used again); an error
// wraps ErrCorrupt.
func Decode(b []byte, l *Line) error {
	d := decoder{b: b}
	l.Event = int64(d.uvarint())
	flags := d.uvarint()
	l.FEN, l.Result, l.Elo = "", "", [2]string{}
	switch game := flags >> gameShift; {
	case game == gameRaw:
		l.Game = d.string()
	case game < uint64(len(games)):
		l.Game = games[game]
	default:
		d.err = ErrCorrupt
	}
	if flags&flagFEN != 0 {
		l.FEN = d.string()
	}
	switch code := flags >> resultShift & (1<<resultBits - 1); {
	case code == resultRaw:
		l.Result = d.string()
	case code < uint64(len(results)):
		l.Result = results[code]
	default:
		d.err = ErrCorrupt
	}
	switch v := d.uvarint(); v {
	case dateNone:
		l.Date = ""
	case dateRaw:
		l.Date = d.string()
	default:
		l.Date = unpackDate(v - datePack)
	}
	if flags&flagRated != 0 {
		l.Elo[0] = d.elo()
		l.Elo[1] = d.elo()
	}
	l.Opponent = int64(d.uvarint())
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err = ErrCorrupt
	}
	l.Moves = l.Moves[:0]
	for i := uint64(0); i < n && d.err == nil; i++ {
		l.Moves = append(l.Moves, rules.Move(d.uvarint()))
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = ErrCorrupt
	}
	if d.err != nil {
		return fmt.Errorf("%w (%d bytes)", d.err, len(b))
	}
	return nil
}

// Moves are the main-line moves of a stored move list (internal/movelist)
// before ply depth from start, the huffs among them included, as the
// import keeps them (gamerows.Rows.TreeLine); an error when the list does
// not decode or a move does not play.
func Moves(blob []byte, start rules.Position, depth int) (out []rules.Move, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, fmt.Errorf("%w: a move does not play: %v", movelist.ErrCorrupt, v)
		}
	}()
	pos := start.Clone()
	d := movelist.NewDecoder(blob)
	p := 0
	for n := d.Uvarint(); n > 0 && p < depth; n-- {
		m, nv := d.Step()
		for ; nv > 0 && d.Err() == nil; nv-- {
			movelist.SkipLine(&d)
		}
		if d.Err() != nil {
			return nil, d.Err()
		}
		if !rules.KeepsTurn(pos, m) {
			p++
		}
		out = append(out, m)
		pos.Play(m)
	}
	return out, d.Err()
}

// fillBatch is the number of rows Fill holds before it stores them.
const fillBatch = 1 << 16

// Fill stores the lines of every valid game of the database in tx (an
// upgrade: the table is empty), fillBatch rows at a time. A game whose
// moves cannot be read again is an error: its player's tree would miss it.
func Fill(ctx context.Context, tx *sql.Tx, depth int) error {
	elos, err := readElos(ctx, tx)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, game, p0, p1, event, result, date, fen, moves FROM games
		WHERE valid = 1 AND (p0 IS NOT NULL OR p1 IS NOT NULL)`)
	if err != nil {
		return err
	}
	defer rows.Close()
	p := txStmts{tx: tx}
	starts := map[string]rules.Position{}
	var out []Row
	for rows.Next() {
		var id int64
		var game string
		var p0, p1 sql.NullInt64
		var event, res, date, fen sql.NullString
		var blob []byte
		if err := rows.Scan(&id, &game, &p0, &p1, &event, &res, &date, &fen, &blob); err != nil {
			return err
		}
		start, err := startOf(starts, game, fen.String)
		if err != nil {
			return fmt.Errorf("game #%d: %w", id, err)
		}
		l := Line{Game: game, Result: res.String, Date: date.String, FEN: fen.String, Elo: elos.of(id, game)}
		if l.Moves, err = Moves(blob, start, depth); err != nil {
			return fmt.Errorf("game #%d: %w", id, err)
		}
		out = Rows(out, id, [2]int64{p0.Int64, p1.Int64}, event.String, &l)
		if len(out) >= fillBatch {
			if err := Put(ctx, &p, out); err != nil {
				return err
			}
			out = out[:0]
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return Put(ctx, &p, out)
}

// startOf is the start position of a game of ruleset game from fen (""
// for the standard one, kept in starts by ruleset).
func startOf(starts map[string]rules.Position, game, fen string) (rules.Position, error) {
	if fen == "" {
		if p, ok := starts[game]; ok {
			return p, nil
		}
	}
	rg, err := rules.Lookup(game)
	if err != nil {
		return nil, err
	}
	p, err := rg.NewPosition(fen)
	if err == nil && fen == "" {
		starts[game] = p
	}
	return p, err
}

// txStmts prepares Fill's statements once in its transaction.
type txStmts struct {
	tx    *sql.Tx
	stmts store.Stmts
}

func (s *txStmts) Stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	return s.stmts.Stmt(ctx, s.tx, query)
}
