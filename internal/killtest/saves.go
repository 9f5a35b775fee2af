package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// Saves are killed as imports are: a stream of saves (index.DB.SaveRecord,
// what plateau edit, tag and the web page's saves do) runs on a copy of a
// database of the file and is killed at random moments. After each kill
// every game must be at exactly one revision, whole: its record is the
// text of its current revision, that text is the game's first revision or
// one the stream made for it, and its validity, plies and positions
// (main lines, variations and the opening tree's rows) are those that
// text has in a fresh database. check runs first (integrity_check, the
// positions of every valid game, the tree's counts, the text index).

// saveSteps is the length of a save stream: long enough that kills fall
// among many saves, short enough to be bounded in time (a save commits
// positions, tree rows and its text document: docs/testing.md has the
// stream's time). The stream saves the first saveGames games over and
// over, so that each has many revisions.
const (
	saveSteps = 40
	saveGames = 8
)

// saveStream makes the saves from, from+1, …, from+steps-1 on the
// database dir: save s gives game 1 + s mod saveGames its revision s
// (revisionText) over its current revision.
func saveStream(ctx context.Context, dir string, from, steps int) error {
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := db.LastID(ctx)
	if err != nil || n < saveGames {
		return fmt.Errorf("%d games, fewer than the %d saved: %v", n, saveGames, err)
	}
	for s := from; s < from+steps; s++ {
		id := 1 + int64(s%saveGames)
		first, err := db.Revision(ctx, id, 1)
		if err != nil {
			return err
		}
		text, err := revisionText(first, s)
		if err != nil {
			return fmt.Errorf("game #%d: %w", id, err)
		}
		base, _, err := db.CurrentRevision(ctx, id)
		if err != nil {
			return err
		}
		if _, err := db.SaveRecord(ctx, id, text, base); err != nil {
			return fmt.Errorf("save %d of game #%d: %w", s, id, err)
		}
	}
	return nil
}

// revisionTag names, in a revision the stream made, the save that made it.
const revisionTag = "KilltestSave"

// revisionText is revision s of a game whose first revision is first:
// its main line cut after 1 + (7s mod plies) moves (so that positions and
// the opening tree's rows change, and the game may become invalid; a move
// at least, since check counts every valid game once in the start's
// tree), with the tag revisionTag s.
func revisionText(first []byte, s int) ([]byte, error) {
	g, err := record.NewReader(bytes.NewReader(first), "revision").Next()
	if err != nil {
		return nil, err
	}
	if len(g.Moves) > 1 {
		g.Moves = g.Moves[:1+(7*s)%len(g.Moves)]
	}
	g.SetTag(revisionTag, strconv.Itoa(s))
	return record.Format(g), nil
}

// signature is what a record text makes of a game: validity, plies, and a
// hash of its position rows (stored key, ply, variation), in order.
type signature struct {
	valid     bool
	plies     int
	positions [32]byte
}

// signatures reads the signature of every game of a database, by id.
func signatures(ctx context.Context, db *index.DB, q *sql.DB) (map[int64]signature, error) {
	rows := map[int64][][3]int64{}
	if err := db.ScanPositions(ctx, func(key, game int64, ply, vari int) error {
		rows[game] = append(rows[game], [3]int64{key, int64(ply), int64(vari)})
		return nil
	}); err != nil {
		return nil, err
	}
	sigs := map[int64]signature{}
	r, err := q.QueryContext(ctx, `SELECT id, valid, plies FROM games`)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	for r.Next() {
		var id int64
		var s signature
		if err := r.Scan(&id, &s.valid, &s.plies); err != nil {
			return nil, err
		}
		pos := rows[id]
		slices.SortFunc(pos, func(a, b [3]int64) int { return slices.Compare(a[:], b[:]) })
		h := sha256.New()
		for _, p := range pos {
			binary.Write(h, binary.LittleEndian, p)
		}
		copy(s.positions[:], h.Sum(nil))
		sigs[id] = s
	}
	return sigs, r.Err()
}

// reference gives the signature of a record text in a fresh database (one
// for the whole run, each text added once).
type reference struct {
	db   *index.DB
	q    *sql.DB
	seen map[[32]byte]signature
}

func openReference(ctx context.Context, dir string) (*reference, error) {
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		return nil, err
	}
	q, err := openSQL(dir)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &reference{db: db, q: q, seen: map[[32]byte]signature{}}, nil
}

