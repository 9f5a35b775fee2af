package playerlines_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/playerlines"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/ogi"
)

// BenchmarkRows measures what the writer does for a game's players'
// lines (writer.holdPlayerLines): its ratings read from its tags (Elo) and
// its two sides' lines encoded (Rows), one op a game of 500 generated Ōgi
// games, rated.
func BenchmarkRows(b *testing.B) {
	g, err := rules.Lookup("ogi")
	if err != nil {
		b.Fatal(err)
	}
	gen, err := generate.New(g, 3)
	if err != nil {
		b.Fatal(err)
	}
	var text bytes.Buffer
	if _, err := gen.Write(context.Background(), &text, 500, generate.Options{}); err != nil {
		b.Fatal(err)
	}
	p := gamerows.NewPreparer(gamerows.Options{Replay: replay.Options{}})
	rd := record.NewReader(&text, "b.pdn")
	var games []*gamerows.Rows
	for {
		rg, err := rd.Next()
		if rg == nil && err != nil {
			break
		}
		if r := p.Prepare(gamerows.Record{Game: rg, Err: err, File: "b.pdn"}); r.Valid {
			games = append(games, r)
		}
	}
	if len(games) == 0 {
		b.Fatal("no game")
	}
	var rows []playerlines.Row
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := games[i%len(games)]
		l := playerlines.Line{Game: r.Game, Result: r.Result, Date: r.Date, FEN: r.FEN, Moves: r.TreeLine,
			Elo: playerlines.Elo(r.Game, r.Tags)}
		if len(rows) >= 1024 {
			clear(rows)
			rows = rows[:0]
		}
		rows = playerlines.Rows(rows, int64(i+1), [2]int64{int64(i%97 + 1), int64(i%89 + 1)}, r.Event, &l)
	}
}
