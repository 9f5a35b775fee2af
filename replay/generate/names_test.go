package generate

import (
	"math/rand/v2"
	"testing"
	"unicode"
)

func TestPool(t *testing.T) {
	pool := newPool(rand.New(rand.NewPCG(1, 2)))
	names := map[string]bool{}
	scripts := map[string]int{}
	tables := map[string]*unicode.RangeTable{"Latin": unicode.Latin, "Han": unicode.Han, "Cyrillic": unicode.Cyrillic,
		"Greek": unicode.Greek, "Arabic": unicode.Arabic, "Hangul": unicode.Hangul}
	for _, p := range pool {
		if p.rating < 1100 || p.rating > 2750 {
			t.Errorf("%s rated %d", p.name, p.rating)
		}
		names[p.name] = true
		for name, tab := range tables {
			for _, r := range p.name {
				if unicode.Is(tab, r) {
					scripts[name]++
					break
				}
			}
		}
	}
	if len(names) < 3000 || len(names) != len(pool) {
		t.Errorf("%d distinct names in a pool of %d", len(names), len(pool))
	}
	for name := range tables {
		if scripts[name] < 100 {
			t.Errorf("only %d names in %s script", scripts[name], name)
		}
	}
}

func TestSkewed(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	counts := make([]int, 1000)
	for i := 0; i < 100000; i++ {
		counts[skewed(r, 1000)]++
	}
	head, tail := 0, 0
	for i := 0; i < 100; i++ {
		head += counts[i]
		tail += counts[900+i]
	}
	if head < 5*tail || tail == 0 {
		t.Errorf("first tenth %d games, last tenth %d: not skewed, or nobody in the tail", head, tail)
	}
}
