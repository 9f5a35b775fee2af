// Package all registers every game Plateau plays; import it for its side
// effect.
package all

import (
	_ "github.com/plateau/plateau/rules/dames"   // dames, dames-brigand, loup-moutons, draughts
	_ "github.com/plateau/plateau/rules/dejarik" // dejarik
	_ "github.com/plateau/plateau/rules/jetan"   // jetan
	_ "github.com/plateau/plateau/rules/ogi"     // ogi
	_ "github.com/plateau/plateau/rules/sauts"   // sauts
)
