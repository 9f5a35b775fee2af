package gametext

import (
	"reflect"
	"testing"
)

func TestHeaderTags(t *testing.T) {
	text := "[Game \"ogi\"]\n[Round \"3\"]\n[Sente \"A \\\"B\\\" \\\\ C\"]\n[SenteElo \"2100\"]\n\n1. Rg2-f2 {[Round \"9\"]} *\n[Round \"4\"]\n"
	for _, c := range []struct {
		names []string
		want  map[string]string
	}{
		{[]string{"Round", "SenteElo"}, map[string]string{"Round": "3", "SenteElo": "2100"}},
		{[]string{"Sente"}, map[string]string{"Sente": `A "B" \ C`}},
		{[]string{"GoteElo"}, map[string]string{}},
	} {
		if got := headerTags([]byte(text), c.names); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: %v, want %v", c.names, got, c.want)
		}
	}
}
