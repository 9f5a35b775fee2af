package pattern

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"slices"

	"github.com/plateau/plateau/internal/pipeline"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Querier runs the scan's queries: a *sql.DB, *sql.Conn or *sql.Tx.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// A Match is a game that matched and where it first matched.
type Match struct {
	ID  int64
	Ply int
	Var bool // in a variation
}

// Scanner tests the stored games of one compiled pattern (Scan).
type Scanner struct {
	Game    rules.Game
	Matcher *Matcher
	// Record reads the record of a Stale game, to match it from its
	// record (Worker.MatchRecord). Scan calls it on its caller's
	// goroutine, in id order.
	Record func(id int64) (*record.Game, error)
	// Filter, when not nil, skips the games whose signature (the table
	// pattern_sigs, internal/patsig) rules out a match before their rows
	// are read (readFiltered): every game that cond selects must then
	// have a signature row, empty for none.
	Filter *Prefilter
}

// batch is a run of consecutive candidate games; the move lists are
// slices of arena. Batches are recycled.
type batch struct {
	cands []Cand
	arena []byte
}

const batchGames = 256

// errStop stops a scan whose caller has had enough.
var errStop = errors.New("scan stopped")

// Scan tests the games of the games table g that cond (SQL with args)
// selects, in id order, from their columns id, fen, final and moves,
// through an ordered fan-out (internal/pipeline): the rows are read in
// batches, one worker per CPU tests whole batches, and found is called on
// the calling goroutine with each match in id order (a stale game is
// matched from its record there). found returns false to stop the scan.
// An error names the game it is about.
func (s *Scanner) Scan(ctx context.Context, q Querier, cond string, args []any, found func(Match) bool) error {
	workers := max(runtime.GOMAXPROCS(0), 1)
	nbatch := 2*workers + 2
	free := make(chan *batch, nbatch) // batches the consumer is done with
	stale := NewWorker(s.Game, s.Matcher)
	err := pipeline.Run(ctx, pipeline.Options{Workers: workers, Window: nbatch},
		func(ctx context.Context, emit func(*batch) error) error {
			if s.Filter != nil {
				return readFiltered(ctx, q, s.Filter, cond, args, free, emit)
			}
			return readBatches(ctx, q, cond, args, free, emit)
		},
		func(context.Context) func(*batch) *batch {
			pw := NewWorker(s.Game, s.Matcher)
			return func(b *batch) *batch {
				for i := range b.cands {
					pw.MatchGame(&b.cands[i])
				}
				return b
			}
		},
		func(b *batch) error {
			err := s.take(b, stale, found)
			select {
			case free <- b:
			default:
			}
			return err
		})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// take passes the matches of a batch, the next in order, to found; it
// matches stale games from their records with w.
func (s *Scanner) take(b *batch, w *Worker, found func(Match) bool) error {
	for i := range b.cands {
		cd := &b.cands[i]
		if cd.Stale && cd.Err == nil {
			rec, err := s.Record(cd.ID)
			if err != nil {
				return fmt.Errorf("game %d: %w", cd.ID, err)
			}
			w.MatchRecord(rec, cd)
		}
		if cd.Err != nil {
			return fmt.Errorf("game %d: %w", cd.ID, cd.Err)
		}
		if cd.OK && !found(Match{cd.ID, cd.Ply, cd.Var}) {
			return errStop
		}
	}
	return nil
}

// readBatches reads the candidate games in id order into batches, taken
// from free when the consumer gave some back, and emits them.
func readBatches(ctx context.Context, q Querier, cond string, args []any, free <-chan *batch, emit func(*batch) error) error {
	rows, err := q.QueryContext(ctx, `SELECT g.id, g.fen, g.final, g.moves FROM games g WHERE `+cond+` ORDER BY g.id`, args...)
	if err != nil {
		return err
	}
	return emitRows(rows, free, emit)
}

// emitRows reads rows of candidate games (id, fen, final, moves) into
// batches, taken from free when the consumer gave some back, and emits
// them; it closes rows.
func emitRows(rows *sql.Rows, free <-chan *batch, emit func(*batch) error) error {
	defer rows.Close()
	var err error
	r := rowReader{rows: rows}
	r.dst = []any{&r.id, &r.fen, &r.final, &r.moves} // allocated once
	for more := true; more; {
		var b *batch
		select {
		case b = <-free:
		default:
			b = &batch{cands: make([]Cand, 0, batchGames)}
		}
		if more, err = r.fill(b); err != nil {
			return err
		}
		if len(b.cands) > 0 {
			if err := emit(b); err != nil {
				return err
			}
		}
	}
	return rows.Err()
}

// rowReader scans the candidates' rows into batches.
type rowReader struct {
	rows  *sql.Rows
	id    int64
	fen   sql.NullString
	final sql.NullInt64
	moves sql.RawBytes
	dst   []any
}

// fill reads up to batchGames rows into b; more is false once the rows
// are done.
func (r *rowReader) fill(b *batch) (more bool, err error) {
	b.cands, b.arena = b.cands[:0], b.arena[:0]
	for len(b.cands) < batchGames {
		if !r.rows.Next() {
			break
		}
		if err := r.rows.Scan(r.dst...); err != nil {
			return false, err
		}
		start := len(b.arena)
		b.arena = append(b.arena, r.moves...)
		b.cands = append(b.cands, Cand{ID: r.id, FEN: r.fen.String, Final: r.final.Int64,
			Moves: b.arena[start:]}) // sliced again below
	}
	// The arena may have moved while it grew: slice it again.
	off := 0
	for i := range b.cands {
		n := len(b.cands[i].Moves)
		b.cands[i].Moves = b.arena[off : off+n : off+n]
		off += n
	}
	return len(b.cands) == batchGames, nil
}

// FENIndex is the index of the games that start from a position of their
// own, by ruleset, that Layouts reads instead of the whole games table.
const FENIndex = `CREATE INDEX IF NOT EXISTS games_fen ON games(game, fen) WHERE fen IS NOT NULL`

// Layouts are the boards that the games of ruleset g in the games table
// are played on, for Check: those of the start position and of the start
// positions (FEN) of its stored valid games, since a FEN may choose
// another board (a 10×10 loup-moutons). None when g's positions do not
// expose their cells (rules.Cells). A start position that cannot be read
// adds nothing.
func Layouts(ctx context.Context, q Querier, g rules.Game) ([]*rules.Layout, error) {
	var layouts []*rules.Layout
	add := func(fen string) {
		pos, err := g.NewPosition(fen)
		if err != nil {
			return
		}
		if c, ok := pos.(rules.Cells); ok && !slices.Contains(layouts, c.Layout()) {
			layouts = append(layouts, c.Layout())
		}
	}
	add("")
	if len(layouts) == 0 {
		return nil, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT fen FROM games WHERE game = ? AND valid = 1 AND fen IS NOT NULL LIMIT 1000`, g.ID())
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var fen string
		if rows.Scan(&fen) == nil {
			add(fen)
		}
	}
	rows.Close()
	return layouts, nil
}
