package index_test

import (
	"context"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// In checkers (PDN GameType 21, start colour B) a Result names Black first:
// PDN 2.0 (pdn2.txt, 6.1.1.2.6) "1-0 indicating Black (Red) won the game",
// "0-1 indicating White won the game". The crosstable, the tree, the
// players' columns and a search by side follow the rules' side order
// (Sides: Black, White), so White's wins are White's.
func TestSideOrderCheckers(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const head = "[GameType \"21\"]\n[Event \"Side order\"]\n[Black \"Oldbury, R.\"]\n[White \"Wyllie, J.\"]\n"
	text := head + "[Result \"0-1\"]\n\n1. 11-15 23-19 2. 8-11 22-17 {white wins} 0-1\n\n" +
		head + "[Result \"1-0\"]\n\n1. 11-15 23-19 1-0\n\n" +
		head + "[Result \"0-1\"]\n\n1. 11-15 24-20 0-1\n\n" +
		// Over by the rules: White takes Black's last man.
		head + "[Result \"0-1\"]\n[FEN \"W:W23:B18\"]\n\n1. 23x14 0-1\n"
	file := writeFile(t, dir, "side.pdn", []byte(text))
	db := openDB(t, dir+"/db")
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := db.Search(ctx, index.Query{Game: "checkers", Count: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 4 {
		t.Fatalf("%d valid games, want 4", res.Total)
	}
	for _, h := range res.Hits {
		if h.Players != [2]string{"Oldbury, R.", "Wyllie, J."} {
			t.Errorf("game %d players %v, want Black's first", h.ID, h.Players)
		}
	}
	cross, err := db.Crosstable(ctx, index.Query{Event: "Side order"})
	if err != nil {
		t.Fatal(err)
	}
	score := map[string]float64{}
	for _, c := range cross {
		score[c.Player] = c.Score
	}
	if score["Wyllie, J."] != 3 || score["Oldbury, R."] != 1 {
		t.Errorf("crosstable scores %v, want White (Wyllie) 3, Black (Oldbury) 1", score)
	}
	start, err := checkersStart()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := db.Tree(ctx, "checkers", start)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree) != 1 || tree[0].Move != "11-15" || tree[0].Score != [2]float64{1, 2} {
		t.Errorf("tree %+v, want 11-15 scored Black 1, White 2", tree)
	}
	for side, n := range map[string]int{"White": 4, "Black": 0} {
		res, err := db.Search(ctx, index.Query{Tags: []record.Tag{{Name: side, Value: "Wyllie, J."}}, Count: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != n {
			t.Errorf("%s \"Wyllie, J.\": %d games, want %d", side, res.Total, n)
		}
	}
}

func checkersStart() (rules.Position, error) {
	g, err := rules.Lookup("checkers")
	if err != nil {
		return nil, err
	}
	return g.NewPosition("")
}
