package players

import (
	"slices"
	"testing"
)

// TestPageWords: a page is read by the words of the query word whose
// words are fewest, when that is fewer seeks than two per matched player,
// a word counting for more when most of its players do not match. Without
// the player indexes (a bulk import running) it is read by words whenever
// there are some: noIndex is then the choice.
func TestPageWords(t *testing.T) {
	for _, c := range []struct {
		name    string
		players int
		words   [][]string
		covered []int
		want    []string
		noIndex []string
	}{
		{"a surname of 30 players", 30, [][]string{{"sokolov"}}, []int{30}, []string{"sokolov"}, []string{"sokolov"}},
		{"the query word with fewer words", 30, [][]string{{"ivan", "ivana", "ivanov"}, {"sokolov", "sokolova"}}, []int{300, 31}, []string{"sokolov", "sokolova"}, []string{"sokolov", "sokolova"}},
		{"one player: two seeks either way", 1, [][]string{{"sokolov"}}, []int{1}, []string{"sokolov"}, []string{"sokolov"}},
		{"one player of a common first name and surname", 1, [][]string{{"ivan"}, {"sokolov"}}, []int{300, 30}, nil, []string{"sokolov"}},
		{"fewer players than words", 2, [][]string{{"a", "ab", "abc", "abd", "abe"}}, []int{40}, nil, []string{"a", "ab", "abc", "abd", "abe"}},
		{"no words", 0, [][]string{nil}, []int{0}, nil, nil},
		{"words of unmatched players count more", 10, [][]string{{"x", "y"}}, []int{400}, nil, []string{"x", "y"}},
	} {
		m := &Match{Players: make([]int64, c.players), words: c.words, covered: c.covered}
		if got := m.PageWords(true); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if got := m.PageWords(false); !slices.Equal(got, c.noIndex) {
			t.Errorf("%s, without the player indexes: %q, want %q", c.name, got, c.noIndex)
		}
	}
}
