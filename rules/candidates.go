package rules

import "errors"

// Matches appends to dst every legal move of p that the move text may mean,
// for every game: the one move ParseMove reads, or, when the text is
// Ambiguous (a short form that fits several legal moves, as a draughts
// capture "3x26" with two paths or a Russian short move "ed4"), each of its
// Candidates read back from its canonical form, in the order the error
// lists them. A text that means no legal move returns ParseMove's error and
// dst unchanged; so does an Ambiguous error whose candidates do not read
// back (a fault of the game's notation, not of the record).
//
// A caller that can choose among the candidates (replay, by the moves that
// follow) asks this; ParseMove alone never chooses.
func Matches(p Position, text string, dst []Move) ([]Move, error) {
	m, err := p.ParseMove(text)
	if err == nil {
		return append(dst, m), nil
	}
	var me *MoveError
	if !errors.As(err, &me) || me.Kind != Ambiguous {
		return dst, err
	}
	start := len(dst)
	for _, c := range me.Candidates {
		m, cerr := p.ParseMove(c)
		if cerr != nil {
			return dst[:start], err
		}
		dst = append(dst, m)
	}
	if len(dst) == start {
		return dst, err
	}
	return dst, nil
}
