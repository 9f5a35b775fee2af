package players

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// levenshtein is the textbook distance, for checking editWithin.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+c)
		}
	}
	return d[len(ra)][len(rb)]
}

// TestEditWithin compares editWithin with the textbook distance on words
// of one to 40 letters (past its 32-letter buffers), ASCII and not.
func TestEditWithin(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
		want bool
	}{
		{"nguyen", "nguyễn", 1, true},
		{"janssen", "jansen", 1, true},
		{"janssen", "jensen", 1, false},
		{"schmidt", "schmitt", 1, true},
		{"", "ab", 1, false},
		{"", "a", 1, true},
		{strings.Repeat("é", 40), strings.Repeat("é", 39) + "e", 1, true},
		{strings.Repeat("a", 40), strings.Repeat("a", 37), 2, false},
	} {
		if got := editWithin([]rune(c.a), []rune(c.b), c.d); got != c.want {
			t.Errorf("editWithin(%q, %q, %d) = %v, want %v", c.a, c.b, c.d, got, c.want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	letters := []rune("abcdeéœ文")
	word := func() string {
		r := make([]rune, rng.IntN(40))
		for i := range r {
			r[i] = letters[rng.IntN(len(letters))]
		}
		return string(r)
	}
	for i := 0; i < 20000; i++ {
		a := word()
		b := a
		if i%2 == 0 { // a few edits of a, so that near words are common
			r := []rune(a)
			for k := rng.IntN(4); k > 0 && len(r) > 0; k-- {
				j := rng.IntN(len(r))
				switch rng.IntN(3) {
				case 0:
					r = append(r[:j], r[j+1:]...)
				case 1:
					r[j] = letters[rng.IntN(len(letters))]
				default:
					r = append(r[:j], append([]rune{letters[rng.IntN(len(letters))]}, r[j:]...)...)
				}
			}
			b = string(r)
		} else {
			b = word()
		}
		d := 1 + (i/2)%2
		if got, want := editWithin([]rune(a), []rune(b), d), levenshtein(a, b) <= d; got != want {
			t.Fatalf("editWithin(%q, %q, %d) = %v, distance %d", a, b, d, got, levenshtein(a, b))
		}
	}
}
