package openings

import "strings"

// A name may begin with a code, ECO-style ("B20 Sicilienne", "C45a
// Écossaise"): its first word, when that word is an upper-case ASCII
// letter, two digits and anything but a space, followed by a space and
// more. The code is part of the name as stored and shown ("B20
// Sicilienne" in the tree, the header and the list, which sorts by code
// first as Scid's ECO order does); a search by opening matches the name
// from its beginning (the code, or a range of codes: "B2") or from after
// the code ("Sicilienne"); an export writes the name without the code as
// the Opening tag and the code as the ECO tag. CodeGlob is the SQL GLOB
// pattern of a coded name, which SplitCode agrees with.
const CodeGlob = `[A-Z][0-9][0-9]* *`

// SplitCode is a name's code and the name after it; "" and the name when
// it has none.
func SplitCode(name string) (code, rest string) {
	word, after, ok := strings.Cut(name, " ")
	if !ok || len(word) < 3 || word[0] < 'A' || word[0] > 'Z' || !isDigit(word[1]) || !isDigit(word[2]) {
		return "", name
	}
	return word, after
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// WithCode is name with code before it, unless code is empty or name
// already begins with a code.
func WithCode(code, name string) string {
	if c, _ := SplitCode(name); code == "" || c != "" || name == "" {
		return name
	}
	return code + " " + name
}
