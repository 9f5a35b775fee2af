package generate

import (
	"context"
	"io"
	"runtime"

	"github.com/plateau/plateau/internal/pipeline"
	"github.com/plateau/plateau/record"
)

// Options change how a collection is written.
type Options struct {
	// Workers is the number of goroutines that play games; 0 means
	// GOMAXPROCS. The output does not depend on it.
	Workers int
	// First is the index of the first game (to make a collection in parts).
	First int
	// Progress, when set, is called from the writing goroutine with the
	// number of games written so far, every few hundred games.
	Progress func(games int)
}

// Stats sum up a collection written.
type Stats struct {
	Games int
	Plies int   // main-line plies
	Bytes int64 // bytes written
}

// chunk is a run of consecutive games formatted by one worker.
type chunk struct {
	buf   []byte
	games int
	plies int
	err   error
}

const chunkGames = 64

// Write writes games [opts.First, opts.First+n) of the generator's collection
// to w, in canonical record format and in index order, playing them on
// opts.Workers goroutines (package internal/pipeline: chunks of chunkGames
// games, at most four per worker in flight, so that memory stays bounded).
func (g *Generator) Write(ctx context.Context, w io.Writer, n int, opts Options) (Stats, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	nChunks := (n + chunkGames - 1) / chunkGames
	if workers == 1 || nChunks <= 1 {
		return g.writeSerial(ctx, w, n, opts)
	}
	var st Stats
	free := make(chan []byte, 4*workers) // buffers written, for the workers to fill again
	chunks := func(_ context.Context, emit func(int) error) error {
		for c := range nChunks {
			if err := emit(c); err != nil {
				return err
			}
		}
		return nil
	}
	play := func(context.Context) func(int) *chunk {
		wk := g.NewWorker()
		return func(c int) *chunk {
			var buf []byte
			select {
			case buf = <-free:
			default:
			}
			lo := opts.First + c*chunkGames
			return wk.chunk(buf[:0], lo, min(opts.First+n, lo+chunkGames))
		}
	}
	write := func(c *chunk) error {
		if c.err != nil {
			return c.err
		}
		k, err := w.Write(c.buf)
		st.Bytes += int64(k)
		if err != nil {
			return err
		}
		st.Games += c.games
		st.Plies += c.plies
		if opts.Progress != nil {
			opts.Progress(st.Games)
		}
		select {
		case free <- c.buf:
		default:
		}
		return nil
	}
	err := pipeline.Run(ctx, pipeline.Options{Workers: workers, Results: workers, Window: 4 * workers}, chunks, play, write)
	return st, err
}

// chunk plays games [lo, hi) into buf, up to the first that fails.
func (w *Worker) chunk(buf []byte, lo, hi int) *chunk {
	ch := &chunk{buf: buf}
	for i := lo; i < hi; i++ {
		rec, err := w.Game(i)
		if err != nil {
			ch.err = err
			break
		}
		ch.buf = record.AppendFormat(ch.buf, rec)
		ch.games++
		ch.plies += len(rec.Moves)
	}
	return ch
}

func (g *Generator) writeSerial(ctx context.Context, w io.Writer, n int, opts Options) (Stats, error) {
	var st Stats
	wk := g.NewWorker()
	var buf []byte
	for i := opts.First; i < opts.First+n; i++ {
		rec, err := wk.Game(i)
		if err != nil {
			return st, err
		}
		buf = record.AppendFormat(buf, rec)
		st.Games++
		st.Plies += len(rec.Moves)
		if len(buf) >= 1<<16 || i == opts.First+n-1 {
			k, err := w.Write(buf)
			st.Bytes += int64(k)
			if err != nil {
				return st, err
			}
			buf = buf[:0]
			if opts.Progress != nil {
				opts.Progress(st.Games)
			}
			if err := ctx.Err(); err != nil {
				return st, err
			}
		}
	}
	return st, nil
}