func (r *reference) close() { r.q.Close(); r.db.Close() }

// of returns the signatures of texts, adding those not seen yet in one
// transaction and reading the positions once.
func (r *reference) of(ctx context.Context, texts [][]byte) ([]signature, error) {
	var batch []byte
	var fresh [][32]byte
	for _, t := range texts {
		k := sha256.Sum256(t)
		if _, ok := r.seen[k]; !ok && !slices.Contains(fresh, k) {
			fresh = append(fresh, k)
			batch = append(append(batch, t...), "\n\n"...)
		}
	}
	if len(fresh) > 0 {
		added, err := r.db.AddRecords(ctx, batch, "reference", replay.Options{})
		if err != nil || len(added) != len(fresh) {
			return nil, fmt.Errorf("reference: %d records of %d texts, %v", len(added), len(fresh), err)
		}
		sigs, err := signatures(ctx, r.db, r.q)
		if err != nil {
			return nil, err
		}
		for i, k := range fresh {
			r.seen[k] = sigs[added[i].ID]
		}
	}
	out := make([]signature, len(texts))
	for i, t := range texts {
		out[i] = r.seen[sha256.Sum256(t)]
	}
	return out, nil
}

// openSQL opens a database's SQLite file read-only, on a handle of its own.
func openSQL(dir string) (*sql.DB, error) {
	return sql.Open("sqlite3", (&url.URL{Scheme: "file", Opaque: (&url.URL{Path: filepath.Join(dir, "plateau.sqlite")}).EscapedPath(), RawQuery: "mode=ro"}).String())
}

