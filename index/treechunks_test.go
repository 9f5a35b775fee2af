package index_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/longtest"
)

var whiteTag, blackTag = regexp.MustCompile(`\[White "[^"]*"\]`), regexp.MustCompile(`\[Black "[^"]*"\]`)

// TestTreeChunks: the opening-tree players of moves played by more than
// three players live in chunks of 512 player ids (internal/treeagg). With 1,100
// players (ids over three chunks) imported in small transactions, then
// deleted in rounds down to a few games (moves falling back to three
// players or fewer, chunks emptied), the tree rows, their np and top and
// the chunks are what a fresh import of the remaining games gives
// (sameAsFresh, which also checks every top and np against the chunks).
func TestTreeChunks(t *testing.T) {
	longtest.Skip(t)
	ctx := context.Background()
	dir := t.TempDir()
	recs := records(string(genText(t, "draughts", 1500, 7)))
	text := ""
	for i, r := range recs {
		r = whiteTag.ReplaceAllString(r, fmt.Sprintf(`[White "Player %04d"]`, i%1100))
		r = blackTag.ReplaceAllString(r, fmt.Sprintf(`[Black "Player %04d"]`, (i*7+3)%1100))
		text += r
		if i < len(recs)-1 {
			text += "\n\n"
		}
	}
	f := writeFile(t, dir, "g.pdn", []byte(text))
	db := openDB(t, filepath.Join(dir, "db"))
	if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{TxGames: 150}); err != nil {
		t.Fatal(err)
	}
	var chunks, players int
	db.SQL().QueryRowContext(ctx, `SELECT COUNT(*), COUNT(DISTINCT chunk) FROM tree_players`).Scan(&chunks, &players)
	if chunks < 20 || players < 3 {
		t.Fatalf("%d chunk rows over %d chunk ids: the test does not spread players over chunks", chunks, players)
	}
	sameAsFresh(t, db)

	var ids []int64
	db.Records(ctx, index.Query{Limit: -1}, func(id int64, _ []byte) error { ids = append(ids, id); return nil })
	r := rand.New(rand.NewPCG(3, 4))
	r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, keep := range []int{900, 300, 40, 4} {
		if _, err := db.Delete(ctx, ids[keep:], nil); err != nil {
			t.Fatal(err)
		}
		ids = ids[:keep]
		s := sameAsFresh(t, db)
		if s.games != keep {
			t.Fatalf("%d games, want %d", s.games, keep)
		}
	}
	db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM tree_players`).Scan(&chunks)
	if chunks != 0 {
		t.Errorf("%d chunk rows left with 4 games", chunks)
	}
}
