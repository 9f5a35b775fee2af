package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/importers"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// readOpts are what the commands that read record files share: the size
// limit of a record and where an unreadable file is reported, and the
// replay options of a command that replays what it reads: with Detect,
// records are read through ingest.Lookahead, so that an untagged record
// carries its file's evidence and every command reads it alike.
type readOpts struct {
	maxRecord int64
	errw      io.Writer
	ahead     replay.Options
	readers   int // goroutines reading a file's games (importers.SourceOptions.Readers)
}

// maxRecordFlag is --max-record, the size limit of a record.
func maxRecordFlag() cli.Flag {
	return &cli.StringFlag{Name: "max-record", Value: "4MiB",
		Usage: "skip (and report) a record larger than this much text, e.g. 512KiB, 16MiB"}
}

// readOptsOf reads --max-record (when the command has it).
func readOptsOf(c *cli.Context) (readOpts, error) {
	o := readOpts{maxRecord: record.DefaultMaxRecord, errw: c.App.ErrWriter}
	if s := c.String("max-record"); s != "" {
		n, err := parseSize(s)
		if err != nil {
			return o, cli.Exit(fmt.Sprintf("--max-record: %v", err), exitUsage)
		}
		o.maxRecord = n
	}
	return o, nil
}

// softMemoryLimit makes the garbage collector work harder as the heap nears
// limit, unless GOMEMLIMIT says otherwise, for the streaming commands: what
// they hold is bounded, and the collector keeping the heap near that bound
// keeps peak memory bounded whatever the input. It returns what restores
// the limit before.
func softMemoryLimit(limit int64) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	old := debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(old) }
}

// streamMemory is softMemoryLimit(limit) for validate, with the collector
// run less often than GOGC's default says (streamGCPercent, unless GOGC is
// set). What validate keeps between games is small (a few megabytes: the
// chunks in flight), so that at GOGC 100 the heap's goal stays at the
// runtime's 4 MB floor and the collector runs every few megabytes
// allocated, each cycle waking every P: a large share of the CPU, most of it
// on the second core. GOGC also scales that floor. docs/benchmarks.md has
// the figures.
func streamMemory(limit int64) (restore func()) {
	restoreLimit := softMemoryLimit(limit)
	if os.Getenv("GOGC") != "" {
		return restoreLimit
	}
	old := debug.SetGCPercent(streamGCPercent)
	return func() {
		debug.SetGCPercent(old)
		restoreLimit()
	}
}

// The soft memory limits. validate holds a few chunks of records. An
// import holds up to 64 MiB of records and prepared rows waiting for the
// writer, a transaction's rows and text documents, the text index's
// batches and SQLite's cache (outside Go's heap, bounded by the writer:
// store.HeapLimit, 96 MiB for a database of less than 256,000 games):
// under a much smaller limit the collector runs without a pause once the
// workers run ahead of the writer. importMemoryLimit is the budget by
// default: with SQLite's, an import of 150,000 games stays under 500 MB
// (docs/import.md), for a little more of the collector; a larger GOMEMLIMIT lets a
// transaction hold more rows before it stores them (writer.txHeld: a
// sixth of the limit), for imports of millions of games.
//
// An import's collector also runs less often than GOGC's default says
// (importGCPercent, unless GOGC is set): an import is CPU-bound, and with
// GOGC 100 the collector and the page faults of memory it gave back to the
// system took a large share of its CPU; at 300 the heap comes near the
// limit in the larger transactions of an import into a full database, and
// the collector, returning memory to the system and faulting it in again,
// costs more than it saves. docs/import.md has the figures.
const (
	validateMemoryLimit  = 192 << 20
	streamGCPercent      = 400
	importMemoryLimit    = 256 << 20
	maxImportMemoryLimit = 1536 << 20
	importGCPercent      = 200
)

