package criteria

import (
	"strings"
	"testing"
)

func TestNormalizeDate(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1996.01.13", "1996.01.13"},
		{"13-01-1996", "1996.01.13"},
		{"1996/01/13", "1996.01.13"},
		{"13.01.1996", "1996.01.13"},
		{"1996-01-13", "1996.01.13"},
		{"1996.1.3", "1996.01.03"},
		{"3/1/1996", "1996.01.03"},
		{"01/13/1996", "1996.01.13"},
		{"1996", "1996.??.??"},
		{"1996.07", "1996.07.??"},
		{"1996.??.??", "1996.??.??"},
		{"1996.07.??", "1996.07.??"},
		{"????.07.14", "????.07.14"},
		{"??", ""},
		{"????.??.??", ""},
		{"?", ""},
		{"", ""},
		{"  1996/01/13 ", "1996.01.13"},
		{"13-13-1996", "13-13-1996"},
		{"96", "96"},
		{"1950.", "1950.??.??"},
		{"1847-??-??", "1847.??.??"},
		{"2004.10.27 - 2004.11.01", "2004.10.27"},
		{"1.1.1987", "1987.01.01"},
		{"03.07.20", "2020.07.03"},
		{"1996/1997", "1996/1997"},
		{"soon - later", "soon - later"},
		{"January 1996", "January 1996"},
		{"1996.13.01", "1996.13.01"},
		{"1996.01.32", "1996.01.32"},
	}
	for _, tt := range tests {
		if got := NormalizeDate(tt.in); got != tt.want {
			t.Errorf("NormalizeDate(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNormalizeDateTwoDigitYears: a two-digit year is the latest year
// with those digits not after the current one, day and month first (or
// month first when the day cannot be a month), or year first when it
// cannot be a day; nothing else is guessed.
func TestNormalizeDateTwoDigitYears(t *testing.T) {
	tests := []struct {
		in   string
		now  int
		want string
	}{
		{"03.07.20", 2026, "2020.07.03"},
		{"11.10.73", 2026, "1973.10.11"},
		{"11.10.26", 2026, "2026.10.11"},
		{"11.10.27", 2026, "1927.10.11"},
		{"11.10.27", 2030, "2027.10.11"},
		{"1.5.47", 2026, "1947.05.01"},
		{"07/13/99", 2026, "1999.07.13"},
		{"98.05.12", 2026, "1998.05.12"},
		{"03-07-20", 2026, "2020.07.03"},
		{"?.07.20", 2026, "2020.07.??"},
		{"13.13.20", 2026, "13.13.20"},
		{"20.07.03", 2026, "2003.07.20"},
		{"96", 2026, "96"},
		{"03.07", 2026, "03.07"},
		{"003.07.20", 2026, "003.07.20"},
		{"2004.10.27 - 05.11.04", 2026, "2004.10.27"},
		{"27.10.04 - 01.11.04", 2026, "2004.10.27"},
	}
	for _, tt := range tests {
		if got := normalizeDate(tt.in, tt.now); got != tt.want {
			t.Errorf("normalizeDate(%q, %d) = %q, want %q", tt.in, tt.now, got, tt.want)
		}
	}
}

func TestQueryDate(t *testing.T) {
	for in, want := range map[string]string{"13-01-1996": "1996.01.13", "1996": "1996", "1996.07": "1996.07", "2026.07.14": "2026.07.14"} {
		if got := QueryDate(in); got != want {
			t.Errorf("QueryDate(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzNormalizeDate: the result is no date (""), a PDN date, or the input
// trimmed (nothing invented), and a PDN date normalises to itself.
func FuzzNormalizeDate(f *testing.F) {
	for _, s := range []string{"03.07.20", "11.10.73", "98.05.12", "07/13/99", "13-01-1996", "1996", "????.??.??",
		"2004.10.27 - 2004.11.01", "27.10.04 - 01.11.04", "69° ASSOLUTO 1° TURNO", "?.07.20", "1.1.1"} {
		f.Add(s, 2026)
	}
	f.Fuzz(func(t *testing.T, s string, now int) {
		if now < 1 || now > 9999 {
			return
		}
		got := normalizeDate(s, now)
		if got != "" && !isPDNDate(got) && got != strings.TrimSpace(s) {
			t.Fatalf("normalizeDate(%q, %d) = %q: neither a PDN date nor the input", s, now, got)
		}
		if isPDNDate(got) && normalizeDate(got, now) != got {
			t.Fatalf("normalizeDate(%q) = %q, which normalises to %q", s, got, normalizeDate(got, now))
		}
	})
}
