package importers

import (
	"fmt"
	"io"

	"github.com/plateau/plateau/importers/sgf"
	"github.com/plateau/plateau/record"
)

// GameReader reads the games of one record file.
type GameReader interface {
	// Next returns the next game, a *record.Error for a game that could
	// not be read (the reader goes on with the next one), or io.EOF.
	Next() (*record.Game, error)
}

// NewGameReader returns the reader of the games of r, opened from path
// (name is the file name for positions): package sgf for an SGF file (see
// IsSGF), record.Reader for every other one. An SGF file is never read as
// PDN: its games carry their SGF game type (tag SGFGame, GM[1] Go when the
// file names none), which replay refuses by name unless it is a game
// Plateau plays.
func NewGameReader(path string, r io.Reader, name string) (GameReader, error) {
	if IsSGF(path) {
		sr, err := sgf.NewReader(r, name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return sr, nil
	}
	return record.NewReader(r, name), nil
}
