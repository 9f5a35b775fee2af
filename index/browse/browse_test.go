package browse_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
	_ "github.com/plateau/plateau/rules/all"
)

// TestSourceMatchesFiles imports sample folders and checks that the
// database source lists every game, page by page, and that each valid game
// it serves has the same positions, moves, comments, variations and tags as
// its file's record in canonical form (what the database stores) served
// from a file collection.
func TestSourceMatchesFiles(t *testing.T) {
	ctx := context.Background()
	var paths []string
	for _, d := range []string{"ogi", "dames", "jetan", "dejarik", "sauts", "draughts"} {
		paths = append(paths, filepath.Join("..", "..", "samples", d))
	}
	paths = append(paths, filepath.Join("..", "..", "samples", "broken"))
	db, err := index.Open(ctx, t.TempDir(), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := ingest.Files(ctx, db, paths, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Valid < 20 || st.Invalid < 5 {
		t.Fatalf("import %+v: too few games for the test", st)
	}

	// The file side: each record's canonical text → its detail.
	coll := web.NewCollection(replay.Options{})
	files, err := filepath.Glob(filepath.Join("..", "..", "samples", "*", "*.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	byText := map[string]*web.Detail{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		rd := record.NewReader(fh, f)
		for {
			rec, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				continue
			}
			// The database keeps the canonical record (dames faults become
			// comments, huffs moves).
			canon := replay.Replay(rec, replay.Options{}).Canonical()
			coll.Add(f, 0, canon, nil)
			d, _ := coll.Detail(coll.Len())
			byText[string(record.Format(canon))] = d
		}
		fh.Close()
	}

	src := browse.New(db, replay.Options{})
	for _, valid := range []string{"valid", "invalid", ""} {
		all, err := src.List(ctx, web.ListQuery{Valid: valid, Limit: web.MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"valid": st.Valid, "invalid": st.Invalid, "": st.Valid + st.Invalid}[valid]
		if all.Total != want || len(all.Games) != want {
			t.Fatalf("valid=%q: %d listed of %d, want %d", valid, len(all.Games), all.Total, want)
		}
		// Pages of 7 give the same list.
		var paged []web.Summary
		for off := 0; off < all.Total; off += 7 {
			p, err := src.List(ctx, web.ListQuery{Valid: valid, Offset: off, Limit: 7})
			if err != nil || p.Offset != off || p.Total != all.Total {
				t.Fatalf("page at %d: %+v, %v", off, p, err)
			}
			paged = append(paged, p.Games...)
		}
		if !reflect.DeepEqual(paged, all.Games) {
			t.Fatalf("valid=%q: pages differ from the whole list", valid)
		}
		compared := 0
		for _, s := range all.Games {
			d, err := src.Detail(ctx, s.N)
			if err != nil {
				t.Fatalf("game %d: %v", s.N, err)
			}
			if d.Valid != s.Valid || (valid != "" && s.Valid != (valid == "valid")) || d.Players != s.Players || d.Game != s.Game || d.Plies != s.Plies {
				t.Fatalf("game %d: detail %+v, list %+v", s.N, d.Summary, s)
			}
			if !d.Valid {
				if d.Error == "" {
					t.Errorf("invalid game %d: no error (%+v)", s.N, d.Summary)
				}
				continue
			}
			text, err := db.Text(ctx, int64(s.N))
			if err != nil {
				t.Fatal(err)
			}
			f := byText[string(text)]
			if f == nil {
				t.Fatalf("game %d: stored text matches no sample game:\n%s", s.N, text)
			}
			if !reflect.DeepEqual(d.Nodes, f.Nodes) || !reflect.DeepEqual(d.Geometry, f.Geometry) || !reflect.DeepEqual(d.Tags, f.Tags) {
				t.Fatalf("game %d (%s game %d): positions differ from the file's", s.N, f.File, f.Index)
			}
			compared++
		}
		if valid != "invalid" && compared != st.Valid {
			t.Errorf("compared %d of %d valid games", compared, st.Valid)
		}
	}
	if ogi, err := src.List(ctx, web.ListQuery{Game: "ogi"}); err != nil || ogi.Total == 0 || ogi.Games[0].Game != "ogi" || ogi.Games[0].Sides[0] != "Sente" {
		t.Errorf("ogi games: %+v, %v", ogi, err)
	}
	if _, err := src.Detail(ctx, 1<<30); !errors.Is(err, web.ErrNoGame) {
		t.Errorf("missing game: %v, want ErrNoGame", err)
	}
}
