package web_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/replay/web"
)

func TestNormalizeDate(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"2026.07.14", "2026.07.14"},
		{"2026-7-4", "2026.07.04"},
		{"2026/07/14", "2026.07.14"},
		{"2026", "2026.??.??"},
		{"2026.07", "2026.07.??"},
		{"????.??.??", "????.??.??"},
		{"2024.02.29", "2024.02.29"},
		{"  1999.12.31 ", "1999.12.31"},
		{"2026.13.01", "!"},
		{"2026.02.30", "!"},
		{"2023.02.29", "!"},
		{"2026.04.31", "!"},
		{"14 July 2026", "!"},
		{"20260", "!"},
		{"2026.1.2.3", "!"},
	} {
		got, err := web.NormalizeDate(tc.in)
		if tc.want == "!" {
			if !errors.Is(err, web.ErrBadRecord) {
				t.Errorf("%q: %q, %v; want an ErrBadRecord", tc.in, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestParseNAGs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		bad  bool
	}{
		{"", nil, false},
		{"!", []int{1}, false},
		{"? !! ?? !? ?!", []int{2, 3, 4, 5, 6}, false},
		{"$18 ±", []int{18, 16}, false},
		{"$256", nil, true},
		{"!!!", nil, true},
		{"18", nil, true},
	} {
		got, err := web.ParseNAGs(tc.in)
		if tc.bad != (err != nil) || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

// TestRecordJSON: the record the page sends is written in the canonical
// form, with its comments, NAGs and variations; a bad move or tag is
// refused.
func TestRecordJSON(t *testing.T) {
	r := web.RecordJSON{
		Tags:  [][2]string{{"Game", "ogi"}, {"Date", "2026-7-4"}, {"Event", ""}, {"Sente", "A"}},
		Intro: []string{"intro"},
		Moves: []web.MoveJSON{
			{Move: "Rg2-f2", NAGs: "!", After: []string{"good"}},
			{Move: "Id8-c7", Vars: [][]web.MoveJSON{{{Move: "Pb6-b5", NAGs: "?!", Before: []string{"or"}}}}},
		},
	}
	b, err := r.Format()
	if err != nil {
		t.Fatal(err)
	}
	want := "[Game \"ogi\"]\n[Date \"2026.07.04\"]\n[Sente \"A\"]\n[Result \"*\"]\n\n{intro} 1. Rg2-f2 $1 {good} 1... Id8-c7 ({or} 1... Pb6-b5 $6) *\n\n"
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
	for _, bad := range []web.RecordJSON{
		{Moves: []web.MoveJSON{{Move: "a b"}}},
		{Moves: []web.MoveJSON{{Move: ""}}},
		{Moves: []web.MoveJSON{{Move: "x)"}}},
		{Moves: []web.MoveJSON{{Move: "x", NAGs: "wow"}}},
		{Tags: [][2]string{{"Bad Name", "x"}}},
		{Tags: [][2]string{{"Event", "a"}, {"Event", "b"}}},
		{Tags: [][2]string{{"Date", "yesterday"}}},
	} {
		if _, err := bad.Format(); !errors.Is(err, web.ErrBadRecord) {
			t.Errorf("%+v: %v, want ErrBadRecord", bad, err)
		} else if strings.TrimSpace(err.Error()) == "" {
			t.Errorf("%+v: an error without words", bad)
		}
	}
}
