package generate_test

// Every rules package is imported here as well as through rules/all, so that
// a game is tested as soon as its package exists, even before rules/all
// lists it.
import (
	_ "github.com/plateau/plateau/rules/dames"
	_ "github.com/plateau/plateau/rules/dejarik"
	_ "github.com/plateau/plateau/rules/jetan"
	_ "github.com/plateau/plateau/rules/ogi"
	_ "github.com/plateau/plateau/rules/sauts"
)
