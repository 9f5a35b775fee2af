package criteria

import (
	"strconv"
	"strings"
	"time"
)

// NormalizeDate turns a Date tag as real record files write it into PDN's
// YYYY.MM.DD, with ?? (????) for unknown parts, for the date column (search,
// sorting, the opening tree's first and last dates); the record keeps the
// tag as written. Decisions:
//   - Fields are split on '.', '-', '/' or spaces. A four-digit field first
//     is the year, followed by month and day ("1996/01/13", "1996-01-13",
//     "1996.1.3"); a four-digit field last follows day and month
//     ("13-01-1996", "13.01.1996"), or month and day when the first field
//     cannot be a month but the second cannot be a day ("01/13/1996"). A
//     year alone is "1996.??.??", a year and month "1996.01.??".
//   - "?", "??", "????" and "*" fields are unknown parts. A date with no
//     known part ("??", "????.??.??", "") is "": no date, so that it sorts
//     with the undated games rather than after every year.
//   - A two-digit year, as Russian and Italian files write dates
//     ("03.07.20", "11.10.73"), is last after day and month (or month and
//     day, as above), or first before month and day when it cannot be a
//     day ("98.05.12"): it is the latest year with those last two digits
//     that is not after the current year (in 2026, "20" is 2020 and "73"
//     1973), since a game is not played in the future.
//   - A range "A - B" is its first day A (when A is a date).
//   - Anything else (a two-digit year alone, words, an impossible month or
//     day) is kept as written, trimmed: nothing is invented.
func NormalizeDate(s string) string { return normalizeDate(s, time.Now().Year()) }

// normalizeDate is NormalizeDate in the year now.
func normalizeDate(s string, now int) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if isDigitDate(s) {
		// YYYY.MM.DD in digits: as it is, whether valid or not (below,
		// an impossible month or day is kept as written too).
		return s
	}
	if a, _, ok := strings.Cut(s, " - "); ok {
		// A range of days ("2004.10.27 - 2004.11.01"): its first day.
		if n := normalizeDate(a, now); n != strings.TrimSpace(a) || isPDNDate(n) {
			return n
		}
		return s
	}
	f := strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '-' || r == '/' || r == ' ' })
	if len(f) == 0 || len(f) > 3 {
		return s
	}
	unknown := func(x string) bool { return strings.Trim(x, "?*") == "" }
	allUnknown := true
	for _, x := range f {
		if !unknown(x) {
			allUnknown = false
		}
	}
	if allUnknown {
		return ""
	}
	y, m, d, ok := dateFields(f, now)
	if !ok {
		return s
	}
	part := func(x string, width, max int) (string, bool) {
		if x == "" || unknown(x) {
			return strings.Repeat("?", width), true
		}
		n := num(x)
		if n < 1 || n > max || len(x) > width {
			return "", false
		}
		return strings.Repeat("0", width-len(x)) + x, true
	}
	if unknown(y) {
		y = "????"
	}
	mm, ok1 := part(m, 2, 12)
	dd, ok2 := part(d, 2, 31)
	if !ok1 || !ok2 {
		return s
	}
	return y + "." + mm + "." + dd
}

// dateFields finds the year, month and day among the fields of a date
// (see NormalizeDate); ok is false when no field is a year.
func dateFields(f []string, now int) (y, m, d string, ok bool) {
	unknown := func(x string) bool { return strings.Trim(x, "?*") == "" }
	yearField := func(x string) bool { return len(x) == 4 && (unknown(x) || isDigits(x)) }
	short := func(x string) bool { return len(x) == 2 && isDigits(x) }
	switch {
	case yearField(f[0]):
		y = f[0]
		if len(f) > 1 {
			m = f[1]
		}
		if len(f) > 2 {
			d = f[2]
		}
	case len(f) == 3 && short(f[0]) && num(f[0]) > 31 && !yearField(f[2]):
		y, m, d = f[0], f[1], f[2] // 98.05.12
	case len(f) == 3 && (yearField(f[2]) || short(f[2]) && len(f[0]) <= 2 && len(f[1]) <= 2):
		y, m, d = f[2], f[1], f[0]
		if num(f[0]) <= 12 && num(f[1]) > 12 && num(f[1]) <= 31 {
			m, d = f[0], f[1] // month first: 01/13/1996
		}
	default:
		return "", "", "", false
	}
	if short(y) {
		// The latest year ending so, not after now.
		n := now/100*100 + num(y)
		if n > now {
			n -= 100
		}
		y = strconv.Itoa(n)
	}
	return y, m, d, true
}

// isPDNDate reports whether s is in the form YYYY.MM.DD (digits or ?).
func isPDNDate(s string) bool {
	if len(s) != 10 || s[4] != '.' || s[7] != '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i != 4 && i != 7 && !(s[i] == '?' || s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return true
}

// isDigitDate reports whether s is YYYY.MM.DD in digits.
func isDigitDate(s string) bool {
	return isPDNDate(s) && !strings.Contains(s, "?")
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// num is the value of a field of digits, or -1.
func num(s string) int {
	if !isDigits(s) {
		return -1
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// QueryDate normalises a complete date given to a search in another form
// ("13-01-1996"); a prefix ("1996", "1996.07") is left as it is.
func QueryDate(s string) string {
	n := NormalizeDate(s)
	if n == "" || strings.Contains(n, "?") {
		return s
	}
	return n
}
