package writer

import (
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/replay"
)

// prepared is a record replayed and turned into the rows of its game
// (internal/gamerows), by an import's worker or an edit.
type prepared = gamerows.Rows

// preparer turns the records of one worker into rows.
type preparer struct{ *gamerows.Preparer }

// newPreparer is a preparer replaying under opts, the Date tags in the
// date column's form (criteria.NormalizeDate).
func newPreparer(opts replay.Options) *preparer {
	return &preparer{gamerows.NewPreparer(gamerows.Options{Replay: opts, NormalizeDate: criteria.NormalizeDate})}
}

// prepare turns a record into rows (a rules package's panic makes it an
// invalid record: gamerows.Preparer.Prepare).
func (p *preparer) prepare(r Record) *prepared {
	return p.Prepare(gamerows.Record{Game: r.Game, Err: r.Err, File: r.File, Size: r.Size})
}

// zenc compresses the canonical texts, in blocks of store.BlockSize. zstd's
// default level, not its better one: about the same ratio in two thirds of
// the time or less (docs/import.md).
var zenc = sync.OnceValues(func() (*zstd.Encoder, error) {
	return zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
})
