package playerlines

// Filter is a condition on games that their players' lines answer, each
// criterion as criteria's SQL reads the games row; a zero field is no
// condition.
type Filter struct {
	// From and To bound the date as the date criteria compare it: a game
	// without a date meets neither bound.
	From, To string
	Result   string
	// Opponents are the ids the opponent must be one of; nil: any.
	Opponents map[int64]bool
	// Events are the ids (event_names) the event must be one of; nil:
	// any.
	Events map[int64]bool
	// Rated: both sides' ratings must be within one of EloSpans, each the
	// texts of its bounds, of one length (InBand).
	Rated    bool
	EloSpans [][2]string
}

// Keeps reports whether the game of line l meets f.
func (f *Filter) Keeps(l *Line) bool {
	return (f.From == "" || l.Date != "" && l.Date >= f.From) &&
		(f.To == "" || l.Date != "" && l.Date <= f.To) &&
		(f.Result == "" || l.Result == f.Result) &&
		(f.Opponents == nil || f.Opponents[l.Opponent]) &&
		(f.Events == nil || f.Events[l.Event]) &&
		(!f.Rated || InBand(l.Elo[0], f.EloSpans) && InBand(l.Elo[1], f.EloSpans))
}
