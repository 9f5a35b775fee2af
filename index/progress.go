package index

import (
	"fmt"
	"io"
	"os"

	"github.com/plateau/plateau/importers"
)

// Import progress counts the bytes read from each file as it lies on disk,
// before decompression, so that a .zst or .gz import reaches its total
// (ImportStats.TotalBytes, the files' sizes) when it ends, not when a
// third of it is read. Standard input has no size: its progress is the
// decoded bytes.

// countingReader counts the bytes read through it. It is read by the one
// goroutine that parses its file.
type countingReader struct {
	r io.ReadCloser
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) Close() error { return c.r.Close() }

// openCounted opens a record file with transparent decompression, counting
// the compressed bytes consumed (nil counter for standard input).
func openCounted(path string) (io.ReadCloser, *countingReader, error) {
	if path == "-" {
		rc, err := importers.Open(path)
		return rc, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	cr := &countingReader{r: f}
	rc, err := importers.NewReader(cr)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return rc, cr, nil
}

// consumed is how far into its file a reader is: the compressed bytes read
// so far, else the decoded offset.
func consumed(cr *countingReader, off int64) int64 {
	if cr == nil {
		return off
	}
	return cr.n
}
