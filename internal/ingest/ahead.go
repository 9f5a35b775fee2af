package ingest

import (
	"github.com/plateau/plateau/importers"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// The look-ahead of detection. A record that names no ruleset is read
// under the 8×8 family that most of its file's untagged games fit
// (replay's detection, rule 4): the file's majority. Read in order, the
// first games of a file would have only the games before them to go by,
// and an untagged Brazilian file whose first games Russian rules read as
// well would start as russian. So before a file's records go on, the
// Lookahead reads ahead in it, up to AheadGames records or AheadBytes of
// text, replays its untagged records under every 8×8 family, and gives
// every record of the file the count (record.Game.Evidence): the whole
// file's when the look-ahead reached its end, else its first records'.
//
// Decisions: the records read ahead are held, not read twice, so that
// standard input and archive members, which cannot be read again, are
// primed like any file, and a file is opened once. The bounds keep the
// records held (and the time before the first record goes on) small: a
// file longer than them is read with the evidence of its beginning, which
// every one of its records then shares, so that a game is read alike by
// validate, export, show and import (whose workers replay a file's chunks
// in parallel). Only records that detection would replay are replayed
// ahead (replay.Detects); a file whose records all name their ruleset
// costs the holding of its first records only.
const (
	AheadGames = 2000
	AheadBytes = 8 << 20
)

// Items is a source of records: importers.Source, or a Lookahead over it.
type Items interface {
	Next() (importers.Item, error)
}

// Lookahead is a Source whose records carry their file's evidence for
// detection (above). Its zero value is not usable: NewLookahead makes one.
type Lookahead struct {
	src  Items
	opts replay.Options
	rp   replay.Replayer
	held []held // the items read ahead, in order
	// file is the name of the file being read and ev its evidence, set
	// on each of its records.
	file string
	ev   *record.Evidence
}

// held is an item read ahead, or the error that ended the look-ahead.
type held struct {
	it  importers.Item
	err error
}

// NewLookahead reads src with the look-ahead of detection under opts:
// without opts.Detect (a ruleset given for untagged records), it passes
// the items on as they are.
func NewLookahead(src Items, opts replay.Options) *Lookahead {
	return &Lookahead{src: src, opts: opts}
}

// Next returns the next item of the source, as importers.Source.Next does;
// a game's record carries its file's evidence.
func (l *Lookahead) Next() (importers.Item, error) {
	if !l.opts.Detect {
		return l.src.Next()
	}
	if len(l.held) == 0 {
		it, err := l.src.Next()
		if err != nil || it.Game == nil {
			return it, err
		}
		if it.File.Name != l.file {
			l.ahead(it)
		} else {
			it.Game.Evidence = l.ev
			return it, nil
		}
	}
	h := l.held[0]
	l.held[0] = held{}
	l.held = l.held[1:]
	return h.it, h.err
}

// ahead reads the records of first's file ahead, counts its evidence and
// sets it on them.
func (l *Lookahead) ahead(first importers.Item) {
	l.file = first.File.Name
	l.held = append(l.held[:0], held{it: first})
	whole := false
	for {
		last := l.held[len(l.held)-1]
		if last.err != nil || last.it.End {
			whole = last.err == nil
			break
		}
		if len(l.held) >= AheadGames || last.it.Game != nil && last.it.Game.Pos.Offset >= AheadBytes {
			break
		}
		it, err := l.src.Next()
		l.held = append(l.held, held{it: it, err: err})
	}
	var votes replay.Votes
	o := l.opts
	o.Votes = &votes
	for _, h := range l.held {
		if rec := h.it.Game; h.err == nil && h.it.Err == nil && rec != nil && replay.Detects(rec, o) {
			votes.Add(l.rp.Replay(rec, o))
		}
	}
	l.ev = votes.Evidence(whole)
	for _, h := range l.held {
		if h.err == nil && h.it.Game != nil {
			h.it.Game.Evidence = l.ev
		}
	}
}