// checkSaves checks a database after a killed save stream (see Saves): it
// returns how many of the games saved are at a revision the stream made.
func checkSaves(ctx context.Context, dir string, ref *reference, games int) (int, error) {
	if _, err := check(ctx, dir); err != nil {
		return 0, err
	}
	db, err := index.Open(ctx, dir, index.Options{ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	q, err := openSQL(dir)
	if err != nil {
		return 0, err
	}
	defer q.Close()
	sigs, err := signatures(ctx, db, q)
	if err != nil {
		return 0, err
	}
	if len(sigs) != games {
		return 0, fmt.Errorf("%d games, %d before the saves", len(sigs), games)
	}
	texts := make([][]byte, saveGames)
	saved := 0
	for i := range texts {
		id := int64(i + 1)
		n, text, err := currentWhole(ctx, db, id)
		if err != nil {
			return saved, fmt.Errorf("game #%d: %w", id, err)
		}
		if n > 1 {
			saved++
		}
		texts[i] = text
	}
	want, err := ref.of(ctx, texts)
	if err != nil {
		return saved, err
	}
	for i, w := range want {
		if got := sigs[int64(i+1)]; got != w {
			return saved, fmt.Errorf("game #%d: valid %v, %d plies, positions %x; its record makes valid %v, %d plies, positions %x (a mix of revisions)",
				i+1, got.valid, got.plies, got.positions[:4], w.valid, w.plies, w.positions[:4])
		}
	}
	return saved, nil
}

// currentWhole returns game id's current revision n and its text, having
// checked that the record is that text, that the history has revisions 1
// to n, and that the text is the game's first revision or one the stream
// made for it.
func currentWhole(ctx context.Context, db *index.DB, id int64) (int, []byte, error) {
	n, text, err := db.CurrentRevision(ctx, id)
	if err != nil {
		return 0, nil, err
	}
	var stored []byte
	if err := db.WithText(ctx, id, func(t []byte) error { stored = bytes.Clone(t); return nil }); err != nil {
		return n, nil, err
	}
	hist, err := db.History(ctx, id)
	if err != nil {
		return n, nil, err
	}
	if !bytes.Equal(stored, text) || len(hist) != n || hist[n-1].N != n {
		return n, nil, fmt.Errorf("the record (%d bytes) is not revision %d's text (%d bytes), or the history (%d revisions) skips", len(stored), n, len(text), len(hist))
	}
	if n > 1 {
		if err := madeByStream(ctx, db, id, text); err != nil {
			return n, nil, fmt.Errorf("revision %d: %w", n, err)
		}
	}
	return n, text, nil
}

// madeByStream checks that text is the revision the stream made of game
// id for the save its tag names.
func madeByStream(ctx context.Context, db *index.DB, id int64, text []byte) error {
	g, err := record.NewReader(bytes.NewReader(text), "current").Next()
	if err != nil {
		return err
	}
	s, err := strconv.Atoi(g.Tag(revisionTag))
	if err != nil || s < 0 || 1+int64(s%saveGames) != id {
		return fmt.Errorf("a revision without the tag %s of a save of this game (%q)", revisionTag, g.Tag(revisionTag))
	}
	first, err := db.Revision(ctx, id, 1)
	if err != nil {
		return err
	}
	made, err := revisionText(first, s)
	if err != nil {
		return err
	}
	if !bytes.Equal(record.Format(g), made) {
		return fmt.Errorf("the current revision is not save %d's text", s)
	}
	return nil
}

// killSaves kills save streams on a copy of db (a complete database of
// cfg.file, games games) at random moments (up to 1.2 times an
// uninterrupted stream of as many saves), checking it after each kill.
// The kth killed stream starts at save k·saveSteps/saveKills, so that the
// kills fall all along the stream. Then the whole stream runs again to its
// end: a game's last save decides its record, so the database must hold
// the records of an uninterrupted stream on another copy (query: the
// run's text query, compared too).
func killSaves(ctx context.Context, cfg config, db string, games int, query string, rep *report, log io.Writer, fail func(error)) {
	ref, err := openReference(ctx, filepath.Join(cfg.work, "saves-ref"))
	if err != nil {
		fail(err)
		return
	}
	defer ref.close()
	whole, killed := filepath.Join(cfg.work, "saves-whole"), filepath.Join(cfg.work, "saves-killed")
	for _, dst := range []string{whole, killed} {
		if err := os.CopyFS(dst, os.DirFS(db)); err != nil {
			fail(fmt.Errorf("copy of the database: %w", err))
			return
		}
	}
	start := time.Now()
	if out, err := cfg.saveCmd(whole, 0, saveSteps).CombinedOutput(); err != nil {
		fail(fmt.Errorf("uninterrupted saves: %v: %s", err, out))
		return
	}
	took := time.Since(start)
	if _, err := checkSaves(ctx, whole, ref, games); err != nil {
		fail(fmt.Errorf("after the uninterrupted saves: %w", err))
	}
	fmt.Fprintf(log, "uninterrupted saves: %d in %.1fs\n", saveSteps, took.Seconds())
	for tries := 0; rep.SaveKills < cfg.saveKills && tries < 4*cfg.saveKills; tries++ {
		from := rep.SaveKills * saveSteps / cfg.saveKills
		span := took * 6 / 5 * time.Duration(saveSteps-from) / saveSteps
		wait := time.Duration(cfg.rand.Int64N(int64(span) + 1))
		k, out, err := killAt(cfg.saveCmd(killed, from, saveSteps-from), wait)
		if err != nil {
			fail(fmt.Errorf("save stream ended with %v: %s", err, out))
		}
		if !k {
			continue
		}
		rep.SaveKills++
		saved, err := checkSaves(ctx, killed, ref, games)
		if err != nil {
			fail(fmt.Errorf("after save kill %d (%v into a stream from save %d): %w", rep.SaveKills, wait.Round(time.Millisecond), from, err))
		}
		fmt.Fprintf(log, "save kill %d at %v from save %d: %d of the %d games saved at a revision of the stream, each whole: %v\n",
			rep.SaveKills, wait.Round(time.Millisecond), from, saved, saveGames, err == nil)
	}
	if out, err := cfg.saveCmd(killed, 0, saveSteps).CombinedOutput(); err != nil {
		fail(fmt.Errorf("saves after the kills: %v: %s", err, out))
		return
	}
	if _, err := checkSaves(ctx, killed, ref, games); err != nil {
		fail(fmt.Errorf("after the saves' kills and a whole stream: %w", err))
	}
	a, _, errA := fingerprintOf(ctx, whole, query)
	b, _, errB := fingerprintOf(ctx, killed, query)
	if err := errors.Join(errA, errB); err != nil || a.hash != b.hash || a.games != b.games || !slices.Equal(a.text, b.text) {
		fail(fmt.Errorf("after the saves: %d games, records %.16s, text query %d games; uninterrupted: %d, %.16s, %d (%v)",
			b.games, b.hash, len(b.text), a.games, a.hash, len(a.text), err))
		return
	}
	fmt.Fprintf(log, "saves: the same %d records and text query as an uninterrupted stream\n", a.games)
}
