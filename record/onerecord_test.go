package record_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
)

// piece is the size of the pieces a line longer than them is read in (the
// line reader's maxLine): the cases below cut tokens at it.
const piece = 1 << 20

// A record is one record whatever its size and wherever the line reader
// cuts its long lines: a tag value, a word or a ';' comment that spans a
// piece boundary is one token, and a record skipped for an error or its size
// is skipped whole, so that no part of it is read as a game of its own.
func TestOneRecordWhateverItsSize(t *testing.T) {
	const next = "\n[Event \"next\"]\n1. e4 *\n"
	// A value of 1,100 KiB whose text reads as tags and games if it is
	// cut: the Reader must hold it as one value.
	tricky := strings.Repeat(`a [B \"x\"] 1. e4 * ; { `, 1100<<10/24)
	unescaped := strings.ReplaceAll(tricky, `\"`, `"`)
	for _, tc := range []struct {
		name  string
		src   string
		limit int64
		// want is one entry per record read: its Event tag, or "error"
		// and the error's line, or "too large" and its line.
		want []string
		site string // the first record's Site, when read whole
	}{
		{"tag value of 1,100 KiB", "[Event \"big\"]\n[Site \"" + tricky + "\"]\n1. e4 *" + next, 0,
			[]string{"big", "next"}, unescaped},
		{"tag value cut after a backslash", "[Event \"big\"]\n[Site \"" + strings.Repeat("s", piece-len("[Site \"")-1) + `\"x\\"]` + "\n1. e4 *" + next, 0,
			[]string{"big", "next"}, strings.Repeat("s", piece-len("[Site \"")-1) + `"x\`},
		{"tag value over the limit", "[Event \"big\"]\n[Site \"" + tricky + "\"]\n1. e4 *" + next, 1 << 20,
			[]string{"too large 1", "next"}, ""},
		{"tag section over the limit, long lines", "[Event \"big\"]\n" + strings.Repeat("[Site \""+tricky+"\"] ", 4) + "\n1. e4 *" + next, 0,
			[]string{"too large 1", "next"}, ""},
		{"tag section over the limit, a bare result after", "[Event \"big\"]\n" + strings.Repeat("[S \"x\"]", 200) + "\n[Result 1-0]\n[Site \"s\"]\n1. e4 1-0" + next, 4 << 10,
			[]string{"too large 1", "next"}, ""},
		{"';' comment of 2 MiB", "[Event \"big\"]\n1. e4 ;" + strings.Repeat(" [Event \"x\"] 1. e4 *", 2*piece/20) + "\ne5 *" + next, 0,
			[]string{"big", "next"}, ""},
		{"word cut before a result", strings.Repeat("x", piece) + "1-0 e5 *" + next, 0,
			[]string{"", "next"}, ""},
		{"stray ']' in the tag section", "[Event \"a\"]]\n[Site \"s\"]\n1. e4 *" + next, 0,
			[]string{"error 1", "next"}, ""},
		{"string after the tags", "[Event \"a\"] \"x\n[Site \"s\"]\n1. e4 *" + next, 0,
			[]string{"error 1", "next"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, errs := readLimited(t, strings.NewReader(tc.src), tc.limit)
			var got []string
			for _, err := range errs {
				var se *record.Error
				if !errors.As(err, &se) {
					t.Fatalf("%v is no *record.Error", err)
				}
				what := "error"
				if errors.Is(err, record.ErrTooLarge) {
					what = "too large"
					if !strings.Contains(se.Msg, record.Size(tc.limit)+" limit") && !strings.Contains(se.Msg, "larger than "+record.Size(tc.limit)) && tc.limit != 0 {
						t.Errorf("message %q names no limit", se.Msg)
					}
				}
				got = append(got, fmt.Sprintf("%s %d", what, se.Pos.Line))
			}
			for _, g := range gs {
				got = append(got, g.Tag("Event"))
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("records %q, want %q", got, tc.want)
			}
			if tc.site != "" && (len(gs) == 0 || gs[0].Tag("Site") != tc.site) {
				t.Errorf("Site read as %d bytes, want %d", len(gs[0].Tag("Site")), len(tc.site))
			}
		})
	}
}
