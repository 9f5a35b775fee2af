package replay

import (
	"errors"
	"fmt"
	"strings"
)

// ErrSGFGame: a record read from SGF is of a game type (GM) that Plateau
// does not play. Decision: an SGF record is never read under a default or
// detected ruleset; its GM property decides, and none of the SGF game
// numbers is one of Plateau's games today (GM[23] is the unrelated
// "Plateau" of the SGF list), so every SGF game is refused by name. A record
// that also has a Game tag (written by hand into the SGF root) is read
// under that.
var ErrSGFGame = errors.New("SGF game type not played by Plateau")

// sgfNames are the game names of the SGF specification's GM numbers.
var sgfNames = map[string]string{
	"1": "Go", "2": "Othello", "3": "chess", "4": "Gomoku+Renju", "5": "Nine Men's Morris",
	"6": "Backgammon", "7": "Chinese chess", "8": "Shogi", "9": "Lines of Action", "10": "Ataxx",
	"11": "Hex", "12": "Jungle", "13": "Neutron", "14": "Philosopher's Football", "15": "Quadrature",
	"16": "Trax", "17": "Tantrix", "18": "Amazons", "19": "Octi", "20": "Gess", "21": "Twixt",
	"22": "Zertz", "23": "Plateau (the SGF game, not this program's games)", "24": "Yinsh", "25": "Punct",
	"26": "Gobblet", "27": "Hive", "28": "Exxit", "29": "Hnefatafl", "30": "Kuba", "31": "Tripples",
	"32": "Chase", "33": "Tumbling Down", "34": "Sahara", "35": "Byte", "36": "Focus",
	"37": "Dvonn", "38": "Tamsk", "39": "Gipf", "40": "Kropki",
}

func sgfGame(gm string) error {
	gm = strings.TrimSpace(gm)
	name := sgfNames[gm]
	if name == "" {
		name = "unknown"
	}
	return fmt.Errorf("%w: GM[%s] (%s) is not one of its games (plateau games lists them)", ErrSGFGame, gm, name)
}
