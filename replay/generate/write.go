package generate

import (
	"context"
	"io"
	"runtime"
	"sync"

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
	idx   int
	buf   []byte
	games int
	plies int
	err   error
}

const chunkGames = 64

// Write writes games [opts.First, opts.First+n) of the generator's collection
// to w, in canonical record format and in index order, playing them on
// opts.Workers goroutines.
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	done := make(chan *chunk, workers)
	free := make(chan []byte, 4*workers)
	// At most 4×workers chunks are in flight, so memory stays bounded.
	tokens := make(chan struct{}, 4*workers)
	go func() {
		defer close(jobs)
		for c := 0; c < nChunks; c++ {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := g.NewWorker()
			for c := range jobs {
				var buf []byte
				select {
				case buf = <-free:
				default:
				}
				ch := &chunk{idx: c, buf: buf[:0]}
				lo := opts.First + c*chunkGames
				hi := min(opts.First+n, lo+chunkGames)
				for i := lo; i < hi && ch.err == nil; i++ {
					rec, err := wk.Game(i)
					if err != nil {
						ch.err = err
						break
					}
					ch.buf = record.AppendFormat(ch.buf, rec)
					ch.games++
					ch.plies += len(rec.Moves)
				}
				select {
				case done <- ch:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()

	pending := map[int]*chunk{}
	next := 0
	var err error
	for ch := range done {
		if err != nil {
			continue // drain
		}
		pending[ch.idx] = ch
		for {
			c, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if c.err != nil {
				err = c.err
				cancel()
				break
			}
			k, werr := w.Write(c.buf)
			st.Bytes += int64(k)
			if werr != nil {
				err = werr
				cancel()
				break
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
			<-tokens
		}
	}
	if err == nil {
		err = ctx.Err()
	}
	return st, err
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
