// Package pipeline runs an ordered fan-out/fan-in: one producer emits items
// in order, a pool of workers turns each item into a result in parallel, and
// one consumer receives the results in the order the items were emitted.
// The import (records → replay workers → the database's one writer) and the
// generator (game numbers → players → the output file) are such pipelines.
//
// Decisions:
//   - The consumer runs on the goroutine that calls Run, so that it may own
//     what must not be shared (a transaction, an io.Writer) and carry that
//     goroutine's profile labels; the producer and each worker run on a
//     goroutine of their own, which the worker's setup (Work) may label or
//     lock to a thread, as it lives until Run returns.
//   - An error of the consumer, or the end of ctx, stops everything: the
//     producer's emit fails, workers drop what they hold, and Run returns
//     that error once every goroutine it started has ended. An error of the
//     producer only ends the input: what was emitted before it is still
//     worked and consumed, then Run returns the producer's error. A
//     failing item is the caller's to encode in its result (the consumer
//     then returns the error to stop).
//   - Memory is bounded by the queues (Options.Queue, Options.Results) and,
//     since results wait for their turn in a reorder buffer, by
//     Options.Window, the items emitted and not yet consumed; without a
//     Window, a slow item lets the others pile up behind it, and the caller
//     bounds them otherwise (the import's memory budget).
package pipeline

import (
	"context"
	"runtime"
	"sync"
)

// Options size a pipeline. Zero values take the defaults.
type Options struct {
	// Workers is the number of worker goroutines; 0 means GOMAXPROCS.
	Workers int
	// Queue is the number of emitted items waiting for a worker; 0 means
	// twice the workers.
	Queue int
	// Results is the number of results waiting for the consumer, in any
	// order; 0 means twice the workers.
	Results int
	// Window, if positive, is the most items emitted and not yet consumed:
	// emit waits while that many are in flight.
	Window int
}

// Run runs the pipeline until the producer has returned and every item it
// emitted was consumed, or until an error (see the package doc).
//
// produce is called once, on a goroutine of its own, and calls emit for each
// item in order; emit returns an error (ctx's) when the pipeline stops, after
// which produce should return. work is called once on each worker's
// goroutine and returns the function that turns an item into its result,
// called for many items in turn on that goroutine. consume is called on the
// calling goroutine with each result, in emit order.
func Run[In, Out any](ctx context.Context, o Options, produce func(ctx context.Context, emit func(In) error) error,
	work func(ctx context.Context) func(In) Out, consume func(Out) error) error {
	o = o.withDefaults()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	in := make(chan item[In], o.Queue)
	out := make(chan item[Out], o.Results)
	var window chan struct{}
	if o.Window > 0 {
		window = make(chan struct{}, o.Window)
	}
	var perr error
	produced := make(chan struct{})
	go func() {
		defer close(produced)
		defer close(in)
		seq := 0
		perr = produce(ctx, func(v In) error {
			if window != nil {
				select {
				case window <- struct{}{}:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			select {
			case in <- item[In]{seq, v}:
				seq++
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	var wg sync.WaitGroup
	for range o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runWorker(ctx, in, out, work(ctx))
		}()
	}
	go func() { wg.Wait(); close(out) }()

	err := reorder(ctx, out, window, consume)
	if err != nil {
		cancel()
	}
	for range out { // the workers end: drop what they made
	}
	<-produced
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = perr
	}
	return err
}

// item is a value with its place in the producer's order.
type item[T any] struct {
	seq int
	v   T
}

func (o Options) withDefaults() Options {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Queue <= 0 {
		o.Queue = 2 * o.Workers
	}
	if o.Results <= 0 {
		o.Results = 2 * o.Workers
	}
	return o
}

// runWorker turns the items of in into results on out until in is closed
// or ctx is done.
func runWorker[In, Out any](ctx context.Context, in <-chan item[In], out chan<- item[Out], f func(In) Out) {
	for it := range in {
		if ctx.Err() != nil {
			return
		}
		r := item[Out]{it.seq, f(it.v)}
		select {
		case out <- r:
		case <-ctx.Done():
			return
		}
	}
}

// reorder gives the results of out to consume in sequence order, until out
// is closed, consume fails or ctx is done. A result freed from the reorder
// buffer frees a place of the window.
func reorder[Out any](ctx context.Context, out <-chan item[Out], window chan struct{}, consume func(Out) error) error {
	pending := map[int]Out{}
	next := 0
	for r := range out {
		pending[r.seq] = r.v
		for {
			v, ok := pending[next]
			if !ok {
				break
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			delete(pending, next)
			next++
			if err := consume(v); err != nil {
				return err
			}
			if window != nil {
				<-window
			}
		}
	}
	return nil
}
