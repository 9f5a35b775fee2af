package ogi

import (
	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/draw"
)

var (
	_ draw.Drawer    = game{}
	_ rules.Profiler = game{}
)

// Drawing implements draw.Drawer: 8×8, files a–h left to right, ranks 8→1
// top down (Sente at the bottom), shogi tiles, hands beside the board.
func (game) Drawing(rules.Position) draw.Board {
	b := draw.Checkered(draw.Letters('a', 8), draw.NumbersDown(8), false)
	b.Hands, b.Style, b.Colors = true, draw.Shogi, [2]string{"#f3d9a4", "#f3d9a4"}
	b.Pieces = pieceLegend
	return b
}

// pieceLegend names the pieces as the rules text does (in English), with
// the characters on their faces, the promoted face after the '+'.
var pieceLegend = []draw.Piece{
	{Letter: "K", Name: "King", Mark: "王/玉"},
	{Letter: "I", Name: "Princess", Mark: "姫", Promoted: "promoted Princess", PromotedMark: "神"},
	{Letter: "R", Name: "Rook", Mark: "飛", Promoted: "Dragon", PromotedMark: "龍"},
	{Letter: "B", Name: "Bishop", Mark: "角", Promoted: "Horse", PromotedMark: "馬"},
	{Letter: "S", Name: "Silver General", Mark: "銀", Promoted: "promoted Silver", PromotedMark: "全"},
	{Letter: "N", Name: "Knight", Mark: "桂", Promoted: "promoted Knight", PromotedMark: "圭"},
	{Letter: "L", Name: "Lance", Mark: "香", Promoted: "promoted Lance", PromotedMark: "杏"},
	{Letter: "P", Name: "Pawn", Mark: "歩", Promoted: "Tokin", PromotedMark: "と"},
}

// Profile implements rules.Profiler: the King is the target; games are
// long (a ply limit of 400) and drops are worth playing; positions have too
// many moves to try each of them (the Chooser does its own search).
func (game) Profile() rules.Profile {
	p := rules.DefaultProfile()
	p.Target = pieceLetters[king]
	p.Lookahead = 0
	p.BookDepth = 8
	p.BookWidth = []int{5, 4, 3, 3, 2, 2, 2, 2}
	p.MaxPlies = 400
	p.Resign = 6
	p.ResignPly = 50
	p.Progress = 3
	p.Drop = 5
	return p
}