// importMemory applies an import's memory settings (importMemoryLimit,
// importGCPercent) unless GOMEMLIMIT and GOGC say otherwise, and returns
// what restores the settings before; sized raises the limit for files of
// a number of bytes (importLimitFor), unless GOMEMLIMIT is set.
func importMemory() (sized func(bytes int64), restore func()) {
	restoreLimit := softMemoryLimit(importMemoryLimit)
	sized = func(bytes int64) {
		if os.Getenv("GOMEMLIMIT") == "" {
			debug.SetMemoryLimit(importLimitFor(bytes))
		}
	}
	if os.Getenv("GOGC") != "" {
		return sized, restoreLimit
	}
	old := debug.SetGCPercent(importGCPercent)
	return sized, func() {
		debug.SetGCPercent(old)
		restoreLimit()
	}
}

// importLimitFor is the Go memory limit of an import of files of a number
// of bytes: importMemoryLimit up to 170 MB of files (150,000 Ōgi games peak
// under 500 MB), then 1.5 times their size, up to maxImportMemoryLimit.
// An import of millions of games holds larger transactions (a tenth of the
// database): at 256 MiB the collector took 17% of the CPU of a million
// games, against 3% at 150,000 (docs/import.md).
func importLimitFor(bytes int64) int64 {
	return min(max(importMemoryLimit, bytes/2*3), maxImportMemoryLimit)
}

// parseSize reads a byte count: digits with an optional unit K, KB, KiB,
// M, MB, MiB, G, GB, GiB (all binary, case-insensitive).
func parseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size (e.g. 4MiB)", s)
	}
	var shift uint
	switch strings.TrimSpace(t[i:]) {
	case "", "b":
	case "k", "kb", "kib":
		shift = 10
	case "m", "mb", "mib":
		shift = 20
	case "g", "gb", "gib":
		shift = 30
	default:
		return 0, fmt.Errorf("%q is not a size (e.g. 4MiB)", s)
	}
	if n > (1<<62)>>shift {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n << shift, nil
}

// report writes a file's reading error, or the note that a file found in
// a directory walk was skipped.
func (o readOpts) report(file string, err error) {
	if errors.Is(err, importers.ErrNotRegular) {
		fmt.Fprintf(o.errw, "%s: %v\n", file, err)
		return
	}
	fmt.Fprintf(o.errw, "%s: cannot read: %v\n", file, err)
}

// filesError says that some files could not be read (each was reported
// as it was met).
type filesError struct{ n int }

func (e *filesError) Error() string {
	if e.n == 1 {
		return "1 file could not be read (reported above)"
	}
	return fmt.Sprintf("%d files could not be read (reported above)", e.n)
}

// eachGame reads every game of every path (files, directories, globs, "-")
// in order and calls fn with the file, the game's 1-based number in its file,
// and the game or the error that kept it from being read. A file that cannot
// be opened or read to its end is reported on o.errw, with the games read
// from it before the error, and the walk goes on; files skipped in a
// directory walk (FIFOs, devices) are reported too. It returns fn's first
// error, else a *filesError when some file could not be read.
func eachGame(o readOpts, args []string, fn func(file string, n int, g *record.Game, err error) error) error {
	src, err := importers.NewSource(args, importers.SourceOptions{MaxRecord: o.maxRecord, Walk: o.report, Readers: o.readers})
	if err != nil {
		return err
	}
	defer src.Close()
	items := ingest.NewLookahead(src, o.ahead)
	for {
		it, err := items.Next()
		var fe *importers.FileError
		switch {
		case errors.Is(err, io.EOF):
			if n := src.Stats().Unreadable; n > 0 {
				return &filesError{n}
			}
			return nil
		case errors.As(err, &fe):
			o.report(fe.File, fe.Err)
			continue
		case err != nil:
			return err
		case it.End:
			continue
		}
		if err := fn(it.File.Name, it.N, it.Game, it.Err); err != nil {
			return err
		}
	}
}
