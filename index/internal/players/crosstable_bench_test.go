package players

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"testing"
)

// idRows are a crosstable's rows by player id, made once, read again for
// each run (Reset).
type idRows struct {
	p      [][2]int64
	res    []string
	game   []string
	i      int
	names  map[int64]string
	nameOf NameOf
}

func (r *idRows) Reset()     { r.i = 0 }
func (r *idRows) Next() bool { r.i++; return r.i <= len(r.p) }
func (r *idRows) Err() error { return nil }
func (r *idRows) Scan(dest ...any) error {
	k := r.i - 1
	*dest[0].(*int64), *dest[1].(*int64) = r.p[k][0], r.p[k][1]
	*dest[2].(*sql.NullString) = sql.NullString{String: r.res[k], Valid: true}
	*dest[3].(*sql.NullString) = sql.NullString{String: r.game[k], Valid: true}
	return nil
}

// BenchmarkCrosstablePage scores an event of 21,000 games among 5,500
// players (the shape of the largest event of the generated million) and
// keeps a page of 20.
func BenchmarkCrosstablePage(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := &idRows{names: map[int64]string{}}
	results := []string{"1-0", "0-1", "1/2-1/2", "*"}
	for range 21000 {
		a, c := int64(rng.IntN(5500)+1), int64(rng.IntN(5500)+1)
		r.p = append(r.p, [2]int64{a, c})
		r.res = append(r.res, results[rng.IntN(len(results))])
		r.game = append(r.game, "ogi")
	}
	for id := int64(1); id <= 5500; id++ {
		r.names[id] = fmt.Sprintf("Player %05d", id)
	}
	r.nameOf = func(ids []int64) (map[int64]string, error) {
		out := make(map[int64]string, len(ids))
		for _, id := range ids {
			out[id] = r.names[id]
		}
		return out, nil
	}
	b.ReportAllocs()
	for b.Loop() {
		r.Reset()
		if page, n, err := CrosstablePage(r, r.nameOf, 0, nil, 0, 20); err != nil || len(page) != 20 || n < 5000 {
			b.Fatalf("%d lines of %d: %v", len(page), n, err)
		}
	}
}
