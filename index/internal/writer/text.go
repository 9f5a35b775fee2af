package writer

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/textindex"
	"github.com/plateau/plateau/internal/nice"
)

// An import holds the text index only while it indexes up to textTurn
// documents of one commit, so that a reader in another process (plateau
// search --text, serve) opens it between two turns; after releasing it,
// it waits textYield: longer than boltdb's 50 ms retry period, so that a
// waiting reader gets in.
const (
	textTurn  = 10000
	textYield = 120 * time.Millisecond
)

// DocOf is the text-index document of a game: what an import indexes, and
// what the façade builds again from the stored rows (edits, catch-up).
func DocOf(id int64, p *gamerows.Rows) textindex.Doc {
	return textindex.Doc{ID: id, Game: p.Game, Result: p.Result, Date: p.Date,
		Players: strings.TrimSpace(p.Players[0] + " ; " + p.Players[1]),
		Event:   p.Event, Site: p.Site, Annotator: p.Annot, Comments: p.Comment}
}

// textStage indexes the games of each commit for text search, after the
// commit, and publishes the highest id indexed for the next commit to
// record (the text index's high-water mark).
type textStage struct {
	docs  chan []textindex.Doc
	hw, n atomic.Int64 // the highest id indexed, and the games indexed
	err   error        // read after done
	// build makes the documents of every turn, so that a value met in
	// one turn is not analyzed again in the next.
	build textindex.Builder
	done  chan struct{}
}

func (r *importRun) startText(ctx context.Context) *textStage {
	t := &textStage{docs: make(chan []textindex.Doc, 4), done: make(chan struct{})}
	turn := r.d.Tuning.textTurn()
	go pprof.Do(ctx, pprof.Labels("stage", "text"), func(context.Context) {
		defer close(t.done)
		nice.LowerThread(helperNice)
		var released time.Time
		for all := range t.docs {
			for len(all) > 0 && t.err == nil {
				// The index is released after each turn of a commit's
				// documents, and left alone a moment, for readers in
				// other processes.
				docs := all[:min(len(all), turn)]
				all = all[len(docs):]
				if d := textYield - time.Since(released); d > 0 {
					time.Sleep(d)
				}
				if t.err = t.index(r.d, docs); t.err != nil {
					r.cancel(t.err)
				}
				released = time.Now()
			}
		}
	})
	return t
}

// index adds docs to the text index, in one opening of it.
func (t *textStage) index(d *DB, docs []textindex.Doc) error {
	t0 := time.Now()
	err := d.Text.With(func(idx bleve.Index) error { return t.build.AddTo(idx, docs) })
	if debugTiming {
		fmt.Fprintf(os.Stderr, "text batch %d docs %v\n", len(docs), time.Since(t0))
	}
	if err != nil {
		return err
	}
	t.n.Add(int64(len(docs)))
	t.hw.Store(docs[len(docs)-1].ID)
	if hook := d.Tuning.TextTurnDone; hook != nil {
		hook(len(docs))
	}
	return nil
}
