package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

func TestScanMap(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO p VALUES (3, 'c'), (1, 'a'), (40, 'x')`); err != nil {
		t.Fatal(err)
	}
	got, err := ScanMap[int64, string](db.QueryContext(ctx, `SELECT id, name FROM p WHERE id IN (SELECT value FROM json_each(?))`, JSONIDs([]int64{1, 40, 7})))
	if want := map[int64]string{1: "a", 40: "x"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ScanMap = %v, %v; want %v", got, err, want)
	}
	got, err = ScanMap[int64, string](db.QueryContext(ctx, `SELECT id, name FROM p WHERE id > 100`))
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("no rows: %v, %v; want an empty map", got, err)
	}
	if _, err := ScanMap[int64, string](db.QueryContext(ctx, `SELECT id, name, name FROM p`)); err == nil {
		t.Error("three columns into two: no error")
	}
	bad := errors.New("query failed")
	if m, err := ScanMap[int64, string](nil, bad); !errors.Is(err, bad) || m != nil {
		t.Errorf("the query's error: %v, %v", m, err)
	}
}
