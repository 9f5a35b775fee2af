package gametext

import (
	"bytes"
	"strings"
)

// headerTags reads the tag pairs of a canonical record (one a line, each
// `[Name "value"]`, at the top) and keeps the named ones.
func headerTags(text []byte, names []string) map[string]string {
	tags := map[string]string{}
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if line[0] != '[' {
			break
		}
		name, rest, ok := bytes.Cut(line[1:], []byte(" "))
		if !ok {
			continue
		}
		for _, want := range names {
			if string(name) == want {
				v := bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("]"))
				v = bytes.TrimSuffix(bytes.TrimPrefix(v, []byte(`"`)), []byte(`"`))
				tags[want] = tagUnescape.Replace(string(v))
			}
		}
	}
	return tags
}

var tagUnescape = strings.NewReplacer(`\"`, `"`, `\\`, `\`)
