package generate_test

import (
	_ "github.com/plateau/plateau/rules/dames"
	_ "github.com/plateau/plateau/rules/dejarik"
	_ "github.com/plateau/plateau/rules/jetan"
	_ "github.com/plateau/plateau/rules/ogi"
	_ "github.com/plateau/plateau/rules/sauts"
)
