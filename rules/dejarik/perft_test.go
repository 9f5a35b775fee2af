package dejarik_test

import (
	"testing"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/dejarik"
)

func TestPerftQuick(t *testing.T) {
	p, err := dejarik.Game.NewPosition("")
	if err != nil {
		t.Fatal(err)
	}
	for d := 1; d <= 6; d++ {
		t.Logf("depth %d: %d", d, rules.Perft(p, d))
	}
}
